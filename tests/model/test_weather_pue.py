"""A weather-driven PUE reaches the model hour by hour: facility power = pue[s,t] x IT power."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scenario_builder as sb

from geomodel.inputs.build import build_inputs
from geomodel.inputs.pue import weather_pue, wet_bulb_c
from geomodel.scenario.schema.pue import WeatherPue
from geomodel_builtins.weather import site_weather

REL = 1e-6
#: Frankfurt, 3 km from the DE-LU weather point; a July day with chiller hours.
FRANKFURT = {"lat": 50.11, "lon": 8.68}
JULY = "2025-07-10T00:00:00+00:00"
#: the evaporative curve's temperatures with steeper levels, so a day's swing is plain
CURVE = {"model": "weather", "pue_economiser": 1.10, "pue_design": 1.35}


def _frankfurt(**extra) -> dict:
    site = sb.site(systems=50, price=80, carbon=200, **FRANKFURT)
    site["pue"] = dict(CURVE)
    site.update(extra)
    return site


def test_idle_chips_draw_the_hours_pue(tmp_path, catalog, h100):
    data = sb.scenario({"fra": _frankfurt()}, hours=24)
    data["time"]["start"] = JULY
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    hours = pd.date_range(JULY, periods=24, freq="h")
    frame = site_weather("DE-LU", hours)
    wet = wet_bulb_c(frame["temperature_c"].to_numpy(), frame["relative_humidity_pct"].to_numpy())
    pue = weather_pue(wet, WeatherPue(**CURVE).curve("evaporative"))
    assert pue.max() - pue.min() > 0.02  # the day has economiser and chiller hours
    # 400 idle chips x 0.3925 kW = 0.157 MW of IT power in every hour, times that hour's PUE
    it_mw = 50 * h100.chips_per_system * h100.idle_kw / 1000
    assert it_mw == pytest.approx(0.157)
    facility = result.dataset["facility_power_mw"].sel(site="fra").values
    np.testing.assert_allclose(facility, pue * it_mw, rtol=REL)
    assert result.kpis["energy_mwh"] == pytest.approx((pue * it_mw).sum(), rel=REL)
    assert result.kpis["cost_usd"] == pytest.approx(80 * (pue * it_mw).sum(), rel=REL)


def test_typical_days_keep_the_mean_pue(tmp_path, catalog):
    """A fortnight clustered into 3 typical days: PUE is one of the clustered series, and its
    weighted mean over the steps is the hourly mean (tsam keeps column means)."""
    data = sb.scenario({"fra": _frankfurt(), "b": sb.site(lat=41.0)}, hours=24 * 14)
    data["time"]["start"] = JULY
    data["time"]["aggregation"] = {"typical_days": 3}
    inputs = build_inputs(sb.load(tmp_path, data, catalog), catalog)
    hours = pd.date_range(JULY, periods=24 * 14, freq="h")
    frame = site_weather("DE-LU", hours)
    wet = wet_bulb_c(frame["temperature_c"].to_numpy(), frame["relative_humidity_pct"].to_numpy())
    hourly = weather_pue(wet, WeatherPue(**CURVE).curve("evaporative"))
    pue = inputs["pue"].sel(site="fra").values
    weight = (inputs["weight"] * inputs["dt_hours"]).values
    assert inputs["pue"].dims == ("site", "time") and len(pue) == 3 * 24
    assert (pue * weight).sum() / weight.sum() == pytest.approx(hourly.mean(), rel=1e-3)
    assert np.allclose(inputs["pue"].sel(site="b").values, 1.2)
