"""Negative prices (docs/model.md, "Negative prices"): the model stays bounded, no chip
works for nothing, and the KPIs say what was earned.

A site on the grid with its own price series (``grid_price``) so that every price the
model sees is written here; H100 figures are catalogue inputs (tests/model/conftest.py).
"""

from __future__ import annotations

import json

import pandas as pd
import pytest
import scenario_builder as sb

import geomodel

HOURS = 4
REL = 1e-6
#: 2 Mtoken/s of a 2e11 FLOP/token service need 2 x 2e11 x 1e6 / 1e15 = 400 PFLOPS
DEMAND_TOKENS_S = 2e6
NEED_PFLOPS = 400.0


def grid_site(price: dict, systems: int = 100, pue: float = 1.2, **extra) -> dict:
    site = sb.site(systems=systems, pue=pue, **extra)
    del site["power_sources"]
    site["grid"] = "grid_us_ia_miso"
    site["grid_price"] = price
    return site


def serving(site: dict) -> dict:
    return sb.scenario(
        {"s": site},
        hours=HOURS,
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=50, efficiency=0.5)},
        regions={
            "users": {"lat": 40.2, "lon": -100.0, "demand": {"chat": f"{DEMAND_TOKENS_S} token/s"}}
        },
    )


def facility_mw(
    h100, chips_working: float, installed: int = 800, pue: float = 1.2, load: str = "serving"
) -> float:
    """docs/model.md (4): PUE x (installed x idle kW + working x (load - idle) kW) / 1000,
    a working chip at its serving or training power."""
    extra = h100.serving_extra_kw if load == "serving" else h100.working_extra_kw
    return pue * (installed * h100.idle_kw + chips_working * extra) / 1000


def test_a_negative_price_earns_but_no_chip_works_for_nothing(tmp_path, catalog, h100):
    result = sb.run(tmp_path, serving(grid_site({"constant": "-20 USD/MWh"})), catalog)
    assert result.status == "optimal", result.messages
    # chips serving 400 PFLOPS at 1.979 PFLOPS FP8 x efficiency 0.5: 404.245 of the 800
    needed = NEED_PFLOPS / (h100.fp8_pflops * 0.5)
    assert needed == pytest.approx(404.245, rel=1e-5)
    chips = result.dataset["inference_chips"].sum(("service", "system")).sel(site="s").values
    assert chips == pytest.approx([needed] * HOURS, rel=REL)  # not all 800: (2) is an equality
    # 1.2 x (800 x 0.3925 + 404.245 x (0.8925 - 0.3925)) / 1000 = 0.619347 MW, paid -20 USD/MWh
    # for 4 h
    mw = facility_mw(h100, needed)
    assert mw == pytest.approx(0.619347, rel=1e-4)
    earned = 20 * mw * HOURS  # 64.39 USD
    assert result.kpis["negative_price_earnings_usd"] == pytest.approx(earned, rel=REL)
    assert result.kpis["cost_usd"] == pytest.approx(-earned, rel=REL)
    assert result.kpis["objective"] == pytest.approx(-earned, rel=REL)
    assert result.kpis["unserved_fraction"] == pytest.approx(0.0, abs=1e-9)
    # the result names the basis of the grid series it used, and keeps it in NetCDF
    saved = geomodel.open_result(result.to_netcdf(tmp_path / "out.nc"))
    for attrs in (result.dataset.attrs, saved.dataset.attrs):
        assert attrs["carbon_basis"] == "lifecycle" and attrs["grid_series"] == "measured"
        basis = json.loads(attrs["grid_series_basis"])["s"]
        assert (
            basis["price"]
            == "the site's constant -20 USD/MWh; paid = 1 x price + 0 USD/MWh (adder: none)"
        )
        assert basis["carbon"].startswith("grid_us_ia_miso: shaped from annual mean 430 kgCO2e/MWh")


