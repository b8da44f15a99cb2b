"""Measured weather at the sites: which weather point each takes, and weather-driven output.

The weather itself is the measured year the built-in plugins ship
(:mod:`geomodel_builtins.weather`, the nearest point within 150 km); these helpers
hand it to the sources that ask for it and record, for every site, which point it
took or that it has none, in the inputs' ``site_weather_json`` attribute.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog
from geomodel.geo import Location
from geomodel.scenario.schema import Scenario
from geomodel.scenario.schema.pue import WeatherPue
from geomodel.scenario.schema.weather import SupplyWeather


def weather_capacity_factor(
    catalog: Catalog,
    source: str,
    location: Location,
    hours: pd.DatetimeIndex,
    settings: SupplyWeather,
) -> np.ndarray:
    """Hourly capacity factor of ``source`` at ``location`` from its measured weather.

    The scenario checks have made sure the source has a weather-driven profile and
    the site a weather point in reach.
    """
    from geomodel_builtins.weather import site_weather, weather_point_in_reach

    point = weather_point_in_reach(location)
    weather = site_weather(point.zone, hours)
    options = settings.model_dump(exclude_none=True)
    factors = catalog.power_source(source).weather_capacity_factor(location, weather, options)
    factors = np.asarray(factors, dtype=float)
    if factors.shape != (len(hours),) or not np.isfinite(factors).all():
        raise ValueError(f"power source {source!r}: weather-driven profile is not one number per hour")
    return np.clip(factors, 0.0, 1.0)


def site_weather_notes(scenario: Scenario, catalog: Catalog) -> dict[str, dict[str, Any]]:
    """Site -> its weather point (zone, distance) and what follows the weather there.

    A site without a point in reach says so (``"zone": None``) and names the
    nearest point, so a reader of any result knows which numbers are measured.
    """
    from geomodel_builtins.weather import REACH_KM, nearest_weather_point

    notes: dict[str, dict[str, Any]] = {}
    for name, site in scenario.sites.items():
        point = nearest_weather_point(Location(lat=site.lat, lon=site.lon))
        in_reach = point.distance_km <= REACH_KM
        driven = [f"source {s}" for s, supply in site.power_sources.items() if supply.weather]
        if isinstance(site.pue, WeatherPue):
            driven.insert(0, "pue")
        notes[name] = {
            "zone": point.zone if in_reach else None,
            "distance_km": round(point.distance_km, 1),
            "weather_driven": driven,
            "note": (
                f"measured 2023 weather of {point.describe()}"
                if in_reach
                else f"no measured weather within {REACH_KM:g} km (nearest: {point.describe()})"
            ),
        }
    return notes
