"""Checks of what a scenario asks of the measured weather: a weather point in reach of every
weather-driven site, and weather-driven profiles only where a source has one.

Run with the other checks (:mod:`geomodel.scenario.checks`); each problem names the
field, the value and what is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geomodel.geo import Location
from geomodel.scenario.schema.pue import WeatherPue

if TYPE_CHECKING:
    from geomodel.scenario.checks import Checker


def check_weather(c: Checker) -> None:
    """Weather-driven PUE and sources need a weather point within reach and a source able to."""
    from geomodel_builtins.weather import REACH_KM, nearest_weather_point

    for name, site in c.scenario.sites.items():
        wants = [("sites", name, "pue")] if isinstance(site.pue, WeatherPue) else []
        for source, supply in site.power_sources.items():
            if supply.weather is None:
                continue
            path = ("sites", name, "power_sources", source, "weather")
            wants.append(path)
            _source_takes_weather(c, path, source, supply)
        if not wants:
            continue
        point = nearest_weather_point(Location(lat=site.lat, lon=site.lon))
        if point.distance_km > REACH_KM:
            for path in wants:
                c.add(
                    path,
                    f"no measured weather within {REACH_KM:g} km of the site ({site.lat:g}, "
                    f"{site.lon:g}); the nearest is {point.describe()}. Weather-driven "
                    "figures need a point in reach: give a constant instead",
                )


def _source_takes_weather(c: Checker, path: tuple, source: str, supply) -> None:
    entry = c.catalog.power_sources.get(source)
    if entry is None:
        return  # the unknown name is reported by the site checks
    options = type(entry).weather_options
    if options is None:
        able = sorted(
            n for n, s in c.catalog.power_sources.items() if type(s).weather_options is not None
        )
        c.add(
            path,
            f"power source {source!r} ({entry.kind}) has no weather-driven profile; sources "
            f"that have one: {', '.join(able) or 'none loaded'}",
        )
        return
    given = supply.weather.model_dump(exclude_none=True)
    for option in sorted(set(given) - options):
        takes = f"takes {', '.join(sorted(options))}" if options else "takes no settings"
        c.add((*path, option), f"power source {source!r} {takes}", value=given[option])
    if supply.profile_csv is not None:
        c.add(path, "give 'weather' or 'profile_csv', not both: each sets the whole profile")
