"""A bare demand is shorthand for {constant: ...}; variants and --set can add to it."""

from __future__ import annotations

import pytest

from geomodel.scenario import load_scenario


def test_set_adds_a_scale_to_a_bare_demand(catalog):
    # quickstart's Dallas demand is written "chat: 6e6 token/s"
    scenario = load_scenario(
        "scenarios/quickstart.yaml", overrides=["regions.dallas.demand.chat.scale=2"], catalog=catalog
    )
    demand = scenario.regions["dallas"].demand["chat"]
    assert (demand.constant, demand.scale) == (6e6, 2.0)
    series = scenario.origin.demand_series[("dallas", "chat")]
    assert series.unique().tolist() == pytest.approx([12e6])  # 6e6 x 2, every hour


def test_a_bare_demand_in_an_override_still_replaces_the_demand(catalog):
    scenario = load_scenario(
        "scenarios/quickstart.yaml",
        overrides={"regions.new_york.demand.chat": "10e6 token/s"},
        catalog=catalog,
    )
    assert scenario.regions["new_york"].demand["chat"].constant == 10e6
    assert scenario.regions["new_york"].demand["chat"].daily_shape is None
