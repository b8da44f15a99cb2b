"""Built-in link technologies: propagation and capacity derived from physics and specs."""

from __future__ import annotations

import pytest

from geomodel.catalog import Catalog, LinkTechnology

NAMES = {"smf_400zr", "smf_400zr_plus", "smf_800zr", "hcf_800zr"}
SOURCED_FIGURES = {
    "latency_us_per_km",
    "capacity_gbit_s_per_fibre_pair",
    "transceiver_power_w_per_gbit_s",
    "amplifier_power_w_per_span",
    "span_km",
    "reach_km",
    "route_factor",
}

C_KM_PER_S = 299_792.458
SMF_GROUP_INDEX = 1.4677
SMF_US_PER_KM = 1e6 / (C_KM_PER_S / SMF_GROUP_INDEX)
C_BAND_GHZ = 4_800


@pytest.fixture(scope="module")
def links(catalog: Catalog) -> dict[str, LinkTechnology]:
    return {name: catalog.links[name] for name in NAMES}


def test_the_plugin_contributes_exactly_the_documented_links(catalog: Catalog) -> None:
    assert set(catalog.contributions("dci")["link technologies"]) == NAMES


def test_every_physical_figure_has_its_own_source(links) -> None:
    for link in links.values():
        assert link.figure_sources.keys() >= SOURCED_FIGURES, link.name


def test_standard_fibre_is_c_over_group_index(links) -> None:
    for name in ("smf_400zr", "smf_400zr_plus", "smf_800zr"):
        assert links[name].fibre_kind == "standard_smf"
        assert links[name].latency_us_per_km == pytest.approx(SMF_US_PER_KM, rel=0.005)


def test_hollow_core_is_31_to_33_percent_faster_to_cross(links) -> None:
    hcf = links["hcf_800zr"]
    assert hcf.fibre_kind == "hollow_core"
    saving = 1 - hcf.latency_us_per_km / links["smf_800zr"].latency_us_per_km
    assert 0.31 <= saving <= 0.33
    # Light cannot beat vacuum: at least 1 / c.
    assert hcf.latency_us_per_km >= 1e6 / C_KM_PER_S


def test_capacity_per_pair_fills_the_c_band(links) -> None:
    assert links["smf_400zr"].capacity_gbit_s_per_fibre_pair == C_BAND_GHZ / 75 * 400
    assert links["smf_800zr"].capacity_gbit_s_per_fibre_pair == C_BAND_GHZ / 150 * 800
    assert links["hcf_800zr"].capacity_gbit_s_per_fibre_pair == C_BAND_GHZ / 150 * 800


def test_transceiver_power_counts_both_ends(links) -> None:
    assert links["smf_400zr"].transceiver_power_w_per_gbit_s == pytest.approx(2 * 20 / 400)
    assert links["smf_400zr_plus"].transceiver_power_w_per_gbit_s == pytest.approx(2 * 21 / 400)


def test_reach_follows_the_oif_agreements_and_hollow_core_goes_further(links) -> None:
    assert links["smf_400zr"].reach_km == 120
    assert links["smf_800zr"].reach_km == 120
    assert links["smf_400zr_plus"].reach_km == 1_000
    assert links["hcf_800zr"].reach_km > links["smf_800zr"].reach_km
    assert links["hcf_800zr"].span_km > links["smf_800zr"].span_km


def test_route_factor_is_the_bozkurt_median(links) -> None:
    assert {link.route_factor for link in links.values()} == {1.3}


def test_zhangjiakou_to_beijing_matches_the_example_route(links) -> None:
    # docs/data/dci/example_routes.csv: 199.9 km great circle x 1.3 = 259.9 fibre km, 1.273 ms one way.
    route_km = 199.9 * links["smf_400zr_plus"].route_factor
    assert links["smf_400zr_plus"].one_way_latency_ms(route_km) == pytest.approx(1.273, abs=0.002)
