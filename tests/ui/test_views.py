"""The views of issue 23 as plain functions (no streamlit session): what a solution is,
typical days on their own axis, axes that cannot print "-2f", the energy balance,
capacity factors, duration curves, jobs by outcome against a local-only run, shadow
prices, map labels at their markers and maps in panels. Hand values are derived in
tests/ui/small_scenarios.py."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from geomodel.api import solve
from geomodel.results.planning import BuildRow
from geomodel.scenario import load_scenario
from geomodel.ui import format as fmt
from geomodel.ui import knobs, solution
from geomodel.ui.components import energy
from geomodel.ui.components.charts import AXIS_FORMAT
from geomodel.ui.components.deck import map_panels
from geomodel.ui.components.jobs import job_outcomes, matching, outcome_summary
from geomodel.ui.components.map_view import Label, View, place_labels
from geomodel.ui.components.tables import shown_frame
from geomodel.ui.local_only import local_only_recipe, savings
from geomodel.ui.paths import scenarios_dir
from geomodel.ui.recipe import Recipe, load_recipe
from geomodel.ui.solution import PlanKind, SolveQuality
from geomodel.ui.timeline import timeline

from . import small_scenarios as ss

CAP = 600.0


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return ss.write(tmp_path_factory.mktemp("small"))


@pytest.fixture(scope="module")
def solved(folder, catalog):
    found = {}

    def run(name: str, **overrides):
        key = (name, json.dumps(overrides, sort_keys=True))
        if key not in found:
            found[key] = solve(
                load_scenario(folder / name, overrides=overrides, catalog=catalog), catalog=catalog
            )
        return found[key]

    return run


# ---- what a solution is ----


def test_only_a_proven_optimum_is_green():
    assert SolveQuality("optimal", 0.0, 2.8).level == "success"
    assert SolveQuality("optimal", 0.0, 2.8).text() == "Solved: optimal in 2.8 s."
    within = SolveQuality("optimal", 0.0051)
    assert (
        within.level == "warning" and "0.51 %" in within.text() and "not proven optimal" in within.text()
    )
    stopped = SolveQuality("time_limit", 0.0142, 120.0)
    assert stopped.level == "warning" and stopped.text().startswith("Stopped at the time limit")
    assert "1.42 %" in stopped.text()
    assert SolveQuality("infeasible").level == "error" and not SolveQuality("infeasible").solved
    record = {"status": "optimal", "kpis": {"mip_gap": 0.0142}, "wall_seconds": 3.0}
    assert SolveQuality.of_record(record).level == "warning"


def _rows(*decisions: tuple[str, str, float, str]) -> list[BuildRow]:
    return [
        BuildRow("x", what, where, amount, units, 0.0, 0.0, 0.0)
        for what, where, amount, units in decisions
    ]


def test_a_fractional_plan_says_so(monkeypatch):
    inputs = xr.Dataset(attrs={"solver_options": json.dumps({"integer": {"site_opening": True}})})
    rows = _rows(
        ("gb200_nvl72", "abilene", 285.41, "systems"),
        ("site opened", "the_dalles", 0.015, "1"),
        ("facility power", "abilene", 27.13, "MW"),  # MW are continuous: never "fractional"
        ("gb200_nvl72", "dallas", 400.0000000001, "systems"),  # round-off: whole
    )
    monkeypatch.setattr(solution, "build_decisions", lambda results, inputs: rows)
    kind = solution.plan_kind(xr.Dataset(), inputs)
    assert [(f.where, f.amount) for f in kind.fractional] == [("abilene", 285.41), ("the_dalles", 0.015)]
    text = kind.headline()
    assert text.startswith("A fractional plan: 1 site opened in part (the dalles opened 0.015)")
    assert "285.4 gb200 nvl72 systems at abilene" in text and "whole racks (systems)" in text
    assert PlanKind.from_dict(kind.to_dict()) == kind
    whole = PlanKind({"whole_systems": True, "site_opening": True, "whole_fibre_pairs": True})
    assert whole.headline().startswith("An integer plan")
    assert PlanKind({}).headline().startswith("A relaxed plan (LP)")


def test_whole_units_are_knobs_of_a_plan(catalog):
    plan = load_recipe(Recipe("bundled", "plan-small.yaml"), catalog, scenarios_dir())
    values = knobs.defaults(plan, CAP)
    assert values.whole_units == {
        "whole_systems": False,
        "site_opening": True,
        "whole_fibre_pairs": True,
    }
    values.whole_units["whole_systems"] = True
    found = knobs.overrides(plan, values, CAP)
    assert found["solver.integer.whole_systems"] is True
    again, ignored = knobs.values_from_overrides(plan, found, CAP)
    assert again.whole_units["whole_systems"] is True and not ignored
    quick = load_recipe(Recipe("bundled", "quickstart.yaml"), catalog, scenarios_dir())
    assert knobs.defaults(quick, CAP).whole_units == {}  # nothing to build: no such knob


# ---- typical days drawn as what they are ----


def _typical_inputs() -> xr.Dataset:
    # 4 calendar days as 2 typical days of 2 segments: typical day 1 stands for days 0
    # and 3 (00-12, 12-24), typical day 0 for days 1 and 2 (00-08, 08-24); steps in
    # file order: typical day 0's two segments, then typical day 1's
    step_of = np.array([[0] * 8 + [1] * 16, [2] * 12 + [3] * 12])
    of_day = np.array([1, 0, 0, 1])
    days = pd.date_range("2025-01-01", periods=4, freq="D")
    start = [days[1], days[1] + pd.Timedelta(hours=8), days[0], days[0] + pd.Timedelta(hours=12)]
    return xr.Dataset(
        {
            "dt_hours": ("time", [8.0, 16.0, 12.0, 12.0]),
            "weight": ("time", [2.0, 2.0, 2.0, 2.0]),
            "typical_day_of": ("calendar_day", of_day),
            "step_of_hour": ("hour", step_of[of_day].ravel()),
        },
        coords={"time": pd.DatetimeIndex(start)},
    )


def test_typical_days_are_blocks_of_24_hours_with_their_weights():
    steps = timeline(_typical_inputs())
    assert steps.typical
    assert steps.day.tolist() == [0, 0, 1, 1] and steps.hour.tolist() == [0, 8, 0, 12]
    assert steps.days.tolist() == [2.0, 2.0]
    assert steps.order.tolist() == [1, 0]  # typical day 1 stands for 1 Jan, the first day
    assert steps.steps_in_order() == [2, 3, 0, 1]
    assert steps.step_label(3) == "like 1 Jan · 2 days, 12:00-24:00"
    assert steps.step_label(0) == "like 2 Jan · 2 days, 00:00-08:00"
    # blocks of 24 h with 2 h between them: day 1 from 0, day 0 from 26
    assert [steps.block_x(s) for s in (2, 3, 0, 1)] == [0.0, 12.0, 26.0, 34.0]
    xs, ys = steps.line(np.array([1.0, 2.0, 3.0, 4.0]))
    assert xs == [0.0, 12.0, 12.0, 24.0, None, 26.0, 34.0, 34.0, 50.0]  # broken between days
    assert ys == [3.0, 3.0, 4.0, 4.0, None, 1.0, 1.0, 2.0, 2.0]
    axis = steps.axis()
    assert axis["ticktext"] == ["like 1 Jan<br>2 days", "like 2 Jan<br>2 days"]
    assert steps.hours.sum() == 96.0  # 4 days: the weights of sums and means


def test_calendar_steps_stay_on_the_calendar():
    inputs = xr.Dataset(
        {"dt_hours": ("time", [1.0, 1.0]), "weight": ("time", [1.0, 1.0])},
        coords={"time": pd.date_range("2025-07-01", periods=2, freq="h")},
    )
    steps = timeline(inputs)
    assert not steps.typical and steps.step_label(1) == "2025-07-01 01:00"
    assert steps.axis() == {"title_text": "time (UTC)"}


# ---- numbers that cannot read "-2f", "-0" or "G" ----


def test_round_off_is_drawn_as_zero_and_never_as_minus_zero():
    # -5.7e-14 MW (plan-100k-gpu's grid import) read "-20f" on a default plotly axis
    assert fmt.denoised(np.array([-5.7e-14, 3.0e-15, 100.0])).tolist() == [0.0, 0.0, 100.0]
    assert (
        fmt.fixed(-0.004, 2) == "0.00"
        and fmt.unsigned_zero("-0") == "0"
        and fmt.format_number(-0.0) == "0"
    )
    assert fmt.format_number(-0.0004) == "-4.00e-04"  # a real small negative keeps its sign
    assert AXIS_FORMAT == ",~r"  # d3: decimal, grouped, no SI prefix (f, p, n, µ) and no "-0"
    assert (
        fmt.compact_number(1.0895e9) == "1.09 bn"
        and fmt.format_metric("total_cost_usd_per_year", 1.0895e9) == "1.09 bn"
    )


def test_a_share_is_a_percentage_in_every_table():
    from geomodel.ui.components.kpis import kpi_text_frame

    frame = kpi_text_frame({"renewable_share": 0.5295, "mip_gap": 0.0051, "cost_usd": 1.0})
    rows = frame.set_index("kpi")
    assert (
        rows.loc["renewable_share", "value"] == "52.95" and rows.loc["renewable_share", "units"] == "%"
    )
    assert rows.loc["renewable_share", "name"] == "Renewables"
    assert rows.loc["mip_gap", "name"] == "MIP gap" and rows.loc["mip_gap", "value"] == "0.510"


# ---- energy: balance, capacity factors, duration curves ----


@pytest.fixture(scope="module")
def h100(catalog):
    """The H100 server's power per chip (kW), catalogue inputs: idle, the working extra at
    training load (energy: 0.969 - 0.3925 = 0.5765) and at nameplate (the envelope:
    1.275 - 0.3925 = 0.8825)."""
    spec = catalog.hardware_system(ss.H100)
    idle = spec.idle_power_kw_per_chip
    return idle, spec.training_power_kw_per_chip - idle, spec.active_power_kw_per_chip - idle


def test_the_energy_balance_closes_and_capacity_factors_are_by_hand(solved, h100):
    idle_kw, extra_kw, _ = h100
    result = solved("trace-small.yaml")
    data, inputs = result.dataset, result.inputs
    balance = energy.energy_balance(data, inputs).set_index("site")
    # no grid: the nuclear source supplies all of the facility energy
    for site in ("cheap", "dear"):
        row = balance.loc[site]
        assert row["nuclear_mwh"] == pytest.approx(row["facility_mwh"], rel=1e-9)
        assert row["grid_mwh"] == 0.0
    # 80 chips idle (0.3925 kW each) x PUE 1.2 for 8 h at each site, and at the cheap one
    # the working extra at training load (0.5765 kW) of all four jobs' 40 chip-hours (far moved there)
    idle = 80 * idle_kw * ss.PUE * 8
    assert balance.loc["dear", "facility_mwh"] == pytest.approx(idle / 1000, rel=1e-9)
    working = 4 * 40 * extra_kw * ss.PUE
    assert balance.loc["cheap", "facility_mwh"] == pytest.approx((idle + working) / 1000, rel=1e-9)
    curtailment = energy.curtailment_table(data, inputs).set_index("site")
    # 100 MW flat at 0.9 for 8 h: 720 MWh available; capacity factor = generated / 800 MWh
    assert curtailment.loc["cheap", "available_mwh"] == pytest.approx(720.0)
    assert curtailment.loc["cheap", "available_factor_pct"] == pytest.approx(90.0)
    made = balance.loc["cheap", "facility_mwh"]
    assert curtailment.loc["cheap", "capacity_factor_pct"] == pytest.approx(made / 800 * 100)
    assert curtailment.loc["cheap", "curtailed_mwh"] == pytest.approx(720.0 - made)


def test_duration_curves_span_the_hours_of_the_horizon(solved):
    result = solved("typical-small.yaml")
    steps = timeline(result.inputs)
    assert steps.typical and steps.hours.sum() == pytest.approx(96.0)
    figure = energy.duration_figure(result.dataset, steps)
    for trace in figure.data:
        assert trace.x[-1] == pytest.approx(96.0)
        assert list(trace.y) == sorted(trace.y, reverse=True)  # highest first
    power = energy.power_figure(result.dataset, steps, "abilene")
    bars = [t for t in power.data if t.type == "bar"]
    assert sorted(set(np.round(bars[0].width, 6))) == sorted(set(np.round(steps.dt_hours, 6)))
    assert power.layout.xaxis.ticktext and "like" in power.layout.xaxis.ticktext[0]
    assert power.layout.yaxis.tickformat == AXIS_FORMAT
    assert min(min(t.y) for t in bars if t.name != "battery charging") >= 0.0


# ---- jobs, classes and the local-only run ----


def test_jobs_by_outcome_and_the_savings_of_moving_them(solved, h100):
    result = solved("trace-small.yaml")
    jobs = job_outcomes(result.dataset, result.inputs).set_index("job")
    assert (
        jobs.loc["far", "outcome"] == "moved, on arrival" and jobs.loc["far", "ran_at"] == "cheap 100 %"
    )
    assert jobs.loc["far", "moved_gb"] == pytest.approx(100.0)
    assert jobs.loc["far", "transfer_usd"] == pytest.approx(100 * ss.TRANSFER_USD_PER_GB)
    for name in ("home", "home2", "home3"):
        assert jobs.loc[name, "outcome"] == "at origin, on arrival"
        assert jobs.loc[name, "class"] == "home+2" and jobs.loc[name, "class_size"] == 3
    assert jobs["waited_h"].tolist() == [0.0] * 4  # slack 0: each runs at its arrival
    assert jobs["finish_h"].tolist() == [5.0] * 4  # 40 GPU-hours on 8 chips
    assert matching(jobs.reset_index(), "HOME3")["class"].tolist() == ["home+2"]
    summary = outcome_summary(jobs.reset_index()).set_index("outcome")
    assert (
        summary.loc["moved, on arrival", "jobs"] == 1
        and summary.loc["at origin, on arrival", "jobs"] == 3
    )
    local = local_only_recipe(Recipe("bundled", "trace-small.yaml"), ["trace"])
    assert local.overrides == {"job_tables.trace.stay_at_origin": True, "job_tables.trace.slack": 0.0}
    pinned = solved("trace-small.yaml", **local.overrides)
    saved = savings(result.kpis, pinned.kpis).set_index("kpi")["saved"]
    working_kwh = 40 * h100[1] * ss.PUE  # far's working extra: 27.672 kWh
    assert saved["cost_usd"] == pytest.approx(working_kwh / 1000 * (ss.DEAR - ss.CHEAP), rel=1e-6)
    assert saved["transfer_cost_usd"] == pytest.approx(-2.0)
    assert saved["objective"] == pytest.approx(working_kwh / 1000 * 100 - 2.0, rel=1e-6)


# ---- shadow prices ----


def test_the_envelope_shadow_price_is_what_one_more_mw_saves(solved, h100):
    result = solved("envelope-small.yaml")
    price = result.dataset["envelope_shadow_price_usd_per_mw"].to_series()
    # by hand: one more MW admits 1000 / (0.8825 x 1.2) more working chips an hour at the
    # cheap site (the envelope counts nameplate), each saving 0.5765 x 1.2 kWh x 100 USD/MWh
    # (energy counts training load): 100 x 4 h x 0.5765 / 0.8825 = 261.30 USD/MW
    _, training_extra_kw, nameplate_extra_kw = h100
    by_hand = (ss.DEAR - ss.CHEAP) * 4 * training_extra_kw / nameplate_extra_kw
    assert by_hand == pytest.approx(261.30, abs=0.01)
    assert price["cheap"] == pytest.approx(by_hand, rel=1e-6)
    assert price["dear"] == pytest.approx(0.0, abs=1e-6)  # never binds
    looser = solved("envelope-small.yaml", **{"sites.cheap.power_envelope": 0.61})
    assert result.kpis["objective"] - looser.kpis["objective"] == pytest.approx(0.01 * by_hand, rel=1e-6)
    assert result.dataset.attrs["shadow_price_basis"] == "LP duals"


# ---- maps: labels at their markers, panels per continent ----


def test_a_label_that_must_move_gets_a_leader_line():
    view = View(0.0, 0.0, 5.0, 760, 460)
    crowd = [Label(0.0, 0.0, f"name {k}", 10.0) for k in range(12)]
    placed = place_labels(crowd, view)
    near = [p for p in placed if p.shown and not p.leader]
    far = [p for p in placed if p.shown and p.leader]
    assert near and far  # the first ring fills up; further labels hang on a line
    for p in near:  # beside the marker: its box touches the marker's reach (radius + gap)
        x, y = view.screen(0.0, 0.0)
        gap = max(p.box[0] - x, x - p.box[2], p.box[1] - y, y - p.box[3], 0.0)
        assert gap <= 10.0 * 1.5 + 4.0 + 1e-6
    start, length, _ = far[0].leader_line(10.0)
    assert start == 10.0 and length > 0


def test_sites_on_two_continents_are_two_panels_at_one_scale():
    points = {
        "dallas": (-96.8, 32.8),
        "seattle": (-122.3, 47.6),
        "madrid": (-3.7, 40.4),
        "lulea": (22.2, 65.6),
    }
    panels = map_panels(points, 820)
    assert [sorted(names) for names, _ in panels] == [["dallas", "seattle"], ["lulea", "madrid"]]
    assert sum(w for _, w in panels) == pytest.approx(820 - 16)
    one = map_panels({"keflavik": (-22.6, 64.0), "dublin": (-6.3, 53.3), "hamina": (27.2, 60.6)}, 820)
    assert len(one) == 1  # europe-nordics: no ocean between its points


def test_tables_show_words_and_units():
    frame = pd.DataFrame({"site": ["council_bluffs"], "share": [0.5], "gap": [np.nan]})
    shown = shown_frame(frame, {"site": ("Site", "name"), "share": ("Share (%)", 1), "gap": ("Gap", 2)})
    assert shown.iloc[0].tolist() == ["council bluffs", "0.5", "\\-"]  # a lone "-" is a list item
