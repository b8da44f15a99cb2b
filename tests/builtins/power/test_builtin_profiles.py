"""Profile building blocks: calendar positions, zero-mean shapes, mean-preserving scaling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel_builtins.power import _profiles


def year(tz: str = "UTC", start: str = "2023-01-01") -> pd.DatetimeIndex:
    return pd.date_range(start, periods=8760, freq="h", tz=tz)


def test_clock_places_each_hour_by_its_utc_midpoint() -> None:
    times = _profiles.clock(pd.date_range("2024-01-01 01:00", periods=2, freq="h", tz="Europe/Berlin"))
    # 01:00 Berlin is 00:00 UTC: the first slot of 2024, 8,760 h after the 2023 anchor.
    assert times.year.tolist() == [2024, 2024]
    assert times.hour_slot.tolist() == [0, 1]
    assert times.hours.tolist() == [8760.5, 8761.5]


@pytest.mark.parametrize(
    ("tz", "start"),
    [("UTC", "2023-01-01"), ("America/New_York", "2023-01-01"), ("Asia/Tokyo", "2025-01-01")],
)
def test_daily_and_seasonal_cosines_average_to_zero_over_a_year(tz: str, start: str) -> None:
    times = _profiles.clock(year(tz, start))
    shapes = [
        _profiles.daily_cosine(times, lon=-77.5, peak_hour=12),
        _profiles.daily_cosine(times, lon=8.7, peak_hour=19, harmonic=2),
        _profiles.season_cosine(times, lat=50.0),
        _profiles.season_cosine(times, lat=50.0) * _profiles.daily_cosine(times, 8.7, 12),
    ]
    for shape in shapes:
        assert abs(shape.mean()) < 1e-12


def test_season_peaks_at_local_midsummer_and_fades_at_the_equator() -> None:
    times = _profiles.clock(year())
    north = _profiles.season_cosine(times, lat=50.0)
    assert year()[north.argmax()].month == 6
    south = _profiles.season_cosine(times, lat=-34.0)
    assert year()[south.argmax()].month in (12, 1)
    assert np.abs(_profiles.season_cosine(times, lat=1.35)).max() == pytest.approx(1.35 / 23.44)


def test_scale_to_mean_hits_the_target_despite_clipping() -> None:
    raw = np.array([0.0, 0.0, 0.5, 1.0, 2.0])
    scale = _profiles.scale_to_mean(raw, 0.5)
    assert np.minimum(scale * raw, 1.0).mean() == pytest.approx(0.5, rel=1e-12)
    assert _profiles.scale_to_mean(raw, 0.0) == 0.0
    with pytest.raises(ValueError, match=r"non-zero in 60\.0% of hours"):
        _profiles.scale_to_mean(raw, 0.6)
