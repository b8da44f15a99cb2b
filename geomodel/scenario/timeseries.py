"""Hourly series a scenario refers to: demand shapes and CSV files, checked.

A CSV has a header line, a ``time`` column of ISO timestamps with a UTC offset
and one column per series; rows outside the horizon are ignored, every hour
inside it must be there exactly once, on the hour. Problems name the CSV's
file and line (the header is line 1).
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Any

import numpy as np
import pandas as pd

TIME_COLUMN = "time"


class SeriesError(ValueError):
    """A series cannot be used; the message says why in the user's terms."""


def local_solar_hour(index: pd.DatetimeIndex, lon: float) -> np.ndarray:
    """Hour of day (0..23) in local mean solar time at longitude ``lon``."""
    utc_hours = index.tz_convert("UTC").hour.to_numpy() + index.tz_convert("UTC").minute / 60
    return np.floor((utc_hours + lon / 15.0) % 24).astype(int)


def daily_shape_series(
    shape: list[float], mean: float, lon: float, index: pd.DatetimeIndex
) -> pd.Series:
    """A repeating 24-hour shape in local solar time, scaled so a full day averages ``mean``."""
    weights = np.asarray(shape, dtype=float)
    weights = weights / weights.mean()
    return pd.Series(mean * weights[local_solar_hour(index, lon)], index=index)


def read_csv_series(
    path: FilePath,
    column: str,
    index: pd.DatetimeIndex,
    *,
    fraction: bool = False,
    negative: bool = False,
) -> pd.Series:
    """The values of ``column`` at every hour of ``index``, checked.

    ``fraction`` marks capacity factors, which must lie in [0, 1]; ``negative``
    allows values below zero (prices).
    """
    try:
        frame = pd.read_csv(path, dtype={TIME_COLUMN: str}, skip_blank_lines=False)
    except FileNotFoundError:
        raise SeriesError(f"file {path.name} does not exist") from None
    except UnicodeDecodeError:
        raise SeriesError(_not_utf8(path)) from None
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise SeriesError(f"cannot read {path.name} as CSV: {str(error).strip()}") from None
    for required in (TIME_COLUMN, column):
        if required not in frame.columns:
            raise SeriesError(
                f"{path.name} has no column {required!r} (columns: {', '.join(map(str, frame.columns))})"
            )
    times = _parse_times(frame[TIME_COLUMN], path)
    values = pd.to_numeric(frame[column], errors="coerce")
    series = pd.Series(values.to_numpy(dtype=float), index=times)
    _check_order(series.index, path)
    start, end = index[0], index[-1]
    inside = series[(series.index >= start) & (series.index <= end)]
    off_hour = inside.index.difference(index)
    zone = index.tz  # every time in a message is in the scenario's zone, as time.start
    if len(off_hour):
        raise SeriesError(
            f"{path.name} has rows between whole hours, first {_first(off_hour, zone)}; "
            "series must be hourly, one row per hour"
        )
    missing = index.difference(inside.index)
    if len(missing):
        got = (
            f"{_when(series.index[0], zone)} to {_when(series.index[-1], zone)}"
            if len(series)
            else "no rows"
        )
        raise SeriesError(
            f"{path.name} does not cover the horizon: expected every hour from "
            f"{_when(start, zone)} to {_when(end, zone)}, got {got}; first missing hours "
            f"{_first(missing, zone)}"
        )
    inside = inside.reindex(index)
    gaps = inside.index[~np.isfinite(inside.to_numpy())]
    if len(gaps):
        raise SeriesError(
            f"column {column!r} of {path.name} has empty, non-numeric or infinite values "
            f"at {_first(gaps, zone)}"
        )
    if not negative and (inside < 0).any():
        raise SeriesError(
            f"column {column!r} of {path.name} has negative values, first at "
            f"{_first(inside.index[inside < 0], zone)}"
        )
    if fraction and (inside > 1).any():
        hint = " (looks like percent: divide by 100)" if inside.max() <= 100 else ""
        raise SeriesError(
            f"capacity factors in {column!r} of {path.name} must lie in [0, 1], "
            f"max is {inside.max():g}{hint}"
        )
    return inside.astype(float)


def _line(row: int) -> int:
    """The CSV file line of data row ``row`` (0-based; the header is line 1)."""
    return row + 2


def _parse_times(text: pd.Series, path: FilePath) -> pd.DatetimeIndex:
    parsed = pd.to_datetime(text, errors="coerce", utc=True, format="ISO8601")
    bad = parsed.isna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise SeriesError(
            f"{path.name}:{_line(row)}: unreadable date {text.iloc[row]!r}; use ISO 8601 "
            "with a UTC offset, e.g. 2025-01-01T00:00:00+00:00"
        )
    has_offset = text.str.contains(r"(?:Z|[+-]\d\d:?\d\d)$", regex=True)
    if not has_offset.all():
        row = int(np.flatnonzero(~has_offset.to_numpy())[0])
        raise SeriesError(
            f"{path.name}:{_line(row)}: timestamp {text.iloc[row]!r} has no UTC offset; "
            "write it as e.g. 2025-01-01T00:00:00+00:00 so the time zone is certain"
        )
    return pd.DatetimeIndex(parsed)


def _check_order(index: pd.DatetimeIndex, path: FilePath) -> None:
    duplicated = np.flatnonzero(index.duplicated())
    if len(duplicated):
        row = int(duplicated[0])
        first = int(np.flatnonzero(index == index[row])[0])
        raise SeriesError(
            f"{path.name}:{_line(row)}: duplicate timestamp {index[row]} (also on line {_line(first)})"
        )
    if not index.is_monotonic_increasing:
        row = int(np.flatnonzero(np.diff(index.asi8) < 0)[0]) + 1
        raise SeriesError(
            f"{path.name}:{_line(row)}: timestamps go backwards ({index[row]} after "
            f"{index[row - 1]}); sort the rows by time"
        )


def _first(times: pd.Index, zone: Any = None, n: int = 3) -> str:
    shown = ", ".join(_when(t, zone) for t in times[:n])
    return shown + (f" and {len(times) - n} more" if len(times) > n else "")


def _when(time: pd.Timestamp, zone: Any = None) -> str:
    """A time in ``zone`` (the scenario's), so one message never mixes offsets."""
    if zone is not None and time.tzinfo is not None:
        time = time.tz_convert(zone)
    return str(time)


def _not_utf8(path: FilePath) -> str:
    """Where a CSV file stops being UTF-8, with its line, as for a scenario YAML."""
    from geomodel.scenario.files import not_utf8

    raw = path.read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, what = not_utf8(raw, error)
        return f"{path.name}:{line}: {what}"
    return f"cannot read {path.name} as CSV: not UTF-8 text"
