"""Built-in hardware systems: golden figures derived from published numbers."""

from __future__ import annotations

import pytest

from geomodel.catalog import Catalog, HardwareSystem
from geomodel_builtins import hardware

NAMES = {
    "hgx_h100_8",
    "hgx_h200_8",
    "hgx_b200_8",
    "hgx_b300_8",
    "gb200_nvl72",
    "gb300_nvl72",
    "mi300x_8",
    "mi325x_8",
    "mi355x_8",
    "cloudmatrix_384",
    "tpu_v5p_slice",
    "tpu_v6e_pod",
    "gaudi3_8",
}

# NVIDIA's GB200 NVL72 page: "720 PFLOPS training" is sparse FP8; dense is half,
# and BF16 runs at half the FP8 rate.
NVL72_FP8_SPARSE_PFLOPS = 720
NVL72_BF16_DENSE_PFLOPS = NVL72_FP8_SPARSE_PFLOPS / 2 / 2
# SemiAnalysis: CloudMatrix 384 = 300 PFLOPS dense BF16 in 16 racks.
CM384_BF16_DENSE_PFLOPS = 300
# Llama 3 (Meta 2024): 16,384 H100 over 54 days had 419 unexpected interruptions.
LLAMA3_GPUS, LLAMA3_HOURS, LLAMA3_INTERRUPTIONS = 16_384, 54 * 24, 419


@pytest.fixture(scope="module")
def systems(catalog: Catalog) -> dict[str, HardwareSystem]:
    return {name: catalog.hardware[name] for name in NAMES}


def test_the_plugin_contributes_exactly_the_documented_systems(catalog: Catalog) -> None:
    assert set(catalog.contributions("hardware")["hardware systems"]) == NAMES


def test_derived_figures_name_their_rule_and_estimates_are_tagged(systems) -> None:
    for system in systems.values():
        assert "chip TDP" in system.figure_sources["idle_power_kw_per_chip"]
        assert system.figure_sources["idle_power_kw_per_chip"].endswith("[estimate]")
        assert "active_power_kw_per_chip" in system.figure_sources, system.name
    assert systems["hgx_h100_8"].figure_sources["mtbf_hours_per_chip"].endswith("[paper]")
    assert systems["gb200_nvl72"].figure_sources["mtbf_hours_per_chip"].endswith("[estimate]")


def test_gb200_nvl72_is_72_gpus_and_180_pflops_dense_bf16(systems) -> None:
    nvl72 = systems["gb200_nvl72"]
    assert nvl72.chips_per_system == 72
    assert nvl72.scale_up_domain_chips == 72
    assert nvl72.bf16_dense_pflops_per_system == pytest.approx(NVL72_BF16_DENSE_PFLOPS, rel=0.05)
    assert systems["gb300_nvl72"].bf16_dense_pflops_per_system == pytest.approx(
        NVL72_BF16_DENSE_PFLOPS, rel=0.05
    )


def test_nvl72_power_per_gpu_is_a_120_to_132_kw_rack_over_72(systems) -> None:
    assert 120 / 72 <= systems["gb200_nvl72"].active_power_kw_per_chip <= 132 / 72


def test_cloudmatrix_384_is_384_chips_in_16_racks_at_300_pflops(systems) -> None:
    cm384 = systems["cloudmatrix_384"]
    assert cm384.chips_per_system == 384
    assert cm384.scale_up_domain_chips == 384
    assert cm384.racks_per_system == 16
    assert cm384.bf16_dense_pflops_per_system == pytest.approx(CM384_BF16_DENSE_PFLOPS, rel=0.05)
    nvl72 = systems["gb200_nvl72"]
    assert cm384.bf16_dense_pflops_per_system >= 1.6 * nvl72.bf16_dense_pflops_per_system
    # 559 kW all-in (SemiAnalysis) spread over 384 NPUs.
    assert cm384.active_power_kw_per_chip == pytest.approx(559 / 384)


def test_432_cloudmatrix_units_hold_165888_chips_in_6912_racks(systems) -> None:
    cm384 = systems["cloudmatrix_384"]
    assert 432 * cm384.chips_per_system == 165_888
    assert 432 * cm384.racks_per_system == 6_912


def test_hgx_h100_power_per_gpu_is_the_dgx_10_2_kw_over_8(systems) -> None:
    assert systems["hgx_h100_8"].active_power_kw_per_chip == pytest.approx(10.2 / 8)


