"""Pareto mode in planning mode: the cost-emissions front, with the build along it.

The solar scenario of test_planning_optima.py at a carbon price of 0: the firm source
costs 50 USD/MWh and emits 0.5 t/MWh; solar of x MW costs 120 USD per MW over the four
hours and yields min(x cf, L) in each hour of the profile 1, 0.5, 0.25, 0 (L = 7.536 MW).
"""

from __future__ import annotations

import pytest
import scenario_builder as sb
from test_planning_optima import idle_load_mw, solar_scenario, yearly_cost_for

from geomodel.inputs.build import build_inputs
from geomodel.pareto import pareto_front


def test_the_carbon_front_builds_more_solar_as_emissions_are_bounded(tmp_path, catalog, h100):
    """Loose end: solar is worth 50 x 1.75 = 87.5 USD per MW < 120, so none is built;
    emissions 0.5 t x 4 h x L = 2 L t, objective 50 x 4 L = 200 L USD.
    Tight end: the least emissions need the cf-0.25 hour covered, x = 4 L: only hour 3
    (cf 0) buys firm energy, 0.5 L t; the cheapest build at that floor is x = 4 L, objective
    50 L + 120 x 4 L = 530 L. Middle bound (0.5 L + 2 L) / 2 = 1.25 L t allows 2.5 L MWh of
    firm energy; below x = L it is 4 L - 1.75 x, so x = 1.5 L / 1.75 = 6/7 L, objective
    50 x 2.5 L + 120 x 6/7 L.
    """
    load = idle_load_mw(h100, 2000, 1.2)
    data = solar_scenario(tmp_path, yearly_cost_for(120.0, 4))
    data["objective"]["carbon_price"] = "0 USD/tCO2"
    inputs = build_inputs(sb.load(tmp_path, data, catalog), catalog)
    front = pareto_front(inputs, "carbon", 3, host=catalog.host)
    assert all(point.ok for point in front.points), [p.messages for p in front.points]
    assert front.bounds[1] == pytest.approx(1.25 * load, rel=1e-6)
    solar = [float(p.dataset["built_source_mw"].sum()) for p in front.points]
    assert solar == pytest.approx([4 * load, 6 / 7 * load, 0.0], rel=1e-6, abs=1e-6)
    emissions = [p.kpis["emissions_tco2"] for p in front.points]
    assert emissions == pytest.approx([0.5 * load, 1.25 * load, 2 * load], rel=1e-6)
    objective = [p.kpis["objective"] for p in front.points]
    assert objective == pytest.approx(
        [530 * load, 50 * 2.5 * load + 120 * 6 / 7 * load, 200 * load], rel=1e-6
    )
    # the front as one Dataset: the build of each point along the pareto dimension
    stacked = front.dataset()
    assert stacked["built_source_mw"].sum(("site", "source")).values == pytest.approx(solar, abs=1e-6)
