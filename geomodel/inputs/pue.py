"""PUE of every site at every hour: its constant, or its cooling kind's curve at the weather.

For a site with ``pue: {model: weather}``, the curve (:class:`PueCurve`: the cooling
kind's, with the site's own parameters) follows the outdoor wet-bulb temperature
(``evaporative``: cooling towers) or the dry-bulb (``air``, ``liquid``: dry coolers) of its
weather point. The wet-bulb comes from the dry-bulb temperature and relative humidity
(psychrolib, ASHRAE Handbook Fundamentals psychrometrics, at the standard sea-level
pressure: sites carry no altitude, and 1,000 m would lower a 30 degC / 40 % wet-bulb by
about 0.6 K). With T that temperature:

    x(T)    = clip((T - economiser_below) / (chiller_above - economiser_below), 0, 1)
    lift(T) = T - economiser_below + LIFT_AT_ECONOMISER_K
    PUE(T)  = pue_economiser + (pue_design - pue_economiser) x x(T) x lift(T) / lift(design_temperature)

x is the chillers' share of the heat; their electric input per unit of heat is
proportional to their lift (condensing minus evaporating temperature; a chiller
runs at a steady fraction of the Carnot COP, whose inverse is lift / evaporating
temperature in kelvin), which rises one for one with the outdoor temperature.
LIFT_AT_ECONOMISER_K: condensing 11 K above the wet-bulb (4 K tower approach,
5 K condenser-water range, 2 K condenser approach) and evaporating 2 K below the
chilled-water supply, itself 6 K above ``economiser_below``: 11 - 6 + 2 = 7 K
[estimate, typical design figures]; the dry kinds take the same offset.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog
from geomodel.geo import Location
from geomodel.inputs.weather import site_weather
from geomodel.scenario.schema import Scenario
from geomodel.scenario.schema.pue import PueCurve

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


def outdoor_temperature_c(weather: pd.DataFrame, curve: PueCurve) -> np.ndarray:
    """The hourly temperature ``curve`` follows: the wet-bulb or the dry-bulb (degC)."""
    dry_bulb = weather["temperature_c"].to_numpy(dtype=float)
    if curve.driver == "dry_bulb":
        return dry_bulb
    return wet_bulb_c(dry_bulb, weather["relative_humidity_pct"].to_numpy(dtype=float))


def weather_pue(temperature_c: np.ndarray, curve: PueCurve) -> np.ndarray:
    """PUE at each outdoor temperature (degC, the curve's driver) on ``curve`` (module doc)."""
    temperature = np.asarray(temperature_c, dtype=float)
    share = np.clip(
        (temperature - curve.economiser_below) / (curve.chiller_above - curve.economiser_below),
        0.0,
        1.0,
    )
    lift = temperature - curve.economiser_below + LIFT_AT_ECONOMISER_K
    design_lift = curve.design_temperature - curve.economiser_below + LIFT_AT_ECONOMISER_K
    extra = (curve.pue_design - curve.pue_economiser) * share * np.maximum(lift, 0.0) / design_lift
    return curve.pue_economiser + extra


def site_pue(scenario: Scenario, hours: pd.DatetimeIndex, catalog: Catalog) -> np.ndarray:
    """(site, hour) PUE: constants repeated, weather-driven sites on their curve.

    The scenario checks have made sure every weather-driven site has a weather
    point in reach in ``catalog``.
    """
    pue = np.empty((len(scenario.sites), len(hours)))
    for i, site in enumerate(scenario.sites.values()):
        curve = site.pue_curve
        if curve is None:
            pue[i] = site.effective_pue
            continue
        weather = site_weather(catalog, Location(lat=site.lat, lon=site.lon), hours)
        pue[i] = weather_pue(outdoor_temperature_c(weather, curve), curve)
    return pue
