"""The integer options of docs/model.md, each against a hand derivation.

Scenario: one site of 10 HGX H100 servers (80 chips) on a firm source at
50 USD/MWh, PUE 1.2, no grid, 4 hours; a BF16 job with TP 8, MFU 0.5 and
goodput 1 (tests/model/scenario_builder.py).
"""

from __future__ import annotations

import pytest
import scenario_builder as sb

HOURS = 4


@pytest.fixture
def h100(catalog) -> sb.Server:
    return sb.server_figures(catalog)


def work_for_chip_hours(h100: sb.Server, chip_hours: float) -> float:
    return chip_hours * sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)


def test_switching_systems_off_saves_their_idle_power(tmp_path, catalog, h100):
    # Work for 3 servers (24 chips) in every hour. With systems on and off, the 7
    # idle servers switch off: IT = 24 chips x active kW; without it, every
    # installed chip draws idle power and the 24 working ones active power.
    work = work_for_chip_hours(h100, 24 * HOURS)
    base = sb.scenario({"a": sb.site(systems=10)}, hours=HOURS, training={"j": sb.training_job(work)})
    always_on = sb.run(tmp_path, base, catalog)
    switched = sb.run(
        tmp_path, {**base, "solver": {**base["solver"], "integer": {"systems_on_off": True}}}, catalog
    )
    pue = 1.2
    on_mwh = pue * HOURS * (80 * h100.idle_kw + 24 * (h100.training_kw - h100.idle_kw)) / 1000
    switched_mwh = pue * HOURS * 24 * h100.training_kw / 1000
    assert always_on.kpis["energy_mwh"] == pytest.approx(on_mwh, rel=1e-6)
    assert switched.kpis["energy_mwh"] == pytest.approx(switched_mwh, rel=1e-6)
    assert switched.kpis["cost_usd"] == pytest.approx(50 * switched_mwh, rel=1e-6)
    assert switched.dataset.attrs["is_mip"] == 1


def test_whole_replicas_round_the_chips_up_to_a_multiple_of_the_replica(tmp_path, catalog, h100):
    # Work for 20 chips in each hour with TP 8 and PP 2: a replica is 16 chips.
    # The LP runs 20 chips per hour; with whole replicas every hour holds 0, 16,
    # 32, ... chips, so the 80 chip-hours need 5 replica-hours: 2 hours at 32 chips
    # and 1 at 16 (or another split of 5 replica-hours), 80 chip-hours either way,
    # but never a fraction of a replica in any hour.
    work = work_for_chip_hours(h100, 20 * HOURS)
    job = sb.training_job(work, pp=2)
    base = sb.scenario({"a": sb.site(systems=10)}, hours=HOURS, training={"j": job})
    whole = sb.run(
        tmp_path, {**base, "solver": {**base["solver"], "integer": {"dp_replicas": True}}}, catalog
    )
    chips = whole.dataset["training_chips"].sum(("site", "system")).sel(job="j").values
    assert chips.sum() == pytest.approx(80.0, abs=1e-6)
    assert [c / 16 for c in chips] == pytest.approx([round(c / 16) for c in chips], abs=1e-6)
    lp = sb.run(tmp_path, base, catalog)
    assert lp.kpis["energy_mwh"] == pytest.approx(whole.kpis["energy_mwh"], rel=1e-6)