def test_h100_mtbf_predicts_llama3_interruptions_within_5_percent(systems) -> None:
    mtbf = systems["hgx_h100_8"].mtbf_hours_per_chip
    predicted = LLAMA3_GPUS * LLAMA3_HOURS / mtbf
    assert predicted == pytest.approx(LLAMA3_INTERRUPTIONS, rel=0.05)


def test_mtbf_rule_keeps_the_anchor_and_falls_with_chip_power() -> None:
    assert hardware.mtbf_hours_from_tdp(0.7) == pytest.approx(50_000)
    # Only the GPU-related 58.7 % scales: twice the power is 1.587x the failure rate.
    assert hardware.mtbf_hours_from_tdp(1.4) == pytest.approx(50_000 / 1.587)


def test_idle_rule_is_a_share_of_chip_and_overhead_power() -> None:
    # H100: 0.15 x 0.7 kW chip + 0.5 x (1.275 - 0.7) kW host share.
    assert hardware.idle_power_kw(10.2 / 8, 0.7) == pytest.approx(0.105 + 0.2875)


def test_idle_power_is_a_plausible_fraction_of_active(systems) -> None:
    for system in systems.values():
        ratio = system.idle_power_kw_per_chip / system.active_power_kw_per_chip
        assert 0.15 <= ratio <= 0.5, system.name


def test_tpu_systems_follow_the_google_pod_definitions(systems) -> None:
    v5p = systems["tpu_v5p_slice"]
    assert (v5p.chips_per_system, v5p.scale_up_domain_chips) == (4 * 4 * 4, 8_960)
    v6e = systems["tpu_v6e_pod"]
    assert v6e.chips_per_system == v6e.scale_up_domain_chips == 256
    # Google: a v6e pod is 234.9 PFLOPS BF16.
    assert v6e.bf16_dense_pflops_per_system == pytest.approx(234.9, rel=0.01)
    for tpu in (v5p, v6e):
        assert tpu.figure_sources["active_power_kw_per_chip"].endswith("[estimate]")
        assert tpu.capex_usd_per_system is None


def test_capex_is_given_where_a_price_is_published(systems) -> None:
    assert systems["gb200_nvl72"].capex_usd_per_system == 3_000_000
    assert systems["gaudi3_8"].capex_usd_per_system == 125_000
    assert 250_000 <= systems["hgx_h100_8"].capex_usd_per_system <= 300_000


def test_every_row_of_the_power_table_names_a_system_and_gives_its_source() -> None:
    from geomodel_builtins._tables import read_table

    rows = read_table("hardware_power")
    assert {row["name"] for row in rows} == NAMES
    for row in rows:
        for load in ("training", "serving"):
            assert row[f"{load}_source"] and row[f"{load}_source_type"] in {"paper", "estimate"}


def test_the_h100_draws_its_measured_share_of_nameplate_at_load(systems) -> None:
    h100 = systems["hgx_h100_8"]
    # Newkirk et al. 2025: 76 % of the 10.2 kW rating in training: 0.76 x 10.2 / 8 = 0.969 kW
    assert h100.training_power_kw_per_chip == pytest.approx(0.76 * 10.2 / 8)
    # serving: 0.70 x 10.2 / 8 = 0.8925 kW, below POLCA's 0.77 inference peak
    assert h100.serving_power_kw_per_chip == pytest.approx(0.70 * 10.2 / 8)
    assert h100.active_power_kw_per_chip == pytest.approx(10.2 / 8)  # nameplate stays
    assert "Newkirk" in h100.figure_sources["training_power_kw_per_chip"]
    assert h100.figure_sources["training_power_kw_per_chip"].endswith("[paper]")
    for system in systems.values():
        assert system.idle_power_kw_per_chip <= system.serving_kw_per_chip
        assert system.serving_kw_per_chip <= system.training_kw_per_chip
        assert system.training_kw_per_chip <= system.active_power_kw_per_chip


def test_a_system_the_power_table_leaves_out_draws_its_nameplate() -> None:
    values, sources = hardware.load_power_fields("not_in_the_table")
    assert values == {} and sources == {}
    row = {**_row("hgx_h100_8"), "name": "h100_unmeasured"}
    system = hardware.system_from_row(row)
    assert system.training_power_kw_per_chip is None
    assert system.training_kw_per_chip == system.serving_kw_per_chip == pytest.approx(10.2 / 8)


def _row(name: str) -> dict[str, str]:
    from geomodel_builtins._tables import table_row

    return table_row("hardware", "name", name)
