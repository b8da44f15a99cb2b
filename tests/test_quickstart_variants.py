"""The quickstart's variants move the plan the way its comments say (issue 13, item 18).

Each claim is reasoned from the inputs (prices, carbon, round trips), never copied
from a solved plan: the inputs are checked first, then the direction of the move.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fitted_latency import geodesic_km, round_trip_ms

import geomodel
from geomodel.inputs.build import build_inputs

QUICKSTART = Path(__file__).resolve().parents[1] / "scenarios" / "quickstart.yaml"
#: the quickstart's latency technology, smf_400zr: 4.9 us/km one way; no route factor or
#: overhead of its own, so round trips follow the fitted model (tests/fitted_latency.py)
US_PER_KM = 4.9


@pytest.fixture(scope="module")
def inputs(catalog):
    return build_inputs(geomodel.load_scenario(QUICKSTART, catalog=catalog), catalog)


@pytest.fixture(scope="module")
def plans(catalog):
    return {
        name: geomodel.solve(QUICKSTART, variants=variants, catalog=catalog)
        for name, variants in {
            "base": [],
            "carbon": ["carbon_price_100"],
            "tight_sla": ["tight_sla"],
        }.items()
    }


# --- carbon_price_100: training's power moves from the night grid to wind and sun --------


def test_the_inputs_the_carbon_comment_reasons_from(inputs):
    price = inputs["grid_price_usd_per_mwh"].sel(site="abilene").values
    carbon = inputs["grid_carbon_kg_per_mwh"].sel(site="abilene").values
    # the horizon starts at local midnight (UTC-5): 1 to 11 am on both days
    night = np.r_[1:11, 25:35]
    assert price[night].min() > 26.5 and price[night].max() < 30.5  # "about 27-30 USD/MWh"
    assert carbon[night].min() > 325 and carbon[night].max() < 455  # "330-450 kgCO2e/MWh"
    sources = inputs.sel(site="abilene")
    wind = float(sources["source_price_usd_per_mwh"].sel(source="wind_onshore").mean())
    solar = float(sources["source_price_usd_per_mwh"].sel(source="solar_pv").mean())
    assert (wind, solar) == (33.0, 44.0)
    # then the grid undercuts both contracts; at 100 USD/t it is dearer than both:
    # at least 26.7 + 0.331 x 100 = 59.8 > 44 + 0.048 x 100 = 48.8 > 33 + 0.011 x 100 = 34.1
    assert price[night].max() < wind < solar
    carbon_adder = carbon[night] / 1000 * 100
    assert (price[night] + carbon_adder).min() > solar + 48 / 1000 * 100


def abilene_grid_mwh(result) -> float:
    weights = result.inputs["weight"] * result.inputs["dt_hours"]
    return float((result.dataset["grid_import_mw"].sel(site="abilene") * weights).sum())


def test_a_carbon_price_moves_training_power_from_the_grid_to_wind_and_sun(plans):
    base, carbon = plans["base"], plans["carbon"]
    # all of the training stays at Abilene (the GB200s), but its power changes:
    assert carbon.placement.set_index(["workload", "site"]).loc[("pretrain", "abilene"), "share"] == (
        pytest.approx(1.0)
    )
    assert abilene_grid_mwh(carbon) < 0.25 * abilene_grid_mwh(base)  # "all but stops"
    assert carbon.kpis["emissions_tco2"] < base.kpis["emissions_tco2"]
    assert carbon.kpis["renewable_share"] > base.kpis["renewable_share"]
    assert carbon.kpis["energy_cost_term_usd"] > base.kpis["energy_cost_term_usd"]


# --- tight_sla: Chicago's chat moves from Abilene to Council Bluffs ------------------------


SITES = {"abilene": (32.52, -99.78), "council_bluffs": (41.26, -95.86), "ashburn": (39.04, -77.49)}
METROS = {"new_york": (40.71, -74.01), "chicago": (41.88, -87.63), "dallas": (32.78, -96.80)}


def test_the_round_trips_the_sla_comment_reasons_from(inputs):
    """The fitted round trips the scenario's comments quote (tests/fitted_latency.py)."""
    latency = {
        (r, s): round_trip_ms(geodesic_km(METROS[r], SITES[s]), US_PER_KM) for r in METROS for s in SITES
    }
    # 2.36 + 2 x km x f x 4.9 / 1000 with f = 1.535 + 1.213 x 1000 / (km + 1000):
    # Chicago - Abilene, 1,495 km: 2.36 + 2 x 1495 x (1.535 + 1.213 x 1000 / 2495) x 4.9 / 1000
    # = 32.0 ms; Chicago - Council Bluffs 690 km (f 2.253: 17.6), - Ashburn 915 km (f 2.168:
    # 21.8); New York - Ashburn 351 km (f 2.433: 10.7), - Council Bluffs 1,835 km (f 1.963:
    # 37.7); Dallas - Abilene 281 km (f 2.482: 9.2), - Council Bluffs 945 km (f 2.159: 22.3)
    assert latency["chicago", "abilene"] == pytest.approx(32.0, abs=0.05)  # within 35 ms
    assert latency["chicago", "council_bluffs"] == pytest.approx(17.6, abs=0.05)
    assert latency["chicago", "ashburn"] == pytest.approx(21.8, abs=0.05)
    assert latency["new_york", "ashburn"] == pytest.approx(10.7, abs=0.05)
    assert latency["new_york", "council_bluffs"] == pytest.approx(37.7, abs=0.05)  # beyond 35 ms
    assert latency["dallas", "abilene"] == pytest.approx(9.2, abs=0.05)
    assert latency["dallas", "council_bluffs"] == pytest.approx(22.3, abs=0.05)
    # at 35 ms the reach the SLA comment lists; at 20 ms each metro reaches exactly one site,
    # and below Chicago's 17.6 ms none is left for it
    reach = {metro: {s for s in SITES if latency[metro, s] <= 35} for metro in METROS}
    assert reach == {
        "new_york": {"ashburn"},
        "chicago": {"council_bluffs", "ashburn", "abilene"},
        "dallas": {"abilene", "council_bluffs"},
    }
    for metro in METROS:
        assert sum(latency[metro, s] <= 20 for s in SITES) == 1, metro
    assert min(latency["chicago", s] for s in SITES) > 17.5
    for (r, s), ms in latency.items():
        assert float(inputs["latency_ms"].sel(region=r, site=s)) == pytest.approx(ms, rel=1e-6)
    # Chicago's share of the demand: 8 of the 8 + 8 + 6 Mtoken/s means (New York and Chicago
    # share one daily shape, which averages 1 over a day; Dallas is flat), 8 / 22 = 36 %
    demand = inputs["demand_tokens_per_s"].sel(service="chat").sum("time")
    assert float(demand.sel(region="chicago") / demand.sum()) == pytest.approx(8 / 22, rel=1e-9)
    # Abilene's ERCOT power is the cheapest of the three grids over the horizon
    price = inputs["grid_price_usd_per_mwh"].mean("time")
    assert float(price.sel(site="abilene")) < float(price.sel(site="council_bluffs"))
    assert float(price.sel(site="abilene")) < float(price.sel(site="ashburn"))


