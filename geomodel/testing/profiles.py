"""Conformance checks of a power source's hourly profile.

A profile is asked for on a whole year of hourly UTC timestamps (2025), or on
the hours its data covers when the source says which (a method
``hourly_coverage()`` returning an hourly, timezone-aware DatetimeIndex, as a
source backed by a measured series has). It must return a DataFrame on exactly
that index with the columns of :data:`geomodel.catalog.PROFILE_COLUMNS`, no
gaps, capacity factors in [0, 1], carbon in [0, 2000] kgCO2e/MWh and prices in
[-1000, 20000] USD/MWh in every hour; the same instants asked for in another
time zone must give the same values; and over a whole year (or the covered
hours) each column's mean must equal the entry's figure within
:data:`MEAN_TOLERANCE`. A source whose means depend on the site (solar and wind
scale to the site's resource) passes when the means differ between two far-apart
sites, as the contract allows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from geomodel.catalog import PROFILE_COLUMNS, PowerSource
from geomodel.catalog.entries import check_time_index
from geomodel.geo import Location
from geomodel.testing.entries import FIELD_UNITS, unit_hint
from geomodel.testing.results import CheckResult

KIND = "power sources"
#: Where a source without its own ``location`` is asked for its profile.
DEFAULT_LOCATION = Location(lat=40.0, lon=-100.0)
#: The far-apart site used to tell a site-dependent mean from a wrong one.
OTHER_LOCATION = Location(lat=-33.9, lon=151.2)
#: The year a profile is asked for unless the source covers other hours.
PROFILE_YEAR = 2025
#: Hourly bounds: (low, high) per column.
HOURLY_BOUNDS: dict[str, tuple[float, float]] = {
    "capacity_factor": (0.0, 1.0),
    "price_usd_per_mwh": (-1000.0, 20000.0),
    "carbon_kg_per_mwh": (0.0, 2000.0),
}
#: (relative, absolute) tolerance of each mean against the entry's figure; the
#: larger of the two applies.
MEAN_TOLERANCE: dict[str, tuple[float, float]] = {
    "capacity_factor": (0.01, 0.005),
    "price_usd_per_mwh": (0.01, 0.5),
    "carbon_kg_per_mwh": (0.01, 0.5),
}
#: The time zone the same instants are asked for in (a half-hour offset, so code
#: that reads wall-clock hours from the index shows up).
OTHER_TIME_ZONE = "Asia/Kolkata"
HOURS_PER_YEAR = 8760


def year_index(year: int = PROFILE_YEAR) -> pd.DatetimeIndex:
    """Every hour of ``year`` in UTC."""
    return pd.date_range(f"{year}-01-01", f"{year + 1}-01-01", freq="h", tz="UTC", inclusive="left")


def check_profile(
    source: PowerSource,
    plugin: str,
    *,
    location: Location | None = None,
    time_index: pd.DatetimeIndex | None = None,
) -> list[CheckResult]:
    """Check ``source.hourly_profile`` on ``time_index`` (default: see the module doc)."""
    name = source.name

    def result(check: str, field: str, passed: bool, message: str) -> CheckResult:
        return CheckResult(check, plugin, name, field, passed, message, KIND)

    index, whole, problem = requested_index(source, time_index)
    if problem:
        return [result("profile-index", "hourly_coverage", False, problem)]
    where = location or source.location or DEFAULT_LOCATION
    frame, problem = _call(source, where, index)
    if problem:
        return [result("profile-runs", "", False, problem)]
    results = _shape_checks(frame, index, result)
    if not all(r.passed for r in results):
        return results
    results += _value_checks(frame, result)
    if not all(r.passed for r in results):
        return results
    if whole:
        results += _mean_checks(source, frame, index, where, result)
    results.append(_time_zone_check(source, frame, index, where, result))
    return results


def requested_index(
    source: Any, time_index: pd.DatetimeIndex | None
) -> tuple[pd.DatetimeIndex, bool, str]:
    """(index, whether means are checked on it, problem): ``time_index`` if given, else the
    hours ``source.hourly_coverage()`` returns, else (no such method, or None) a whole year."""
    if time_index is not None:
        return time_index, len(time_index) >= HOURS_PER_YEAR, ""
    coverage = getattr(source, "hourly_coverage", None)
    if not callable(coverage):
        return year_index(), True, ""
    try:
        index = coverage()
        if index is None:
            return year_index(), True, ""
        check_time_index(index)
    except Exception as error:
        return (
            year_index(),
            False,
            f"hourly_coverage() must return hourly, timezone-aware timestamps: {error}",
        )
    if len(index) == 0:
        return index, False, "hourly_coverage() returned no hours"
    return index, True, ""


def _call(source: PowerSource, location: Location, index: pd.DatetimeIndex) -> tuple[Any, str]:
    try:
        frame = source.hourly_profile(location, index)
    except Exception as error:
        return None, f"hourly_profile raised {type(error).__name__}: {' '.join(str(error).split())}"
    if not isinstance(frame, pd.DataFrame):
        return None, f"hourly_profile returned {type(frame).__name__}, not a pandas DataFrame"
    return frame, ""


def _shape_checks(frame: pd.DataFrame, index: pd.DatetimeIndex, result) -> list[CheckResult]:
    results = []
    missing = [column for column in PROFILE_COLUMNS if column not in frame.columns]
    for column in missing:
        stem = column.split("_")[0]
        near = [str(c) for c in frame.columns if str(c).startswith(stem)]
        hint = f"; got {near[0]!r}: columns carry their unit in their name" if near else ""
        message = f"profile lacks column {column!r} ({PROFILE_COLUMNS[column]}){hint}"
        results.append(result("profile-columns", column, False, message))
    if not missing:
        results.append(result("profile-columns", "", True, "has " + ", ".join(PROFILE_COLUMNS)))
    results.append(index_check(frame.index, index, result))
    return results


def index_check(
    got: pd.Index, index: pd.DatetimeIndex, result, check: str = "profile-index", what: str = "profile"
) -> CheckResult:
    """Is ``got`` exactly the requested ``index``? One result of ``check``; messages name ``what``."""

    def failed(message: str) -> CheckResult:
        return result(check, "index", False, message)

    if not isinstance(got, pd.DatetimeIndex):
        return failed(f"{what} index is a {type(got).__name__}, not the requested DatetimeIndex")
    if got.tz is None:
        return failed(f"{what} index has naive timestamps; return the requested, timezone-aware index")
    if got.equals(index):
        message = f"{len(index)} hourly rows from {index[0]} to {index[-1]}, in {index.tz}"
        return result(check, "index", True, message)
    if str(got.tz) != str(index.tz) and got.tz_convert(index.tz).equals(index):
        return failed(f"{what} index is in {got.tz}; return the requested index, in {index.tz}")
    missing = index.difference(got)
    if len(missing):
        return failed(
            f"{what} has a gap: {len(missing)} of {len(index)} requested hours missing, "
            f"first at {missing[0]}"
        )
    extra = got.difference(index)
    if len(extra):
        return failed(f"{what} has {len(extra)} hours not requested, first at {extra[0]}")
    return failed(f"{what} index holds the requested hours in another order or twice")


def _value_checks(frame: pd.DataFrame, result) -> list[CheckResult]:
    def hint(column: str, worst: float, low: float, high: float) -> str:
        return unit_hint(worst, FIELD_UNITS[column], (low, True, high, True))

    return bounds_checks(frame, HOURLY_BOUNDS, PROFILE_COLUMNS, result, what="profile", hint=hint)


def bounds_checks(
    frame: pd.DataFrame,
    bounds: dict[str, tuple[float, float]],
    units: dict[str, str],
    result,
    *,
    what: str,
    hint,
) -> list[CheckResult]:
    """Per bounded column: ``<what>-gaps`` fails on any empty or infinite hour, else
    ``<what>-range`` on any hour outside (low, high), with ``hint(column, worst, low,
    high)`` naming a unit slip ('' when none); shared by profiles and weather."""
    results = []
    for column, (low, high) in bounds.items():
        unit = units[column]
        values = pd.to_numeric(frame[column], errors="coerce").astype(float)
        finite = np.isfinite(values.to_numpy())
        if not finite.all():
            first = frame.index[~finite][0]
            empty = int((~finite).sum())
            message = f"{what} has a gap: {empty} empty or infinite hours in {column}, first at {first}"
            results.append(result(f"{what}-gaps", column, False, message))
            continue
        outside = (values < low) | (values > high)
        if outside.any():
            worst = float(values[outside].iloc[0])
            message = (
                f"{int(outside.sum())} hours of {column} outside [{low:g}, {high:g}] {unit}, "
                f"first {worst:g} at {values.index[outside.to_numpy()][0]}"
                f"{hint(column, worst, low, high)}"
            )
            results.append(result(f"{what}-range", column, False, message))
            continue
        within = f"every hour in [{low:g}, {high:g}]" + (f" {unit}" if unit != "1" else "")
        results.append(result(f"{what}-range", column, True, within))
    return results


def _mean_checks(
    source: PowerSource, frame: pd.DataFrame, index: pd.DatetimeIndex, where: Location, result
) -> list[CheckResult]:
    results = []
    other_frame = None
    for column, (rtol, atol) in MEAN_TOLERANCE.items():
        declared = float(getattr(source, column))
        mean = float(frame[column].mean())
        tolerance = max(rtol * abs(declared), atol)
        unit = f" {PROFILE_COLUMNS[column]}" if PROFILE_COLUMNS[column] != "1" else ""
        if abs(mean - declared) <= tolerance:
            message = (
                f"mean {mean:.4g}{unit} matches the entry's {declared:.4g} (tolerance {tolerance:.3g})"
            )
            results.append(result("profile-mean", column, True, message))
            continue
        if other_frame is None:
            other_frame, _ = _call(source, OTHER_LOCATION, index)
        other = float(other_frame[column].mean()) if isinstance(other_frame, pd.DataFrame) else mean
        if abs(other - mean) > tolerance:
            message = (
                f"mean depends on the site ({mean:.4g} at {where.lat:g}, {where.lon:g}; {other:.4g} "
                f"at {OTHER_LOCATION.lat:g}, {OTHER_LOCATION.lon:g}) against the entry's nominal "
                f"{declared:.4g}, as the contract allows for site-dependent resources"
            )
            results.append(result("profile-mean", column, True, message))
            continue
        ratio = mean / declared if declared else float("inf")
        hint = ""
        for factor, what in (
            (1e-3, "1000 times"),
            (1e3, "1/1000 of"),
            (1e-2, "100 times"),
            (1e2, "1/100 of"),
        ):
            if declared and abs(ratio * factor - 1) < 0.05:
                hint = f"; the profile is {what} the entry's figure: the same unit in both?"
        message = (
            f"profile mean {mean:.4g}{unit} over {len(index)} hours differs from the entry's "
            f"{column} {declared:.4g} by more than {tolerance:.3g}{hint}"
        )
        results.append(result("profile-mean", column, False, message))
    return results


def _time_zone_check(
    source: PowerSource, frame: pd.DataFrame, index: pd.DatetimeIndex, where: Location, result
) -> CheckResult:
    return time_zone_check(
        lambda shifted: _call(source, where, shifted), frame, index, PROFILE_COLUMNS, result
    )


def time_zone_check(
    call, frame: pd.DataFrame, index: pd.DatetimeIndex, columns, result, what: str = "profile"
) -> CheckResult:
    """Ask ``call`` (index -> (frame, problem)) for the same instants in another time zone:
    every column must hold the same values. One result of ``<what>-timezone``."""
    check = f"{what}-timezone"
    zone = OTHER_TIME_ZONE if str(index.tz) != OTHER_TIME_ZONE else "UTC"
    shifted = index.tz_convert(zone)
    other, problem = call(shifted)
    if problem:
        return result(check, "", False, f"asked for the same hours in {zone}: {problem}")
    if not other.index.equals(shifted):
        message = f"asked for the same hours in {zone}, the {what} returned another index"
        return result(check, "index", False, message)
    for column in columns:
        a = frame[column].to_numpy(dtype=float)
        b = other[column].to_numpy(dtype=float)
        differ = ~np.isclose(a, b, rtol=1e-9, atol=1e-9)
        if differ.any():
            at = index[differ][0]
            message = (
                f"values depend on the time zone of the index: at {at} {column} is "
                f"{a[differ][0]:.6g} asked in {index.tz} but {b[differ][0]:.6g} asked in {zone}; "
                "compute from the instants (index.tz_convert('UTC')), not from wall-clock fields"
            )
            return result(check, column, False, message)
    return result(check, "", True, f"same values when the hours are asked in {zone}")
