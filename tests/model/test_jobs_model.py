"""Hand-derived optima for job tables: exact work, idle power that can be shed, data
movement, per-site delays, kept chips, and job classes that change nothing but size.

H100 figures (catalogue inputs, the ``h100`` fixture): 0.989 PFLOPS BF16 dense per
chip, 0.969 kW per chip at training load (nameplate 1.275 kW, what the envelope
counts) and 0.3925 kW per idle chip. Table jobs count
their failures in their work (goodput 1), so a GPU-hour on an H100 is one chip-hour
of the model. Every site runs on a flat firm source with its price and carbon
written here; energy = IT power x PUE x hours.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scenario_builder as sb
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geomodel.results.breakdown import breakdown_table
from geomodel.results.jobs import member_schedule

REL = 1e-6


def table_scenario(tmp_path, rows: str, sites: dict, hours: int = 4, table: dict | None = None, **extra):
    (tmp_path / "jobs.csv").write_text(rows)
    spec = {"file": "jobs.csv", "system": sb.H100, **(table or {})}
    return sb.scenario(sites, hours=hours, job_tables={"trace": spec}, **extra)


def chip_hours(result, site: str | None = None) -> float:
    chips = result.dataset["training_chips"]
    if site is not None:
        chips = chips.sel(site=site)
    return float(chips.sum())  # hourly steps: chips x 1 h


# ---- (1) exact work, KPIs of negative prices, (3)-(4) idle power that can be shed ----


def test_work_is_delivered_exactly_even_when_power_is_paid_for(tmp_path, catalog, h100):
    data = table_scenario(
        tmp_path, "name,gpu_hours,chips\njob,40,80\n", {"a": sb.site(systems=10, price=-20, carbon=0)}
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.ok
    # 40 GPU-hours at goodput 1 are 40 chip-hours; with work >= W the LP would run all 80
    # chips for 4 h (320 chip-hours) to burn power it is paid for
    assert chip_hours(result) == pytest.approx(40, rel=REL)
    # every installed chip idles: 80 x 0.3925 kW x 4 h = 125.6 kWh; working adds
    # 40 x (0.969 - 0.3925) = 23.06 kWh; x PUE 1.2 = 178.39 kWh, at -20 USD/MWh
    energy_mwh = (80 * h100.idle_kw * 4 + 40 * h100.working_extra_kw) * 1.2 / 1000
    assert result.kpis["energy_mwh"] == pytest.approx(energy_mwh, rel=REL)
    assert result.kpis["cost_usd"] == pytest.approx(-20 * energy_mwh, rel=REL)
    assert result.kpis["negative_price_earnings_usd"] == pytest.approx(20 * energy_mwh, rel=REL)


def test_idle_power_is_paid_only_on_powered_on_chips_when_shed(tmp_path, catalog, h100):
    rows = "name,gpu_hours,chips\njob,40,80\n"
    site = {"a": sb.site(systems=10, price=50, carbon=100)}
    always = sb.run(tmp_path, table_scenario(tmp_path, rows, site), catalog)
    shed = sb.run(
        tmp_path, table_scenario(tmp_path, rows, site, solver={"shed_idle_power": True}), catalog
    )
    # always on: (80 x 4 chip-hours idle + 40 working extra) x PUE; idle chips: 320 - 40 = 280
    always_mwh = (80 * 4 * h100.idle_kw + 40 * h100.working_extra_kw) * 1.2 / 1000
    idle_mwh = (80 * 4 - 40) * h100.idle_kw * 1.2 / 1000
    assert always.kpis["energy_mwh"] == pytest.approx(always_mwh, rel=REL)
    assert always.kpis["idle_energy_mwh"] == pytest.approx(idle_mwh, rel=REL)
    assert always.kpis["idle_energy_share"] == pytest.approx(idle_mwh / always_mwh, rel=REL)
    # shed: only the 40 working chip-hours are powered, at their full 0.969 kW
    shed_mwh = 40 * h100.training_kw * 1.2 / 1000
    assert shed.kpis["energy_mwh"] == pytest.approx(shed_mwh, rel=REL)
    assert shed.kpis["idle_energy_mwh"] == pytest.approx(0.0, abs=1e-9)
    assert float(shed.dataset["chips_powered_on"].sum()) == pytest.approx(40, rel=REL)
    assert shed.kpis["cost_usd"] == pytest.approx(50 * shed_mwh, rel=REL)


def test_shed_chips_are_powered_within_installed_x_availability(tmp_path, catalog, h100):
    # at a negative price powering chips on is paid for: every available chip is on,
    # 80 x 0.5 availability = 40, idle but for the job's 16 chip-hours
    data = table_scenario(
        tmp_path,
        "name,gpu_hours,chips\njob,16,8\n",
        {"a": sb.site(systems=10, price=-10, carbon=0, availability=0.5)},
        solver={"shed_idle_power": True},
    )
    result = sb.run(tmp_path, data, catalog)
    on = result.dataset["chips_powered_on"].sum("system")
    assert on.values.ravel() == pytest.approx([40] * 4, rel=REL)
    energy_mwh = (40 * 4 * h100.idle_kw + 16 * h100.working_extra_kw) * 1.2 / 1000
    assert result.kpis["negative_price_earnings_usd"] == pytest.approx(10 * energy_mwh, rel=REL)


@pytest.mark.parametrize(
    "solver", [{"shed_idle_power": True}, {"integer": {"systems_on_off": True}}], ids=["shed", "on_off"]
)
def test_idle_chips_are_powered_on_at_a_negative_price_even_where_no_work_may_run(
    tmp_path, catalog, h100, solver
):
    # issue 24, item 9: the job's window is hours 0-1 of 4 (deadline_h 2). Powering an idle
    # chip (or a whole server) on is possible in every hour, work or none, and at
    # -20 USD/MWh it is paid for, so all 80 chips are on in all 4 hours: 80 x 4 x
    # 0.3925 kW idle + 16 working chip-hours x (0.969 - 0.3925) kW training extra =
    # 134.824 kWh, x PUE 1.2 = 161.7888 kWh, earning 20 x 0.1617888 = 3.235776 USD
    # (with chips off outside the window, 80 x 2 h idle: 1.72 USD)
    data = table_scenario(
        tmp_path,
        "name,gpu_hours,chips,deadline_h\njob,16,8,2\n",
        {"a": sb.site(systems=10, price=-20, carbon=0)},
        solver=solver,
    )
    result = sb.run(tmp_path, data, catalog)
    energy_mwh = (80 * 4 * h100.idle_kw + 16 * h100.working_extra_kw) * 1.2 / 1000
    assert energy_mwh == pytest.approx(0.1617888)
    assert result.dataset["chips_powered_on"].sum("system").values.ravel() == pytest.approx(
        [80] * 4, rel=REL
    )
    assert result.kpis["cost_usd"] == pytest.approx(-3.235776, rel=REL)
    assert result.kpis["negative_price_earnings_usd"] == pytest.approx(3.235776, rel=REL)


# ---- (7) data movement ----


def moving_sites(dear_price: float = 130.0) -> dict:
    return {
        "cheap": sb.site(systems=10, price=30, carbon=100),
        "dear": sb.site(lat=41.0, systems=10, price=dear_price, carbon=100),
    }


@pytest.mark.parametrize(("data_gb", "moves"), [(100, True), (300, False)])
def test_a_job_moves_away_from_its_data_only_when_the_energy_saved_pays_the_transfer(
    tmp_path, catalog, h100, data_gb, moves
):
    # 40 chip-hours; idle power is the same wherever the job runs, so moving saves the
    # training extra 40 x (0.969 - 0.3925) kW x PUE 1.2 = 27.672 kWh x (130 - 30) USD/MWh
    # = 2.7672 USD;
    # moving costs 0.02 USD/GB: 2 USD for 100 GB (moves), 6 USD for 300 GB (stays)
    data = table_scenario(
        tmp_path,
        f"name,gpu_hours,chips,origin,data_gb\njob,40,8,dear,{data_gb}\n",
        moving_sites(),
        hours=8,
        data_movement={"price": "0.02 USD/GB"},
    )
    result = sb.run(tmp_path, data, catalog)
    saved = 40 * h100.working_extra_kw * 1.2 / 1000 * (130 - 30)
    assert saved == pytest.approx(2.7672, rel=1e-3)
    at_cheap = chip_hours(result, "cheap")
    assert at_cheap == pytest.approx(40 if moves else 0, abs=1e-6)
    moved = data_gb if moves else 0
    assert result.kpis["transfer_gb"] == pytest.approx(moved, abs=1e-6)
    assert result.kpis["transfer_cost_usd"] == pytest.approx(0.02 * moved, abs=1e-9)
    assert result.kpis["transfer_cost_term_usd"] == pytest.approx(0.02 * moved, abs=1e-9)
    # network energy: 0.00375 kWh/GB (defaults table); both ends at 100 kg/MWh
    assert result.kpis["transfer_energy_mwh"] == pytest.approx(moved * 0.00375 / 1000, abs=1e-12)
    assert result.kpis["transfer_emissions_tco2"] == pytest.approx(
        moved * 0.00375 / 1000 * 0.1, abs=1e-12
    )
    # the breakdown shows those emissions in a row of their own, with no MWh of the sites
    rows = breakdown_table(result.dataset).set_index("name")
    if moves:
        network = rows.loc["data moved (network)"]
        assert network["emissions_tco2"] == pytest.approx(moved * 0.00375 / 1000 * 0.1, rel=1e-9)
        assert math.isnan(network["energy_mwh"]) and network["cost_usd"] == 0
    else:
        assert "data moved (network)" not in rows.index
    assert rows["emissions_tco2"].sum() == pytest.approx(result.kpis["emissions_tco2"], rel=1e-9)


def test_the_data_must_arrive_before_a_job_starts_away_from_its_origin(tmp_path, catalog):
    # 36,000 GB at 10 Gbit/s take 36,000 x 8 / 10 = 28,800 s = 8 h: the cheap site opens
    # for this job at step 8; the transfer is free here, so it runs there once it can
    data = table_scenario(
        tmp_path,
        "name,gpu_hours,chips,origin,data_gb\njob,16,8,dear,36000\n",
        moving_sites(),
        hours=12,
        data_movement={"price": 0, "delay": True, "bandwidth": "10 Gbit/s"},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.inputs["job_first_step"].sel(site="cheap").values.tolist() == [8]
    cheap = result.dataset["training_chips"].sel(site="cheap").sum("system").values.ravel()
    assert cheap[:8] == pytest.approx([0] * 8, abs=1e-9)
    assert cheap[8:].sum() == pytest.approx(16, rel=REL)


# ---- (1) chips kept in every step ----


def test_min_chips_keeps_the_job_running_every_step(tmp_path, catalog):
    # 32 chip-hours in 4 steps with at least 8 chips each: exactly 8 every step
    data = table_scenario(
        tmp_path, "name,gpu_hours,chips,min_chips\njob,32,16,8\n", {"a": sb.site(systems=10)}
    )
    result = sb.run(tmp_path, data, catalog)
    steps = result.dataset["training_chips"].sum(("job", "site", "system")).values
    assert steps == pytest.approx([8, 8, 8, 8], rel=REL)


# ---- job classes: exact, smaller ----


def test_interchangeable_jobs_merge_and_split_back(tmp_path, catalog, h100):
    # short1/short2 fit one step at their chips: free; long_a and long_b both run 2 h at
    # full width (16/8 and 32/16): proportional; long_c runs 3 h: alone. The two short jobs'
    # data differ, so the cheap-to-move one (100 GB: 2 USD < its 2.767 USD saving at a
    # price gap of 500 USD/MWh over 8 chip-hours, 8 x 0.5765 x 1.2 = 5.534 kWh) moves and
    # the other (300 GB: 6 USD) stays
    rows = (
        "name,gpu_hours,chips,origin,data_gb\n"
        "short1,8,8,dear,100\n"
        "short2,8,8,dear,300\n"
        "long_a,16,8,dear,0\n"
        "long_b,32,16,dear,0\n"
        "long_c,24,8,dear,0\n"
    )
    data = table_scenario(
        tmp_path, rows, moving_sites(dear_price=530), hours=6, data_movement={"price": "0.02 USD/GB"}
    )
    merged = sb.run(tmp_path, data, catalog)
    alone = sb.run(tmp_path, data, catalog, overrides={"solver.merge_jobs": False})
    assert list(merged.inputs["job"].values) == ["short1+1", "long_a+1", "long_c"]
    assert merged.inputs["job_free_split"].values.tolist() == [True, False, False]
    assert list(alone.inputs["job"].values) == ["short1", "short2", "long_a", "long_b", "long_c"]
    assert merged.kpis["objective"] == pytest.approx(alone.kpis["objective"], rel=1e-9)
    # the split back: each job's own work, the right short job moved
    rate = h100.bf16_pflops * 0.4 * 3.6
    work = merged.dataset["member_work_eflop"]
    assert work.sum("site").values == pytest.approx(np.array([8, 8, 16, 32, 24]) * rate, rel=REL)
    assert work.sel(job_member="short1", site="cheap").item() == pytest.approx(8 * rate, rel=REL)
    assert work.sel(job_member="short2", site="dear").item() == pytest.approx(8 * rate, rel=REL)
    assert merged.dataset["member_moved_gb"].values.tolist() == pytest.approx(
        [100, 0, 0, 0, 0], abs=1e-6
    )
    assert merged.kpis["transfer_cost_usd"] == pytest.approx(2.0, rel=REL)
    # a member's schedule is its class's chips in its share of the class's work at each site
    long_b = member_schedule(merged.dataset, merged.inputs, "long_b")
    assert float(long_b.sum()) == pytest.approx(32, rel=REL)  # 32 chip-hours
    assert float(long_b.sum(("site", "system")).max()) <= 16 * (1 + REL)  # within its 16 chips


def test_classes_cost_fewer_columns(tmp_path, catalog):
    rows = "name,arrival_h,gpu_hours,chips\n" + "".join(f"j{i},{i % 2},4,8\n" for i in range(20))
    data = table_scenario(tmp_path, rows, {"a": sb.site(systems=10), "b": sb.site(lat=41, systems=10)})
    merged = sb.run(tmp_path, data, catalog)
    alone = sb.run(tmp_path, data, catalog, overrides={"solver.merge_jobs": False})
    # two windows (arrival 0 or 1): two classes of ten jobs each
    assert merged.inputs.sizes["job"] == 2 and alone.inputs.sizes["job"] == 20
    assert merged.kpis["objective"] == pytest.approx(alone.kpis["objective"], rel=1e-9)


def test_an_origin_without_data_does_not_keep_jobs_apart(tmp_path, catalog):
    # issue 24, item 11: with no data to move, a job's origin changes nothing in the model
    # (no transfer, no delay), so jobs of two origins still merge: two windows, two classes
    rows = "name,arrival_h,gpu_hours,chips,origin\n" + "".join(
        f"j{i},{i % 2},4,8,{'ab'[i // 2 % 2]}\n" for i in range(20)
    )
    data = table_scenario(tmp_path, rows, {"a": sb.site(systems=10), "b": sb.site(lat=41, systems=10)})
    merged = sb.run(tmp_path, data, catalog)
    alone = sb.run(tmp_path, data, catalog, overrides={"solver.merge_jobs": False})
    assert merged.inputs.sizes["job"] == 2 and alone.inputs.sizes["job"] == 20
    assert merged.kpis["objective"] == pytest.approx(alone.kpis["objective"], rel=1e-9)
    assert merged.kpis["transfer_gb"] == 0.0


JOBS = st.lists(
    st.tuples(
        st.integers(0, 5),  # arrival hour
        st.sampled_from([0.5, 1.0, 2.0, 3.0]),  # hours at full width
        st.sampled_from([8, 16]),  # chips
        st.sampled_from([0, 2, 4]),  # slack, hours
        st.sampled_from(["a", "b"]),  # origin
        st.sampled_from([0, 50, 500]),  # data, GB
    ),
    min_size=2,
    max_size=7,
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(jobs=JOBS)
def test_merging_never_changes_the_optimum(tmp_path, catalog, jobs):
    """Any small trace: the merged model's optimum equals the per-job model's, with site
    use relaxed. (With binary site use each job alone keeps to one site a step while a
    class is a pool whose members share its sites: merging then relaxes that rule,
    docs/model.md, "Job classes".)"""
    rows = "name,arrival_h,duration_h,chips,slack_h,origin,data_gb\n" + "".join(
        f"j{i},{a},{d},{c},{s},{o},{g}\n" for i, (a, d, c, s, o, g) in enumerate(jobs)
    )
    # a cheap source only in some hours at a and a dearer one always: timing and place matter
    folder = tmp_path
    cheap = sb.profile_csv(folder, "cheap.csv", [1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0])
    site_a = sb.site(systems=4, price=80, carbon=300, supply_mw=5)
    site_a["power_sources"]["solar_pv"] = sb.firm_supply(
        0.02, 10, 0, profile_csv=cheap, profile_column="cf"
    )
    sites = {"a": site_a, "b": sb.site(lat=41, systems=4, price=60, carbon=200, supply_mw=5)}
    data = table_scenario(
        folder,
        rows,
        sites,
        hours=12,
        data_movement={"price": "0.002 USD/GB"},
        solver={"participation": "relaxed"},
    )
    merged = sb.run(folder, data, catalog)
    alone = sb.run(folder, data, catalog, overrides={"solver.merge_jobs": False})
    assert merged.status == alone.status
    if merged.ok:
        assert merged.kpis["objective"] == pytest.approx(alone.kpis["objective"], rel=1e-7, abs=1e-9)
        assert merged.dataset["member_work_eflop"].sum("site").values == pytest.approx(
            merged.inputs["member_work_eflop"].values, rel=1e-6
        )
