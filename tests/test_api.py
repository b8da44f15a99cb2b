"""The Python API: ``geomodel.api.solve`` / ``solve_inputs`` and the Result they return.

Hand-derived checks of Pareto mode (epsilon bound and single-term minimum), the
solver outcomes in words (infeasible, time limit), variants and overrides, and
the NetCDF round trip. Tiny scenarios come from tests/model/scenario_builder.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from pyproj import Geod

sys.path.insert(0, str(Path(__file__).parent / "model"))

import scenario_builder as sb

from geomodel.api import solve, solve_epsilon_points, solve_inputs
from geomodel.inputs.build import build_inputs
from geomodel.results.kpis import KPI_SPECS
from geomodel.results.result import open_result
from geomodel.solver import highs

QUICKSTART = Path(__file__).resolve().parents[1] / "scenarios" / "quickstart.yaml"
REL = 1e-6


def _round_trip_ms(lat: float, lon: float) -> float:
    """From the users at (40, -100): geodesic km (pyproj, WGS84) x route factor 1.5
    x 4.9 us/km x 2 + 2 ms overhead (docs/scenarios.md, "Latency")."""
    _, _, metres = Geod(ellps="WGS84").inv(-100.0, 40.0, lon, lat)
    return metres / 1000 * 1.5 * 4.9 * 2 / 1000 + 2.0


NEAR_MS = _round_trip_ms(40.5, -100.0)  # 55.52 km: 2.8161 ms
FAR_MS = _round_trip_ms(40.0, -90.0)  # 853.49 km: 14.5463 ms


def two_site_service() -> dict:
    """Users at (40, -100) with 1 Mtoken/s; near is dear and clean, far cheap and dirty,
    both within the 20 ms SLA."""
    return sb.scenario(
        {
            "near": sb.site(lat=40.5, lon=-100.0, price=60, carbon=100),
            "far": sb.site(lat=40.0, lon=-90.0, price=20, carbon=400),
        },
        hours=2,
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=20, efficiency=0.5)},
        regions={"users": {"lat": 40.0, "lon": -100.0, "demand": {"chat": "1e6 token/s"}}},
        latency={"technology": "smf_400zr", "route_factor": 1.5, "overhead": "2 ms"},
    )


def served_share_near(result) -> float:
    served = result.dataset["served_tokens_per_s"].sel(service="chat", region="users")
    return float(served.sel(site="near").sum() / served.sum())


def serving_costs(h100) -> dict:
    """Objective (USD) when a share f of the demand is served at near, as a function of f.

    1 Mtoken/s needs 200 PFLOPS / (1.979 x 0.5) = 202.12 chips working, i.e.
    202.12 x (0.8925 - 0.3925) kW x 1.2 PUE = 0.12127 MW above idle at serving load, for 2 h. Each site's
    800 idle chips draw 0.3768 MW for 2 h regardless.
    """
    chips = 200 / (h100.fp8_pflops * 0.5)
    work_mwh = chips * h100.serving_extra_kw / 1000 * 1.2 * 2
    idle_mwh = 800 * h100.idle_kw / 1000 * 1.2 * 2
    return {
        "work_mwh": work_mwh,
        "idle_mwh": idle_mwh,
        "cost": lambda f: 60 * (idle_mwh + f * work_mwh) + 20 * (idle_mwh + (1 - f) * work_mwh),
        "emissions": lambda f: 0.1 * (idle_mwh + f * work_mwh) + 0.4 * (idle_mwh + (1 - f) * work_mwh),
    }


@pytest.fixture(scope="module")
def h100(catalog):
    return sb.server_figures(catalog)


@pytest.fixture
def service_inputs(tmp_path, catalog):
    return build_inputs(sb.load(tmp_path, two_site_service(), catalog), catalog)


# ---- Pareto mode, by hand ------------------------------------------------------------------


def test_the_weighted_optimum_serves_at_the_cheap_far_site(service_inputs, catalog, h100):
    result = solve_inputs(service_inputs, host=catalog.host)
    assert result.ok, result.messages
    assert served_share_near(result) == pytest.approx(0.0, abs=1e-9)
    assert result.kpis["latency_ms_mean"] == pytest.approx(FAR_MS, rel=1e-6)
    assert result.kpis["objective"] == pytest.approx(serving_costs(h100)["cost"](0.0), rel=REL)


def test_minimising_latency_alone_serves_at_the_near_site(service_inputs, catalog):
    result = solve_inputs(service_inputs, host=catalog.host, minimise="latency")
    assert result.ok, result.messages
    assert served_share_near(result) == pytest.approx(1.0, rel=REL)
    assert result.kpis["latency_ms_mean"] == pytest.approx(NEAR_MS, rel=1e-6)


def test_the_latency_end_of_the_front_is_the_cheapest_plan_at_that_latency(
    service_inputs, catalog, h100
):
    # The end of a Pareto front must not be dominated: among the plans of least latency
    # (all demand at near) the reported one should be the cheapest, 202.12 chips working
    # at near: 60 x (0.7536 + 0.4281) + 20 x 0.7536 = 85.97 USD, and the reported
    # objective is the weighted one at that plan.
    result = solve_inputs(service_inputs, host=catalog.host, minimise="latency")
    assert result.kpis["objective"] == pytest.approx(serving_costs(h100)["cost"](1.0), rel=REL)
    assert result.kpis["energy_mwh"] == pytest.approx(
        2 * serving_costs(h100)["idle_mwh"] + serving_costs(h100)["work_mwh"], rel=REL
    )


def test_a_latency_bound_splits_the_demand_at_the_hand_computed_share(service_inputs, catalog, h100):
    # mean latency f x 2.816 + (1 - f) x 14.546 <= 8 ms  =>  f >= (14.546 - 8) / (14.546 - 2.816)
    # = 0.5581; near is dearer, so the cheapest plan takes exactly that share.
    share = (FAR_MS - 8.0) / (FAR_MS - NEAR_MS)
    assert share == pytest.approx(0.5581, abs=1e-4)
    result = solve_inputs(service_inputs, host=catalog.host, epsilon=("latency", 8.0))
    assert result.ok, result.messages
    assert served_share_near(result) == pytest.approx(share, rel=REL)
    assert result.kpis["latency_ms_mean"] == pytest.approx(8.0, rel=REL)
    assert result.kpis["objective"] == pytest.approx(serving_costs(h100)["cost"](share), rel=REL)


def test_a_carbon_bound_moves_the_hand_computed_share_to_the_clean_site(service_inputs, catalog, h100):
    costs = serving_costs(h100)
    # emissions(f) = 0.1 x (idle + f x work) + 0.4 x (idle + (1 - f) x work) tCO2e;
    # bound halfway between all-far (f = 0) and all-near (f = 1): f = 0.5 exactly
    bound = (costs["emissions"](0.0) + costs["emissions"](1.0)) / 2
    result = solve_inputs(service_inputs, host=catalog.host, epsilon=("carbon", bound))
    assert result.ok, result.messages
    assert served_share_near(result) == pytest.approx(0.5, rel=REL)
    assert result.kpis["emissions_tco2"] == pytest.approx(bound, rel=REL)
    assert result.kpis["objective"] == pytest.approx(costs["cost"](0.5), rel=REL)


@pytest.mark.parametrize("term", ["latency", "carbon"])
def test_warm_pareto_points_reach_the_hand_computed_shares(
    service_inputs, catalog, h100, term, monkeypatch
):
    # One model handed to HiGHS once, the bound changed between solves (Pareto points).
    # latency: f >= (14.546 - L) / (14.546 - 2.816) for a bound of L ms;
    # carbon: emissions(f) <= E gives f >= (emissions(0) - E) / (emissions(0) - emissions(1)).
    costs = serving_costs(h100)
    if term == "latency":
        bounds = [4.0, 8.0, 12.0]
        shares = [(FAR_MS - b) / (FAR_MS - NEAR_MS) for b in bounds]
    else:
        low, high = costs["emissions"](1.0), costs["emissions"](0.0)
        shares = [0.9, 0.5, 0.1]
        bounds = [high - f * (high - low) for f in shares]
    handovers = []
    compile_lp = highs.to_highs_lp
    monkeypatch.setattr(highs, "to_highs_lp", lambda model: handovers.append(model) or compile_lp(model))
    points = solve_epsilon_points(service_inputs, term, bounds, host=catalog.host)
    assert [p.status for p in points] == ["optimal"] * 3
    for point, share in zip(points, shares, strict=True):
        assert served_share_near(point) == pytest.approx(share, rel=REL)
        assert point.kpis["objective"] == pytest.approx(costs["cost"](share), rel=REL)
    # later points start from the first one's basis: the model is handed over once
    assert len(handovers) == 1


def test_every_warm_run_gets_the_whole_time_limit(service_inputs, catalog):
    # HiGHS counts time_limit from a Highs object's first run (ERGO-Code/HiGHS#1477), so
    # a session moves the limit on by the time already run before each solve.
    from geomodel.api import _build, solver_settings
    from geomodel.solver.highs import HighsSession

    model, _, _ = _build(service_inputs, catalog.host, ("carbon", 1e9), "weighted")
    session = HighsSession(model, solver_settings(service_inputs))
    for _ in range(2):
        before_s = session.highs.getRunTime()
        assert session.run().status == "optimal"
        _, limit_s = session.highs.getOptionValue("time_limit")
        assert limit_s == pytest.approx(before_s + 60.0)


# ---- variants, overrides, a path or a Scenario ------------------------------------------------


def test_a_variant_and_the_same_override_give_the_same_result(catalog):
    variant = solve(QUICKSTART, variants=["carbon_price_100"], catalog=catalog)
    override = solve(QUICKSTART, overrides={"objective.carbon_price": 100}, catalog=catalog)
    assert variant.ok and override.ok
    assert variant.kpis["objective"] == pytest.approx(override.kpis["objective"], rel=1e-9)
    # carbon term = 100 USD/t x emissions
    assert variant.kpis["carbon_cost_term_usd"] == pytest.approx(
        100 * variant.kpis["emissions_tco2"], rel=REL
    )
    assert variant.kpis["objective"] == pytest.approx(
        variant.kpis["energy_cost_term_usd"] + variant.kpis["carbon_cost_term_usd"], rel=REL
    )
    assert variant.dataset.attrs["variants"] == "carbon_price_100"


def test_solving_a_path_or_its_loaded_scenario_is_the_same(tmp_path, catalog):
    data = two_site_service()
    from_path = solve(sb.write(tmp_path, data), catalog=catalog)
    from_scenario = sb.run(tmp_path, data, catalog)
    assert from_path.kpis["objective"] == pytest.approx(from_scenario.kpis["objective"], rel=1e-12)
    assert from_path.dataset.attrs["scenario_hash"] == from_scenario.dataset.attrs["scenario_hash"]


# ---- the results file ----------------------------------------------------------------------------


def test_a_result_survives_the_netcdf_round_trip(tmp_path, catalog):
    result = sb.run(tmp_path, two_site_service(), catalog)
    path = result.to_netcdf(tmp_path / "out.nc")
    back = open_result(path)
    for name in KPI_SPECS:
        if isinstance(result.kpis.get(name), float):
            assert back.kpis[name] == pytest.approx(result.kpis[name], rel=1e-12, nan_ok=True)
    assert back.status == result.status
    assert back.messages == result.messages
    for name, variable in back.dataset.data_vars.items():
        assert variable.attrs.get("units") is not None, name
        assert variable.attrs.get("description"), name
    assert float(back.inputs["sla_ms"].sel(service="chat")) == 20.0


# ---- solver outcomes in words ------------------------------------------------------------------


def test_an_infeasible_job_is_reported_with_its_name(tmp_path, catalog, h100):
    # 100 servers x 8 chips x 2 h x 1.7802 EFLOP/chip-h = 2848 EFLOP is the most the
    # window holds; 1e6 EFLOP cannot fit
    data = sb.scenario(
        {"a": sb.site(systems=100)},
        training={"bigjob": sb.training_job(1e6, window={"end": "2025-01-01T02:00:00+00:00"})},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "infeasible"
    assert not result.ok
    assert any("bigjob" in message for message in result.messages), result.messages
    assert "objective" not in result.kpis


def test_a_job_whose_window_holds_no_whole_step_is_infeasible_in_words(tmp_path, catalog):
    data = sb.scenario(
        {"a": sb.site(systems=10)},
        training={"tiny": sb.training_job(10, window={"end": "2025-01-01T00:30:00+00:00"})},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "infeasible"
    assert any("'tiny'" in message for message in result.messages), result.messages


def test_a_time_limit_on_a_milp_is_reported_without_a_crash(catalog):
    result = solve(
        QUICKSTART,
        overrides={
            "solver.integer.systems_on_off": True,
            "solver.integer.dp_replicas": True,
            "solver.participation": "exact",
            "solver.time_limit": 0.001,
            "solver.mip_gap": 0,
        },
        catalog=catalog,
    )
    assert result.status == "time_limit"
    assert not result.ok
    assert result.dataset.attrs["is_mip"] == 1
    assert result.messages, "a non-optimal outcome must say so"
    if "objective" in result.kpis:  # an incumbent: reported as not proven optimal
        assert any("not proven optimal" in m for m in result.messages)
    else:
        assert any("no solution" in m for m in result.messages)


def test_the_quickstart_solves_in_a_few_seconds(catalog, record_property):
    started = time.perf_counter()
    result = solve(QUICKSTART, catalog=catalog)
    seconds = time.perf_counter() - started
    record_property("quickstart_seconds", round(seconds, 3))
    print(f"quickstart: {seconds:.2f} s (build {result.kpis['build_seconds']:.2f} s, "
          f"solve {result.kpis['solve_seconds']:.2f} s)")  # fmt: skip
    assert result.ok, result.messages
