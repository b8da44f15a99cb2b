"""Near-ties are decided by cost, not by solver tolerance (issue 13, item 13).

The issue's scenario: two sites 0.2 degrees apart, each with 10 HGX H100 servers (80
chips) and a 5 MW nuclear contract, one at 50.03 USD/MWh and one at 50.00; users between
them ask 10e6 token/s of a service at 2e9 FLOP per token, FP8, efficiency 0.5, for 4 h.

By hand (H100: 1.979 PFLOPS FP8, 0.8925 kW serving, 0.3925 kW idle per chip; inputs):
serving takes 10e6 x 2e9 / 1e15 / (1.979 x 0.5) = 20.2122 chips. Every installed chip
draws idle power wherever the work runs, so the only choice is where the 20.2122
working chips add their 0.5 kW each: at the 50.00 site. Energy cost over 4 h at
PUE 1.2:

    4 h x 1.2 x [50.03 x 80 x 0.3925 kW + 50.00 x (80 x 0.3925 + 20.2122 x 0.5) kW]
    = 4.8 x (1,570.942 + 2,075.305) / 1000 = 17.501989 USD

against 17.503444 USD with the work at the dearer site: 1.8e-5 USD per chip-hour apart.
(After later changes to the model HiGHS's presolve happens to settle that 4-hour case
exactly; a day of shaped demand, last test, still went to the dearer site with dual
simplex under HiGHS's default tolerance.)
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb

H100 = {"fp8_pflops": 1.979, "serving_kw": 0.8925, "idle_kw": 0.3925}


def near_tie(price_a: float, price_b: float, method: str = "auto") -> dict:
    site = {
        "pue": 1.2,
        "availability": 1.0,
        "power_envelope": "10 MW",
        "systems": {"hgx_h100_8": 10},
    }
    return {
        "name": "near-tie",
        "time": {"start": "2025-01-01T00:00:00+00:00", "hours": 4},
        "sites": {
            "a": {**site, "lat": 50.0, "lon": 10.0, "power_sources": {"nuclear": supply(price_a)}},
            "b": {**site, "lat": 50.2, "lon": 10.0, "power_sources": {"nuclear": supply(price_b)}},
        },
        "regions": {"r": {"lat": 50.1, "lon": 10.0, "demand": {"chat": "10e6 token/s"}}},
        "inference": {
            "chat": {"flop_per_token": "2e9 FLOP", "sla": "50 ms", "efficiency": 0.5, "precision": "fp8"}
        },
        "solver": {"threads": 1, "method": method},
    }


def supply(price: float) -> dict:
    return {"capacity": "5 MW", "price": f"{price} USD/MWh", "carbon": "0 kgCO2/MWh"}


def cost_usd(price_working: float, price_idle: float) -> float:
    """The hand derivation above, with the working chips at the site of ``price_working``."""
    working = 10e6 * 2e9 / 1e15 / (H100["fp8_pflops"] * 0.5)
    idle_kw = 80 * H100["idle_kw"]
    extra_kw = working * (H100["serving_kw"] - H100["idle_kw"])
    return 4 * 1.2 * (price_idle * idle_kw + price_working * (idle_kw + extra_kw)) / 1000


def test_the_figures_are_the_catalogues(catalog):
    spec = catalog.hardware_system("hgx_h100_8")
    assert spec.dense_pflops_per_chip("fp8") == H100["fp8_pflops"]
    assert spec.serving_kw_per_chip == pytest.approx(H100["serving_kw"], rel=1e-12)
    assert spec.idle_power_kw_per_chip == pytest.approx(H100["idle_kw"], rel=1e-12)


@pytest.mark.parametrize("method", ["auto", "dual_simplex", "primal_simplex", "ipm"])
def test_the_issues_near_tie_goes_to_the_cheaper_site(tmp_path, catalog, method):
    result = sb.run(tmp_path, near_tie(50.03, 50.0, method), catalog)
    assert result.status == "optimal"
    assert cost_usd(50.0, 50.03) == pytest.approx(17.501989, abs=5e-7)
    assert cost_usd(50.03, 50.0) == pytest.approx(17.503444, abs=5e-7)
    assert result.kpis["cost_usd"] == pytest.approx(17.501989, abs=5e-7)
    chips = result.dataset["inference_chips"].sum(("service", "system", "time"))
    assert float(chips.sel(site="a")) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("cents_per_chip_hour", [1.0, 0.1, 0.01])
def test_a_cent_per_chip_hour_or_less_is_never_a_tie(tmp_path, catalog, cents_per_chip_hour):
    """A price gap that makes a working chip-hour dearer at 'a' by the given cents:
    a serving chip adds 0.5 kW x PUE 1.2 = 0.6 kW, so the gap is cents / 100 /
    0.6e-3 USD/MWh. Both orders of the sites, so order cannot decide it."""
    gap = cents_per_chip_hour / 100 / (1.2 * (H100["serving_kw"] - H100["idle_kw"]) / 1000)
    for dear, cheap in (("a", "b"), ("b", "a")):
        prices = {dear: 50.0 + gap, cheap: 50.0}
        result = sb.run(tmp_path, near_tie(prices["a"], prices["b"]), catalog)
        assert result.kpis["cost_usd"] == pytest.approx(cost_usd(50.0, 50.0 + gap), rel=1e-12, abs=1e-9)
        chips = result.dataset["inference_chips"].sum(("service", "system", "time"))
        assert float(chips.sel(site=dear)) == pytest.approx(0.0, abs=1e-6), (dear, gap)


SHAPE = [0.5, 0.4, 0.35, 0.3, 0.3, 0.35, 0.5, 0.7, 0.9, 1.1, 1.2, 1.3]
SHAPE += [1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.25, 1.2, 1.1, 1.0, 0.8, 0.6]


@pytest.mark.parametrize("dear", ["a", "b"])
@pytest.mark.parametrize("method", ["dual_simplex", "auto", "ipm"])
def test_a_day_of_shaped_demand_goes_wholly_to_the_cheaper_site(tmp_path, catalog, dear, method):
    """The near-tie over a day: three user regions between the sites, each asking
    3e6 token/s on average with a daily shape (which averages 1, tests/scenario), so
    9e6 token/s x 24 h in all, never more than one site holds (peak 1.3 x 9e6 token/s
    needs 23.6 of its 80 chips). Every working chip-hour belongs at the cheaper site:

        chip-hours = 24 h x 9e6 token/s x 2e9 FLOP / 1e15 / (1.979 x 0.5) = 436.6
        cost = 24 h x 1.2 x 80 x 0.3925 kW x (50.03 + 50.00) / 1000
               + 1.2 x 436.6 x 0.5 kW x 50.00 / 1000

    (Before the tolerance, dual simplex left 127-179 chip-hours at the dearer site.)"""
    prices = {"a": 50.0, "b": 50.0}
    prices[dear] = 50.03
    data = near_tie(prices["a"], prices["b"], method)
    data["time"]["hours"] = 24
    data["regions"] = {
        f"r{i}": {
            "lat": 50.05 + 0.05 * i,
            "lon": 10.0,
            "demand": {"chat": {"daily_shape": SHAPE, "mean": "3e6 token/s"}},
        }
        for i in range(3)
    }
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal"
    chip_hours = 24 * 9e6 * 2e9 / 1e15 / (H100["fp8_pflops"] * 0.5)
    assert chip_hours == pytest.approx(436.6, abs=0.1)
    chips = result.dataset["inference_chips"].sum(("service", "system", "time"))
    assert float(chips.sel(site=dear)) == pytest.approx(0.0, abs=1e-6)
    assert float(chips.sum()) == pytest.approx(chip_hours, rel=1e-9)
    working_kw = H100["serving_kw"] - H100["idle_kw"]
    cost = 24 * 1.2 * 80 * H100["idle_kw"] * (50.03 + 50.0) / 1000
    cost += 1.2 * chip_hours * working_kw * 50.0 / 1000
    assert result.kpis["cost_usd"] == pytest.approx(cost, rel=1e-12)
