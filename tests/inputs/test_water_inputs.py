"""Water use inputs: a tower's evaporation against the psychrometric equations by hand,
WUE by cooling kind, a site's own WUE, and caps scaled to the horizon."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from geomodel.inputs.water import (
    CYCLES_OF_CONCENTRATION,
    evaporated_kg_per_kwh_heat,
    site_wue,
    tower_wue,
    water_caps_m3,
)
from geomodel.scenario.schema import Scenario
from geomodel.scenario.schema.pue import COOLING_WUE_L_PER_KWH


def _saturation_pa(t: float) -> float:
    """Magnus (Alduchov and Eskridge 1996), independent of psychrolib's Hyland-Wexler."""
    return 610.94 * math.exp(17.625 * t / (t + 243.04))


def _ratio(pw: float) -> float:
    return 0.621945 * pw / (101_325.0 - pw)


def _enthalpy_kj_kg(t: float, w: float) -> float:
    """ASHRAE Fundamentals: h = 1.006 t + W (2501 + 1.86 t) kJ per kg of dry air."""
    return 1.006 * t + w * (2501 + 1.86 * t)


def test_a_tower_evaporates_what_the_air_takes_up_per_kwh_of_heat():
    # saturated air at 20 degC (its wet-bulb is 20 degC) leaves saturated at 26 degC:
    # W 0.014661 -> 0.021300 kg/kg, h 57.33 -> 80.46 kJ/kg: 3600 x 0.006640 / 23.126
    # = 1.0336 kg of water per kWh of heat (72 % of the heat leaves as vapour)
    w_in, w_out = _ratio(_saturation_pa(20.0)), _ratio(_saturation_pa(26.0))
    by_hand = 3600 * (w_out - w_in) / (_enthalpy_kj_kg(26, w_out) - _enthalpy_kj_kg(20, w_in))
    assert by_hand == pytest.approx(1.0336, rel=1e-3)
    got = evaporated_kg_per_kwh_heat(np.array([20.0]), np.array([100.0]))[0]
    assert got == pytest.approx(by_hand, rel=0.01)


def test_hot_dry_air_takes_up_more_than_cold_air():
    # the water also cools hot dry air as it evaporates: more than the ~1.47 kg/kWh of
    # latent heat alone (3600 / 2450 kJ/kg); cold air warms instead, and takes up less
    hot_dry, cold = evaporated_kg_per_kwh_heat(np.array([38.0, 2.0]), np.array([20.0, 80.0]))
    assert hot_dry > 3600 / 2450 > cold


def test_tower_wue_is_heat_per_it_kwh_times_evaporation_and_blow_down():
    frame = pd.DataFrame({"temperature_c": [20.0], "relative_humidity_pct": [100.0]})
    evaporated = evaporated_kg_per_kwh_heat(np.array([20.0]), np.array([100.0]))[0]
    # PUE 1.1 kWh of heat per kWh of IT; 5 cycles: blow-down adds 1 / (5 - 1)
    assert CYCLES_OF_CONCENTRATION == 5.0
    assert tower_wue(frame, np.array([1.1]))[0] == pytest.approx(1.1 * evaporated * 1.25)


def _scenario(**sites) -> Scenario:
    base = {"lat": 50.11, "lon": 8.68, "power_envelope": 10, "systems": {}}
    return Scenario.model_validate(
        {
            "time": {"start": "2023-07-10T00:00:00+00:00", "hours": 24},
            "sites": {name: {**base, **fields} for name, fields in sites.items()},
        }
    )


def test_wue_by_kind_a_sites_own_and_the_weather(catalog):
    scenario = _scenario(
        towers={"pue": 1.2},
        dry={"pue": 1.2, "cooling": "air"},
        own={"pue": 1.2, "wue": "0.3 L/kWh"},
        weather={"pue": {"model": "weather"}},
    )
    hours = scenario.time.hourly_index()
    pue = np.full((4, 24), 1.2)
    wue = site_wue(scenario, hours, catalog, pue)
    assert wue[0] == pytest.approx(COOLING_WUE_L_PER_KWH["evaporative"]) == pytest.approx(1.06)
    assert wue[1] == pytest.approx(0.0)
    assert wue[2] == pytest.approx(0.3)
    # Frankfurt in July, on the weather: the towers' evaporation at each hour
    from geomodel_builtins.weather import site_weather

    np.testing.assert_allclose(wue[3], tower_wue(site_weather("DE-LU", hours), pue[3]))
    assert 0.8 < wue[3].mean() < 2.5


def test_a_yearly_cap_is_scaled_to_the_horizon():
    scenario = _scenario(a={"pue": 1.2, "water_cap": "876000 m3/year"}, b={"pue": 1.2})
    caps = water_caps_m3(scenario, scenario.time.hourly_index())
    assert caps[0] == pytest.approx(876_000 * 24 / 8760)  # 2,400 m3 over a day
    assert np.isnan(caps[1])
