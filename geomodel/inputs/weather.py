"""Measured weather at the sites: which weather point each takes, and weather-driven output.

The weather comes from the catalogue's weather points (``register_weather_points``: the
built-in ``weather`` plugin's measured 2023 year, or a third party's); a site takes the
nearest point whose reach holds it (:meth:`geomodel.catalog.Catalog.weather_point_in_reach`).
These helpers hand the weather to the PUE curve and the sources that ask for it, and record
for every site which point it took, or that it has none, in the inputs'
``site_weather_json`` attribute.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog
from geomodel.errors import PluginError
from geomodel.geo import Location
from geomodel.plugin_loader import one_line
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
    weather = site_weather(catalog, location, hours)
    options = settings.model_dump(exclude_none=True)
    factors = catalog.power_source(source).weather_capacity_factor(location, weather, options)
    factors = np.asarray(factors, dtype=float)
    if factors.shape != (len(hours),) or not np.isfinite(factors).all():
        raise ValueError(f"power source {source!r}: weather-driven profile is not one number per hour")
    return np.clip(factors, 0.0, 1.0)


def site_weather(catalog: Catalog, location: Location, hours: pd.DatetimeIndex) -> pd.DataFrame:
    """The hourly weather at ``location``: that of its weather point in reach.

    A point whose weather breaks the contract (gaps, a wrong index, a value off the
    Earth's range) or that raises is a :class:`PluginError` naming its plugin.
    """
    match = catalog.weather_point_in_reach(location)
    if match is None:
        raise ValueError(f"no weather point within reach of ({location.lat:g}, {location.lon:g})")
    try:
        return match.point.weather(hours)
    except Exception as error:
        plugin = catalog.provider.get(("weather points", match.point.name), "?")
        distribution = catalog.plugins[plugin].distribution if plugin in catalog.plugins else "?"
        raise PluginError(
            f"plugin {plugin!r} (distribution {distribution}): weather point "
            f"{match.point.name!r} could not give the weather of the horizon: "
            f"{type(error).__name__}: {one_line(error)}"
        ) from error


def site_weather_notes(scenario: Scenario, catalog: Catalog) -> dict[str, dict[str, Any]]:
    """Site -> its weather point (zone, distance) and what follows the weather there.

    A site without a point in reach says so (``"zone": None``) and names the
    nearest point, so a reader of any result knows which numbers are measured. A
    site with one names it, its plugin and its licence.
    """
    notes: dict[str, dict[str, Any]] = {}
    for name, site in scenario.sites.items():
        location = Location(lat=site.lat, lon=site.lon)
        driven = [f"source {s}" for s, supply in site.power_sources.items() if supply.weather]
        if isinstance(site.pue, WeatherPue):
            driven.insert(0, "pue")
        notes[name] = {"weather_driven": driven, **_weather_note(catalog, location)}
    return notes


def _weather_note(catalog: Catalog, location: Location) -> dict[str, Any]:
    taken = catalog.weather_point_in_reach(location)
    if taken is not None:
        point = taken.point
        return {
            "zone": point.zone,
            "distance_km": round(taken.distance_km, 1),
            "weather_point": point.name,
            "plugin": catalog.provider.get(("weather points", point.name)),
            "licence": point.licence,
            "note": f"{point.basis} weather of {taken.describe()}",
        }
    nearest = catalog.nearest_weather_point(location)
    if nearest is None:
        return {"zone": None, "distance_km": None, "note": "no weather point is loaded"}
    return {
        "zone": None,
        "distance_km": round(nearest.distance_km, 1),
        "note": (
            f"no measured weather within {nearest.point.reach_km:g} km (nearest: {nearest.describe()})"
        ),
    }
