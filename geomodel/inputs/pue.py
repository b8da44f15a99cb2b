"""PUE of every site at every hour: its constant, or the cooling curve at the outdoor wet-bulb.

For a site with ``pue: {model: weather}`` (:class:`WeatherPue`), the wet-bulb
temperature comes from the dry-bulb temperature and relative humidity of its
weather point (psychrolib, ASHRAE Handbook Fundamentals psychrometrics, at the
standard sea-level pressure: sites carry no altitude, and 1,000 m would lower a
30 degC / 40 % wet-bulb by about 0.6 K) and goes through the curve

    x(T)    = clip((T - economiser_below) / (chiller_above - economiser_below), 0, 1)
    lift(T) = T - economiser_below + LIFT_AT_ECONOMISER_K
    PUE(T)  = pue_economiser + (pue_design - pue_economiser) x x(T) x lift(T) / lift(design_wet_bulb)

x is the chillers' share of the heat; their electric input per unit of heat is
proportional to their lift (condensing minus evaporating temperature; a chiller
runs at a steady fraction of the Carnot COP, whose inverse is lift / evaporating
temperature in kelvin), which rises one for one with the wet-bulb.
LIFT_AT_ECONOMISER_K: condensing 11 K above the wet-bulb (4 K tower approach,
5 K condenser-water range, 2 K condenser approach) and evaporating 2 K below the
chilled-water supply, itself 6 K above ``economiser_below``: 11 - 6 + 2 = 7 K
[estimate, typical design figures].
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog
from geomodel.geo import Location
from geomodel.inputs.weather import site_weather
from geomodel.scenario.schema import Scenario
from geomodel.scenario.schema.pue import WeatherPue

#: The standard atmosphere at sea level.
SEA_LEVEL_PA = 101_325.0
#: A chiller's lift (K) when it starts at the economiser limit (module docstring).
LIFT_AT_ECONOMISER_K = 7.0


def wet_bulb_c(temperature_c: np.ndarray, relative_humidity_pct: np.ndarray) -> np.ndarray:
    """Thermodynamic wet-bulb temperature (degC) at sea-level pressure, by psychrolib."""
    pairs = np.round(np.column_stack([temperature_c, relative_humidity_pct]), 2)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    values = np.array([_wet_bulb(float(t), float(rh)) for t, rh in unique])
    return values[inverse.ravel()]


@lru_cache(maxsize=65_536)
def _wet_bulb(temperature_c: float, relative_humidity_pct: float) -> float:
    import psychrolib

    psychrolib.SetUnitSystem(psychrolib.SI)
    humidity = min(max(relative_humidity_pct / 100.0, 0.0), 1.0)
    return psychrolib.GetTWetBulbFromRelHum(temperature_c, humidity, SEA_LEVEL_PA)


def weather_pue(wet_bulb: np.ndarray, curve: WeatherPue) -> np.ndarray:
    """PUE at each outdoor wet-bulb temperature (degC) on ``curve`` (module docstring)."""
    wet_bulb = np.asarray(wet_bulb, dtype=float)
    share = np.clip(
        (wet_bulb - curve.economiser_below) / (curve.chiller_above - curve.economiser_below), 0.0, 1.0
    )
    lift = wet_bulb - curve.economiser_below + LIFT_AT_ECONOMISER_K
    design_lift = curve.design_wet_bulb - curve.economiser_below + LIFT_AT_ECONOMISER_K
    extra = (curve.pue_design - curve.pue_economiser) * share * np.maximum(lift, 0.0) / design_lift
    return curve.pue_economiser + extra


def site_pue(scenario: Scenario, hours: pd.DatetimeIndex, catalog: Catalog) -> np.ndarray:
    """(site, hour) PUE: constants repeated, weather-driven sites on their curve.

    The scenario checks have made sure every weather-driven site has a weather
    point in reach in ``catalog``.
    """
    pue = np.empty((len(scenario.sites), len(hours)))
    for i, site in enumerate(scenario.sites.values()):
        if not isinstance(site.pue, WeatherPue):
            pue[i] = site.effective_pue
            continue
        weather = site_weather(catalog, Location(lat=site.lat, lon=site.lon), hours)
        wet_bulb = wet_bulb_c(weather["temperature_c"].to_numpy(), weather["relative_humidity_pct"])
        pue[i] = weather_pue(wet_bulb, site.pue)
    return pue
