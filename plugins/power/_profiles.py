"""Building blocks of the built-in hourly profiles: time positions and rescaling.

Every profile is evaluated at the midpoint of each hour (the hour that begins at
the timestamp). Shapes are cosines of the hours elapsed since ``ANCHOR``
(1 January 2023, 00:00 UTC): the daily ones with a period of 24 hours, the
seasonal one with a period of 8,760 hours. Any 8,760 consecutive hours, in any
time zone, therefore hold every phase of each shape exactly once, and each shape
and each product of a daily and a seasonal shape averages to exactly zero over
them. The price of exactness is a drift of the seasons against the calendar of
6 hours a year (a day every four years), immaterial for a broad seasonal cosine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

ANCHOR = pd.Timestamp("2023-01-01", tz="UTC")
HOURS_PER_DAY = 24.0
HOURS_PER_SEASON = 8760.0
#: Hours from the anchor to noon on 21 June 2023: midsummer in the north.
MIDSUMMER_HOUR = (172 - 1) * 24 + 12
#: Latitude (degrees) from which the seasonal shapes reach their full amplitude.
TROPIC_DEG = 23.44


@dataclass(frozen=True)
class Clock:
    """Where each hour of a time index falls.

    ``hours`` counts from ``ANCHOR`` to the hour's midpoint; ``year`` and
    ``hour_slot`` name the UTC calendar year and the whole UTC hour of that year
    (0 for the first) in which the hour starts.
    """

    hours: np.ndarray
    year: np.ndarray
    hour_slot: np.ndarray


def clock(time_index: pd.DatetimeIndex) -> Clock:
    utc = time_index.tz_convert("UTC")
    return Clock(
        hours=((utc - ANCHOR) / pd.Timedelta(hours=1)).to_numpy() + 0.5,
        year=utc.year.to_numpy(),
        hour_slot=(utc.dayofyear.to_numpy() - 1) * 24 + utc.hour.to_numpy(),
    )


def utc_year(year: int) -> pd.DatetimeIndex:
    """Every hour of one calendar year in UTC."""
    return pd.date_range(f"{year}-01-01", f"{year + 1}-01-01", freq="h", tz="UTC", inclusive="left")


def daily_cosine(times: Clock, lon: float, peak_hour: float, harmonic: int = 1) -> np.ndarray:
    """cos(2 pi n (h - peak) / 24) in local solar time h = UTC hour + lon / 15."""
    solar_hour = times.hours + lon / 15.0  # the anchor is at midnight UTC
    return np.cos(2 * np.pi * harmonic * (solar_hour - peak_hour) / HOURS_PER_DAY)


def season_cosine(times: Clock, lat: float) -> np.ndarray:
    """+1 at local midsummer, -1 at midwinter; damped towards the equator.

    The southern hemisphere is shifted by half a year; the amplitude is
    min(1, |lat| / 23.44) so that equatorial sites get little seasonality.
    """
    phase = 2 * np.pi * (times.hours - MIDSUMMER_HOUR) / HOURS_PER_SEASON
    weight = min(1.0, abs(lat) / TROPIC_DEG)
    hemisphere = 1.0 if lat >= 0 else -1.0
    return hemisphere * weight * np.cos(phase)


def scale_to_mean(raw: np.ndarray, target: float, rtol: float = 1e-12) -> float:
    """The factor s >= 0 for which mean(min(s * raw, 1)) equals ``target`` (raw >= 0).

    Starts from target / mean(raw) and repeats s <- s * target / mean; because
    the clipped mean is concave in s, the steps rise monotonically to the answer.
    """
    if target == 0:
        return 0.0
    reachable = float(np.mean(raw > 0))
    if not 0 < target < reachable:
        raise ValueError(
            f"cannot scale to a mean of {target}: the profile is non-zero in {reachable:.1%} of hours"
        )
    scale = target / float(np.mean(raw))
    for _ in range(500):
        mean = float(np.mean(np.minimum(scale * raw, 1.0)))
        if abs(mean - target) <= rtol * target:
            return scale
        scale *= target / mean
    raise ValueError(f"scaling to a mean of {target} did not converge")
