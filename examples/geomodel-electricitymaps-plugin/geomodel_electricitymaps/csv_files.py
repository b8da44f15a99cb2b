"""Reading the two CSV layouts, with the checks and messages of scenario time series.

Every time and value check is :func:`geomodel.scenario.timeseries.read_csv_series`,
the reader scenario CSV files go through, so a bad file gets the same message here
as in a scenario (file, line, what is wrong). This module only adapts the layouts:

* an Electricity Maps hourly download names its time column ``Datetime (UTC)`` and
  writes UTC times without an offset (``2025-01-06 00:00:00``); each is given its
  ``+00:00`` before the check, and a time with any other offset is refused;
* a price file already has the scenario layout (``time`` with a UTC offset, one
  column of prices), but prices may be negative, which ``read_csv_series`` refuses
  for demand and capacity factors: the file is checked on the absolute values and
  the signed values are read from the checked rows.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from geomodel.errors import GeomodelError
from geomodel.scenario.timeseries import TIME_COLUMN, SeriesError, read_csv_series

#: The time column of an Electricity Maps hourly download (UTC, no offset).
EM_TIME_COLUMN = "Datetime (UTC)"
#: carbon_basis -> the carbon-intensity column it reads (gCO2eq/kWh = kgCO2e/MWh).
CARBON_COLUMNS = {
    "lifecycle": "Carbon Intensity gCO₂eq/kWh (LCA)",
    "direct": "Carbon Intensity gCO₂eq/kWh (direct)",
}
ZONE_COLUMN = "Zone Id"
ESTIMATED_COLUMN = "Data Estimated"
#: Every column of the layout, in its order; the reader needs only the time column,
#: the carbon column of the chosen basis and (when a zone is configured) Zone Id.
EM_COLUMNS = (
    EM_TIME_COLUMN,
    "Country",
    "Zone Name",
    ZONE_COLUMN,
    CARBON_COLUMNS["direct"],
    CARBON_COLUMNS["lifecycle"],
    "Low Carbon Percentage",
    "Renewable Percentage",
    "Data Source",
    ESTIMATED_COLUMN,
    "Data Estimation Method",
)
#: Offsets that mean UTC.
UTC_OFFSET = re.compile(r"(?:Z|[+-]00:?00)$")
ANY_OFFSET = re.compile(r"(?:Z|[+-]\d\d:?\d\d)$")


class DataFileError(SeriesError, GeomodelError):
    """A data file cannot be used; the message names the file (and line) and says why."""


class _NamedText(io.StringIO):
    """CSV text that ``read_csv_series`` reads, and names in its messages, as file ``name``."""

    def __init__(self, text: str, name: str) -> None:
        super().__init__(text)
        self.name = name


@dataclass(frozen=True)
class HourlyFile:
    """A checked file: the hours it covers and its text in the scenario layout."""

    name: str
    column: str
    hours: pd.DatetimeIndex
    text: str
    signed: pd.Series | None = None  #: the values when the text holds their absolute values
    estimated_share: float | None = None

    def series(self, index: pd.DatetimeIndex) -> pd.Series:
        """The values at every hour of ``index``, checked (coverage, gaps) as scenario series are."""
        checked = read_csv_series(_NamedText(self.text, self.name), self.column, index)  # type: ignore[arg-type]
        if self.signed is None:
            return checked
        return self.signed.reindex(index.tz_convert("UTC")).set_axis(index)


def _read_frame(path: Path) -> pd.DataFrame:
    try:
        return pd.read_csv(
            path, dtype=str, keep_default_na=False, skip_blank_lines=False, encoding="utf-8-sig"
        )
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError):
        # the scenario reader's own message for a missing or unreadable file
        read_csv_series(path, TIME_COLUMN, pd.DatetimeIndex([], tz="UTC"))
        raise


def _spelled(columns: list[str], wanted: str) -> str | None:
    """The file's spelling of ``wanted``: exact, or with CO2 for CO₂ and any case."""
    plain = wanted.replace("₂", "2").lower()
    for column in columns:
        if column.strip() == wanted or column.strip().replace("₂", "2").lower() == plain:
            return column
    return None


def _missing_column(path: Path, column: str, columns: list[str], hint: str = "") -> DataFileError:
    listed = ", ".join(columns)
    return DataFileError(f"{path.name} has no column {column!r} (columns: {listed}){hint}")


def _span(times: pd.Series) -> pd.DatetimeIndex:
    """Every whole hour from the first readable time to the last, in UTC."""
    parsed = pd.to_datetime(times, errors="coerce", utc=True, format="ISO8601").dropna()
    if parsed.empty:
        return pd.DatetimeIndex([], tz="UTC")
    return pd.date_range(parsed.min().floor("h"), parsed.max().ceil("h"), freq="h")


