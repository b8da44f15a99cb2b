"""Checks of what a scenario asks of the measured weather: a weather point in reach of every
weather-driven site (from the catalogue's weather points, which plugins register), covering
the horizon, and weather-driven profiles only where a source has one.

Run with the other checks (:mod:`geomodel.scenario.checks`); each problem names the
field, the value and what is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geomodel.catalog.entries import check_time_index
from geomodel.geo import Location
from geomodel.plugin_loader import one_line
from geomodel.scenario.schema.pue import WeatherPue

if TYPE_CHECKING:
    from geomodel.scenario.checker import Checker


def check_weather(c: Checker) -> None:
    """Weather-driven PUE and sources need a weather point within reach and a source able to."""
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
        location = Location(lat=site.lat, lon=site.lon)
        problem = _no_weather(c, location) or _not_covered(c, location)
        for path in wants if problem else ():
            c.add(path, problem)


def _no_weather(c: Checker, location: Location) -> str:
    """Why a site at ``location`` has no weather point in reach, "" if it has one."""
    if c.catalog.weather_point_in_reach(location) is not None:
        return ""
    nearest = c.catalog.nearest_weather_point(location)
    where = f"({location.lat:g}, {location.lon:g})"
    if nearest is None:
        lost = c.catalog.lost_note("weather points")
        return (
            f"no weather point is loaded, so the site {where} has no measured weather (the "
            "built-in plugin 'weather' registers them; see `geomodel plugins`)"
            + (f"; plugins that failed: {lost}" if lost else "")
            + ". Weather-driven figures need a point in reach: give a constant instead"
        )
    return (
        f"no measured weather within {nearest.point.reach_km:g} km of the site {where}; the "
        f"nearest is {nearest.describe()}. Weather-driven figures need a point in reach: "
        "give a constant instead"
    )


def _not_covered(c: Checker, location: Location) -> str:
    """Why the site's weather point lacks hours of the horizon, "" if it covers them all."""
    match = c.catalog.weather_point_in_reach(location)
    plugin = c.catalog.provider.get(("weather points", match.point.name), "?")
    which = f"{match.describe()} (weather point {match.point.name!r} of plugin {plugin!r})"
    try:
        coverage = match.point.hourly_coverage()
        if coverage is not None:
            check_time_index(coverage)
    except Exception as error:
        return (
            f"the site takes the weather of {which}, whose hourly_coverage() failed: {one_line(error)}"
        )
    if coverage is None:
        return ""
    hours = c.scenario.time.hourly_index()
    missing = hours.difference(coverage)
    if missing.empty:
        return ""
    span = "no hour"
    if len(coverage):
        utc = coverage.tz_convert("UTC")
        span = f"{utc.min():%Y-%m-%d %H:%M} to {utc.max():%Y-%m-%d %H:%M} UTC"
    return (
        f"the site takes the weather of {which}, which covers {span}; {len(missing)} of the "
        f"horizon's {len(hours)} hours lie outside it, first {missing[0]}. Choose a horizon "
        "it covers or give a constant instead"
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
