"""Conformance checks of a weather point's hourly weather.

The weather is asked for on a whole year of hourly UTC timestamps (2025), or on the
hours the point covers when ``hourly_coverage()`` says which. It must be a DataFrame
on exactly that index with the columns of :data:`geomodel.catalog.WEATHER_COLUMNS`, no
gaps, every hour within :data:`geomodel.catalog.WEATHER_BOUNDS`; the same instants
asked for in another time zone must give the same values; and over the hours asked,
the values must look like the columns' units: relative humidity and cloud cover that
never pass 1 are fractions, not percent, and a 10 m wind speed whose mean passes
:data:`MAX_MEAN_WIND_M_S` is in km/h (ERA5's windiest land cells average about
8 m/s at 10 m; the highest annual means on Earth, on Antarctic coasts, are near 20).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from geomodel.catalog import WEATHER_BOUNDS, WEATHER_COLUMNS, WeatherPoint
from geomodel.testing.profiles import bounds_checks, index_check, requested_index, time_zone_check
from geomodel.testing.results import CheckResult

KIND = "weather points"
#: A mean 10 m wind speed above this (m/s) is taken for km/h (module doc).
MAX_MEAN_WIND_M_S = 20.0
#: Kelvin minus degrees Celsius.
KELVIN_OFFSET = 273.15
#: Columns whose unit is percent: a year that never passes 1 was given as a fraction.
PERCENT_COLUMNS = ("relative_humidity_pct", "cloud_cover_pct")


def check_weather_point(
    point: WeatherPoint, plugin: str, *, time_index: pd.DatetimeIndex | None = None
) -> list[CheckResult]:
    """Check ``point.hourly_weather`` on ``time_index`` (default: see the module doc)."""

    def result(check: str, field: str, passed: bool, message: str) -> CheckResult:
        return CheckResult(check, plugin, point.name, field, passed, message, KIND)

    index, _, problem = requested_index(point, time_index)
    if problem:
        return [result("weather-index", "hourly_coverage", False, problem)]
    frame, problem = _call(point, index)
    if problem:
        return [result("weather-runs", "", False, problem)]
    results = [result("weather-runs", "", True, f"hourly_weather gave {len(frame)} rows")]
    results += _columns_check(frame, result)
    results.append(index_check(frame.index, index, result, "weather-index", "weather"))
    if not all(r.passed for r in results):
        return results
    results += _value_checks(frame, result)
    if not all(r.passed for r in results):
        return results
    results += _unit_checks(frame, result)
    call = lambda shifted: _call(point, shifted)  # noqa: E731
    results.append(time_zone_check(call, frame, index, WEATHER_COLUMNS, result, "weather"))
    return results


def _call(point: WeatherPoint, index: pd.DatetimeIndex) -> tuple[Any, str]:
    try:
        frame = point.hourly_weather(index)
    except Exception as error:
        return None, f"hourly_weather raised {type(error).__name__}: {' '.join(str(error).split())}"
    if not isinstance(frame, pd.DataFrame):
        return None, f"hourly_weather returned {type(frame).__name__}, not a pandas DataFrame"
    return frame, ""


def _columns_check(frame: pd.DataFrame, result) -> list[CheckResult]:
    results = []
    for column, unit in WEATHER_COLUMNS.items():
        if column in frame.columns:
            continue
        stem = "_".join(column.split("_")[:2])
        near = [str(c) for c in frame.columns if str(c).startswith(stem)]
        hint = (
            f"; got {near[0]!r}: columns carry their unit in their name, convert to {unit}"
            if near
            else ""
        )
        results.append(
            result("weather-columns", column, False, f"weather lacks column {column!r} ({unit}){hint}")
        )
    if not results:
        results.append(result("weather-columns", "", True, "has " + ", ".join(WEATHER_COLUMNS)))
    return results


def _value_checks(frame: pd.DataFrame, result) -> list[CheckResult]:
    def hint(column: str, worst: float, low: float, high: float) -> str:
        if column == "temperature_c" and low <= worst - KELVIN_OFFSET <= high:
            return f"; {worst:g} looks like kelvin: that is {worst - KELVIN_OFFSET:g} degC"
        return ""

    return bounds_checks(frame, WEATHER_BOUNDS, WEATHER_COLUMNS, result, what="weather", hint=hint)


def _unit_checks(frame: pd.DataFrame, result) -> list[CheckResult]:
    """Values inside the bounds that still give away another unit."""
    results = []
    hours = len(frame)
    for column in PERCENT_COLUMNS:
        peak = float(frame[column].max())
        if hours >= 24 and 0.0 < peak <= 1.0:
            message = (
                f"{column} never passes {peak:g} over {hours} hours: that looks like a fraction; "
                "give percent (0-100)"
            )
            results.append(result("weather-units", column, False, message))
    wind = float(frame["wind_speed_10m_m_s"].mean())
    if wind > MAX_MEAN_WIND_M_S:
        message = (
            f"wind_speed_10m_m_s averages {wind:.3g} over {hours} hours, more than the windiest "
            f"places on Earth ({MAX_MEAN_WIND_M_S:g} m/s): that looks like km/h, which is "
            f"{wind / 3.6:.3g} m/s"
        )
        results.append(result("weather-units", "wind_speed_10m_m_s", False, message))
    if not results:
        results.append(result("weather-units", "", True, "percent columns pass 1, wind speed in m/s"))
    return results