def _lines(frame: pd.DataFrame) -> np.ndarray:
    return np.arange(len(frame)) + 2  # the header is line 1


@lru_cache(maxsize=64)
def _carbon_file(path: Path, modified: float, basis: str, zone: str | None) -> HourlyFile:
    frame = _read_frame(path)
    columns = [str(c) for c in frame.columns]
    time_column = _spelled(columns, EM_TIME_COLUMN)
    if time_column is None:
        hint = (
            f"; {path.name} looks like a price or scenario series file, not an Electricity Maps download"
            if TIME_COLUMN in columns
            else ""
        )
        raise _missing_column(path, EM_TIME_COLUMN, columns, hint)
    carbon_column = _spelled(columns, CARBON_COLUMNS[basis])
    if carbon_column is None:
        other = next(b for b in CARBON_COLUMNS if b != basis)
        hint = (
            f"; it has the {other} column: set carbon_basis = {other!r} to use it"
            if _spelled(columns, CARBON_COLUMNS[other])
            else ""
        )
        raise _missing_column(path, CARBON_COLUMNS[basis], columns, hint)
    zone_column = _spelled(columns, ZONE_COLUMN)
    if zone and zone_column is not None:
        other_zone = frame[zone_column].str.strip() != zone
        if other_zone.any():
            row = int(np.flatnonzero(other_zone.to_numpy())[0])
            raise DataFileError(
                f"{path.name}:{_lines(frame)[row]}: Zone Id {frame[zone_column].iloc[row]!r}, "
                f"but the source is configured for zone {zone!r}"
            )
    times = frame[time_column].str.strip()
    offset = times.str.contains(ANY_OFFSET)
    not_utc = offset & ~times.str.contains(UTC_OFFSET)
    if not_utc.any():
        row = int(np.flatnonzero(not_utc.to_numpy())[0])
        raise DataFileError(
            f"{path.name}:{_lines(frame)[row]}: timestamp {times.iloc[row]!r} is not in UTC, "
            f"but column {EM_TIME_COLUMN!r} holds UTC times; download the UTC file or convert it"
        )
    as_utc = times.where(offset | (times == ""), times + "+00:00")
    scenario_layout = pd.DataFrame({TIME_COLUMN: as_utc, carbon_column: frame[carbon_column]})
    text = scenario_layout.to_csv(index=False)
    hours = _span(as_utc)
    read_csv_series(_NamedText(text, path.name), carbon_column, hours)  # type: ignore[arg-type]
    estimated = _spelled(columns, ESTIMATED_COLUMN)
    share = None
    if estimated is not None and len(frame):
        share = float((frame[estimated].str.strip().str.lower() == "true").mean())
    return HourlyFile(path.name, carbon_column, hours, text, estimated_share=share)


@lru_cache(maxsize=64)
def _price_file(path: Path, modified: float, column: str) -> HourlyFile:
    frame = _read_frame(path)
    columns = [str(c) for c in frame.columns]
    if TIME_COLUMN not in columns or column not in columns:
        read_csv_series(path, column, pd.DatetimeIndex([], tz="UTC"))  # names the missing column
    numbers = pd.to_numeric(frame[column].str.strip(), errors="coerce")
    checked_layout = pd.DataFrame({TIME_COLUMN: frame[TIME_COLUMN], column: numbers.abs()})
    text = checked_layout.to_csv(index=False)
    hours = _span(frame[TIME_COLUMN].str.strip())
    read_csv_series(_NamedText(text, path.name), column, hours)  # type: ignore[arg-type]
    times = pd.to_datetime(frame[TIME_COLUMN].str.strip(), utc=True, format="ISO8601")
    signed = pd.Series(numbers.to_numpy(dtype=float), index=pd.DatetimeIndex(times))
    return HourlyFile(path.name, column, hours, text, signed=signed)


def carbon_file(path: str | Path, basis: str, zone: str | None = None) -> HourlyFile:
    """An Electricity Maps hourly download, checked over the hours it covers."""
    path = Path(path)
    return _carbon_file(path, _modified(path), basis, zone)


def price_file(path: str | Path, column: str) -> HourlyFile:
    """An hourly price file in the scenario layout, checked over the hours it covers."""
    path = Path(path)
    return _price_file(path, _modified(path), column)


def _modified(path: Path) -> float:
    """Part of the cache key, so an edited file is read again."""
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0
