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


@cache
def _archive() -> dict[str, np.ndarray]:
    path = files("geomodel_builtins").joinpath("data", f"{ARCHIVE}.npz")
    with path.open("rb") as handle, np.load(handle, allow_pickle=False) as stored:
        return {name: stored[name] for name in stored.files}


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
    dates = utc.normalize().tz_localize(None)
    day = np.where((dates.month == 2) & (dates.day == 29), 28, dates.day)
    target = pd.to_datetime({"year": DATA_YEAR, "month": dates.month, "day": day})
    weeks = np.round((dates - pd.DatetimeIndex(target)).days.to_numpy() / 7.0)
    data_dates = dates - pd.to_timedelta(weeks * 7, unit="D")
    first, last = pd.Timestamp(f"{DATA_YEAR}-01-01"), pd.Timestamp(f"{DATA_YEAR}-12-31")
    week = pd.Timedelta(days=7)
    data_dates = data_dates.where(data_dates >= first, data_dates + week)
    data_dates = data_dates.where(data_dates <= last, data_dates - week)
    return ((data_dates - first).days.to_numpy() * 24 + utc.hour.to_numpy()).astype(np.int64)


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


def aligned_series(zone: str, series: str, hours: pd.DatetimeIndex) -> AlignedSeries:
    """One series of one zone on ``hours`` (any year): filled, then read by the weekday rule."""
    values, filled = fill_missing(measured_series(zone, series))
    return AlignedSeries(values=values[data_positions(hours)], filled_hours=filled)


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
