"""The measured year shipped with the built-in plugins: hourly grid carbon, prices and weather.

One year (``DATA_YEAR``, 8,760 hours, UTC, hour beginning) per zone, read once from
``data/hourly_2023.npz``; sources and licences are in ``data/hourly_2023.md``, which
travels with the data.

A horizon in any year reads the measured year by the weekday rule of
:func:`data_positions`, and hours a source lacks are filled by :func:`fill_missing`;
:func:`aligned_series` does both.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import numpy as np
import pandas as pd

DATA_YEAR = 2023
ARCHIVE = f"hourly_{DATA_YEAR}"

#: Each series of the archive -> the kind of zone list that indexes it.
SERIES_ZONES: dict[str, str] = {
    "carbon_direct": "carbon",
    "carbon_lifecycle": "carbon",
    "carbon_estimated": "carbon",
    "price": "price",
    "temperature_c": "weather",
    "relative_humidity_pct": "weather",
    "cloud_cover_pct": "weather",
    "wind_speed_10m_km_h": "weather",
}


class _Archive(dict):
    """The archive's arrays by name, each read (decompressed) on first use only: a
    scenario on two grid zones need not inflate the weather of sixteen."""

    def __missing__(self, name: str) -> np.ndarray:
        path = files("geomodel_builtins").joinpath("data", f"{ARCHIVE}.npz")
        with path.open("rb") as handle, np.load(handle, allow_pickle=False) as stored:
            self[name] = stored[name]
        return self[name]


@cache
def _archive() -> _Archive:
    return _Archive()


def data_hours() -> pd.DatetimeIndex:
    """Every hour of the measured year (UTC, hour beginning)."""
    start = pd.Timestamp(f"{DATA_YEAR}-01-01", tz="UTC")
    return pd.date_range(start, start + pd.DateOffset(years=1), freq="1h", inclusive="left")


def data_positions(hours: pd.DatetimeIndex) -> np.ndarray:
    """Position in the measured year of each hour of a horizon in any year (the weekday rule).

    Every hour keeps its UTC hour of day and its weekday: its date moves by the whole
    number of weeks that brings it nearest the same month and day of the data year
    (29 February aims at 28 February, so a leap day reads the Thursday or so after it);
    a date that would still fall outside the data year moves one more week inwards, so
    a few days at a year's ends repeat. Hours of the data year itself map to themselves.
    """
    utc = hours.tz_convert("UTC")
    days = utc.as_unit("s").asi8 // 86_400  # whole days since 1970-01-01 (UTC)
    month, day = utc.month.to_numpy(), utc.day.to_numpy()
    day = np.where((month == 2) & (day == 29), 28, day)
    first = pd.Timestamp(f"{DATA_YEAR}-01-01").value // (86_400 * 10**9)
    # the same month and day in the data year, as days since 1970 (the data year is not a leap year)
    target = first + _MONTH_STARTS[month - 1] + day - 1
    offset = days - target
    data_days = days - np.round(offset / 7.0).astype(np.int64) * 7 - first  # day of the data year
    data_days = np.where(data_days < 0, data_days + 7, data_days)
    data_days = np.where(data_days > _DAYS - 1, data_days - 7, data_days)
    return (data_days * 24 + utc.hour.to_numpy()).astype(np.int64)


#: Day of the (non-leap) data year on which each month starts, and the year's days.
_MONTH_STARTS = np.cumsum([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30])
_DAYS = 365


def fill_missing(values: np.ndarray) -> tuple[np.ndarray, int]:
    """The year with empty hours filled, and how many were: a straight line between the
    nearest measured hours on either side, around the year's end where a gap touches it."""
    missing = np.isnan(values)
    if not missing.any():
        return values, 0
    if missing.all():
        raise ValueError("no hour of the year is measured")
    n = len(values)
    measured_at = np.flatnonzero(~missing)
    # three copies of the measured hours so a gap at either end has neighbours
    xs = np.concatenate([measured_at - n, measured_at, measured_at + n])
    ys = np.tile(values[measured_at], 3)
    filled = values.copy()
    filled[missing] = np.interp(np.flatnonzero(missing), xs, ys)
    return filled, int(missing.sum())


@dataclass(frozen=True)
class AlignedSeries:
    """A measured series on a horizon's hours, and how many hours of its year were filled."""

    values: np.ndarray
    filled_hours: int


def aligned_series(
    zone: str, series: str, hours: pd.DatetimeIndex, positions: np.ndarray | None = None
) -> AlignedSeries:
    """One series of one zone on ``hours`` (any year): filled, then read by the weekday rule.

    ``positions`` may pass :func:`data_positions` of ``hours`` when several series are
    read on the same hours."""
    values, filled = filled_year(zone, series)
    where = data_positions(hours) if positions is None else positions
    return AlignedSeries(values=values[where], filled_hours=filled)


@cache
def filled_year(zone: str, series: str) -> tuple[np.ndarray, int]:
    """:func:`fill_missing` of one zone's series, kept: (the year, hours filled)."""
    values, filled = fill_missing(measured_series(zone, series))
    values.setflags(write=False)
    return values, filled


def zones_with(series: str) -> tuple[str, ...]:
    """Zones that have ``series`` measured, sorted."""
    return tuple(str(zone) for zone in _archive()[f"{SERIES_ZONES[series]}_zones"])


def measured_series(zone: str, series: str) -> np.ndarray:
    """The measured year of one series in one zone (float, NaN where the source lacked it)."""
    zones = zones_with(series)
    if zone not in zones:
        raise KeyError(f"no measured {series} for zone {zone!r}; covered: {', '.join(zones)}")
    return _archive()[series][zones.index(zone)].astype(float)


@cache
def zone_table() -> dict[str, dict[str, str]]:
    """Zone -> its row of ``hourly_2023_zones.csv`` (coverage, carbon operator, weather point)."""
    text = files("geomodel_builtins").joinpath("data", f"{ARCHIVE}_zones.csv").read_text("utf-8")
    return {row["zone"]: row for row in csv.DictReader(io.StringIO(text))}