def served_share(result, region: str, site: str) -> float:
    served = result.dataset["served_tokens_per_s"].sel(service="chat", region=region).sum("time")
    return float(served.sel(site=site) / served.sum())


def test_a_tighter_sla_moves_chicagos_chat_to_council_bluffs(plans):
    base, tight = plans["base"], plans["tight_sla"]
    assert served_share(base, "chicago", "abilene") > 0.99  # the cheapest site in reach
    assert served_share(tight, "chicago", "council_bluffs") == pytest.approx(1.0, abs=1e-9)
    table = tight.placement.set_index(["workload", "site"])["share"]
    assert table.loc[("chat", "council_bluffs")] == pytest.approx(8 / 22, rel=1e-6)
    assert base.kpis["latency_ms_p95"] == pytest.approx(32.0, abs=0.05)
    assert tight.kpis["latency_ms_p95"] == pytest.approx(17.6, abs=0.05)
    assert tight.kpis["energy_cost_term_usd"] > base.kpis["energy_cost_term_usd"]
    assert np.isclose(tight.kpis["unserved_fraction"], 0.0)


def test_the_mean_round_trip_is_the_demand_weighted_one_of_where_chat_went(plans):
    """Each metro's chat goes to the sites above, so the mean round trip is the demand-weighted
    mean of those round trips (demand over the two days in proportion to the means 8, 8 and
    6 Mtoken/s: the daily shapes average 1). Base: New York at Ashburn, Chicago and Dallas at
    Abilene, (8 x 10.72 + 8 x 31.97 + 6 x 9.20) / 22 = 18.03 ms; tight_sla: Chicago at
    Council Bluffs instead, (8 x 10.72 + 8 x 17.59 + 6 x 9.20) / 22 = 12.80 ms."""
    ms = {
        (r, s): round_trip_ms(geodesic_km(METROS[r], SITES[s]), US_PER_KM) for r in METROS for s in SITES
    }
    base = (
        8 * ms["new_york", "ashburn"] + 8 * ms["chicago", "abilene"] + 6 * ms["dallas", "abilene"]
    ) / 22
    tight = (
        8 * ms["new_york", "ashburn"] + 8 * ms["chicago", "council_bluffs"] + 6 * ms["dallas", "abilene"]
    ) / 22
    assert base == pytest.approx(18.03, abs=0.005) and tight == pytest.approx(12.80, abs=0.005)
    assert plans["base"].kpis["latency_ms_mean"] == pytest.approx(base, rel=1e-6)
    assert plans["tight_sla"].kpis["latency_ms_mean"] == pytest.approx(tight, rel=1e-6)
