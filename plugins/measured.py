"""The measured year shipped with the built-in plugins: hourly grid carbon, prices and weather.

One year (``DATA_YEAR``, 8,760 hours, UTC, hour beginning) per zone, read once from
``data/hourly_2023.npz``; sources and licences are in ``data/hourly_2023.md``, which
travels with the data. This module only reads the year as published: how a scenario's
horizon maps onto it, and how missing hours are filled, belong to its users.
"""

from __future__ import annotations

import csv
import io
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