def test_only_negative_hours_count_as_earnings(tmp_path, catalog, h100):
    times = pd.date_range(sb.START, periods=HOURS, freq="h")
    prices = [40.0, -20.0, -50.0, 10.0]
    pd.DataFrame({"time": [t.isoformat() for t in times], "usd": prices}).to_csv(
        tmp_path / "prices.csv", index=False
    )
    result = sb.run(tmp_path, serving(grid_site({"csv": "prices.csv", "column": "usd"})), catalog)
    assert result.status == "optimal", result.messages
    mw = facility_mw(h100, NEED_PFLOPS / (h100.fp8_pflops * 0.5))
    # earned: (20 + 50) x 0.619347 MWh = 43.35 USD; net: (40 - 20 - 50 + 10) x 0.619347 = -12.39
    assert result.kpis["negative_price_earnings_usd"] == pytest.approx(70 * mw, rel=REL)
    assert result.kpis["cost_usd"] == pytest.approx(-20 * mw, rel=REL)


def test_training_moves_into_negative_hours_and_the_model_stays_bounded(tmp_path, catalog, h100):
    # One job of 800 chip-hours at 1.7802 EFLOP each on 800 chips: it needs one hour of
    # every chip, and prices are +50, -30, +50, +50: it runs in hour 1.
    times = pd.date_range(sb.START, periods=HOURS, freq="h")
    pd.DataFrame({"time": [t.isoformat() for t in times], "usd": [50.0, -30.0, 50.0, 50.0]}).to_csv(
        tmp_path / "prices.csv", index=False
    )
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    data = sb.scenario(
        {"s": grid_site({"csv": "prices.csv", "column": "usd"})},
        hours=HOURS,
        training={"pretrain": sb.training_job(800 * rate)},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    chips = result.dataset["training_chips"].sum(("job", "system")).sel(site="s").values
    assert chips[1] == pytest.approx(800, rel=REL)
    assert chips[[0, 2, 3]] == pytest.approx([0, 0, 0], abs=1e-6)
    # earned in hour 1: 30 x 1.2 x (800 x 0.3925 + 800 x (0.969 - 0.3925)) / 1000 = 27.90 USD
    assert result.kpis["negative_price_earnings_usd"] == pytest.approx(
        30 * facility_mw(h100, 800, load="training"), rel=REL
    )


def battery_at_negative_prices(tmp_path, catalog, cycle_cost: float):
    times = pd.date_range(sb.START, periods=HOURS, freq="h")
    pd.DataFrame({"time": [t.isoformat() for t in times], "usd": [-30.0] * HOURS}).to_csv(
        tmp_path / "prices.csv", index=False
    )
    battery = {
        "energy": "10 MWh",
        "power": "5 MW",
        "efficiency": 0.8,
        "cycle_cost": f"{cycle_cost} USD/MWh",
    }
    data = sb.scenario(
        {"s": grid_site({"csv": "prices.csv", "column": "usd"})},
        hours=HOURS,
        extensions={"battery": {"sites": {"s": battery}}},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    return result.dataset.sel(site="s")


def test_an_lp_battery_burns_energy_at_negative_prices_within_its_power(tmp_path, catalog):
    # Charging c and discharging e x c in the same hours leaves the state of charge where it
    # was and draws c (1 - e) MWh for nothing: paid at -30 USD/MWh, the LP does it. It is
    # bounded: the grid import exceeds the facility's draw by at most the battery's power.
    data = battery_at_negative_prices(tmp_path, catalog, cycle_cost=0.0)
    surplus = data["grid_import_mw"].values - data["facility_power_mw"].values
    assert (data["battery_discharge_mw"].values > 1e-6).any()  # cycling while charging
    assert (surplus <= 5.0 + 1e-6).all()


def test_a_cycle_cost_above_the_loss_value_stops_the_burning(tmp_path, catalog):
    # Burning 1 MWh takes c = 1 / (1 - e) charged and e / (1 - e) discharged: it earns
    # |price| and costs cycle_cost x e / (1 - e). With e = 0.8 at -30 USD/MWh it stops
    # paying at cycle_cost >= 30 x 0.2 / 0.8 = 7.5 USD/MWh (docs/model.md).
    data = battery_at_negative_prices(tmp_path, catalog, cycle_cost=8.0)
    assert data["battery_discharge_mw"].values == pytest.approx([0.0] * HOURS, abs=1e-6)
    # it only fills up: 10 MWh - the 5 MWh it starts with, through charging losses sqrt(0.8)
    charged = float(data["battery_charge_mw"].sum())
    assert charged == pytest.approx(5.0 / 0.8**0.5, rel=REL)
