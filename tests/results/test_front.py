"""A Pareto front is one table, in the API and in a saved file (issue 13, item 7).

The scenario trades latency against cost in a way worked out by hand: users sit next to
an expensive site ("near", 60 USD/MWh) and far from a cheap one ("far", 20 USD/MWh),
both within the SLA, both with spare chips. The cheapest plan serves everything at far,
the fastest everything at near; a bound between moves demand over in proportion.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb

from geomodel.inputs.build import build_inputs
from geomodel.pareto import pareto_front
from geomodel.results.front import FRONT_KPIS
from geomodel.results.result import open_result

HOURS = 2
#: round trips from the users, derived in tests/model/test_hand_derived.py
NEAR_MS, FAR_MS = 2.816, 14.546


@pytest.fixture(scope="module")
def front(tmp_path_factory, catalog):
    data = sb.scenario(
        {
            "near": sb.site(lat=40.5, lon=-100.0, price=60, carbon=100),
            "far": sb.site(lat=40.0, lon=-90.0, price=20, carbon=100),
        },
        hours=HOURS,
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=20, efficiency=0.5)},
        regions={"users": {"lat": 40.0, "lon": -100.0, "demand": {"chat": "1e6 token/s"}}},
        latency={"technology": "smf_400zr", "route_factor": 1.5, "overhead": "2 ms"},
    )
    folder = tmp_path_factory.mktemp("front")
    inputs = build_inputs(sb.load(folder, data, catalog), catalog)
    return pareto_front(inputs, "latency", 3, host=catalog.host), folder


def cost_usd(h100, near_share: float) -> float:
    """Energy cost of serving ``near_share`` of the demand at near, the rest at far.

    Both sites hold 800 chips drawing idle power (0.3925 kW each) all the time; serving
    1e6 token/s x 2e11 FLOP = 200 PFLOPS takes 200 / (1.979 x 0.5) = 202.12 working chips,
    each 0.8925 - 0.3925 = 0.5 kW above idle at serving load; PUE 1.2, 2 h, 60 and 20 USD/MWh.
    """
    working = 1e6 * 2e11 / 1e15 / (h100.fp8_pflops * 0.5)
    idle_mw = 800 * h100.idle_kw / 1000
    extra_mw = working * h100.serving_extra_kw / 1000
    near_mw = 1.2 * (idle_mw + near_share * extra_mw)
    far_mw = 1.2 * (idle_mw + (1 - near_share) * extra_mw)
    return (60 * near_mw + 20 * far_mw) * HOURS


def test_the_front_is_a_table_a_row_per_point(front, h100):
    table = front[0].result().front
    assert list(table["point"]) == [1, 2, 3]
    assert list(table["role"]) == ["least latency", "bounded", "weighted optimum"]
    assert list(table.columns) == ["point", "role", "bound", "solver_status", *FRONT_KPIS]
    assert (table["solver_status"] == "optimal").all()
    # least latency: all at near; the middle bound (2.816 + 14.546) / 2 = 8.681 ms puts
    # half at each; the weighted optimum: all at the cheaper far site
    assert list(table["latency_ms_mean"]) == pytest.approx(
        [NEAR_MS, (NEAR_MS + FAR_MS) / 2, FAR_MS], abs=2e-3
    )
    assert list(table["latency_ms_p95"]) == pytest.approx([NEAR_MS, FAR_MS, FAR_MS], abs=2e-3)
    assert list(table["cost_usd"]) == pytest.approx(
        [cost_usd(h100, 1.0), cost_usd(h100, 0.5), cost_usd(h100, 0.0)], rel=1e-4
    )
    # with no carbon price or latency weight the objective is the energy cost alone
    assert list(table["objective"]) == pytest.approx(list(table["energy_cost_term_usd"]), rel=1e-9)
    assert (table["carbon_cost_term_usd"] == 0).all()


def test_a_saved_front_gives_the_same_table_and_the_weighted_optimums_kpis(front):
    sweep, folder = front
    path = sweep.result().to_netcdf(folder / "front.nc")
    opened = open_result(path)
    saved, solved = opened.front, sweep.result().front
    assert saved.drop(columns="bound").equals(solved.drop(columns="bound"))
    assert list(saved["bound"]) == pytest.approx(list(solved["bound"]), rel=1e-12)
    # .kpis are the weighted optimum's, the plan an ordinary run gives
    last = sweep.points[-1].kpis
    for name in ("cost_usd", "emissions_tco2", "latency_ms_mean", "objective", "solver_status"):
        assert opened.kpis[name] == last[name], name  # float64 attributes read back exactly
    assert opened.kpis["latency_ms_mean"] == pytest.approx(FAR_MS, abs=2e-3)


def test_an_ordinary_result_has_no_front(tmp_path, catalog):
    result = sb.run(
        tmp_path, sb.scenario({"a": sb.site()}, training={"j": sb.training_job(100)}), catalog
    )
    assert result.front is None


@pytest.fixture(scope="module")
def h100(catalog) -> sb.Server:
    """The built-in H100 server's figures (inputs of the model, read from the catalogue)."""
    return sb.server_figures(catalog)
