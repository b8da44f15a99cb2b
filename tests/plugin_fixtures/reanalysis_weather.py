"""A third-party weather plugin, as a reanalysis provider would write one.

Three points, each with a synthetic weather that a test can derive by hand (the
figures are a test fixture, not weather): air saturated all day (relative humidity
100 %, so the wet-bulb equals the dry-bulb temperature) at a temperature that follows
the UTC hour, 15 + 5 cos(2 pi (hour - 15) / 24) degC: 20 degC at 15:00 UTC, 10 degC at
03:00, 15 degC at 09:00 and 21:00. Cloud cover 50 %, 10 m wind 4 m/s.

* ``acme_council_bluffs``: Council Bluffs, Iowa, where no built-in point reaches;
* ``acme_frankfurt_hoechst``: 8 km from the built-in DE-LU point, nearer to a site
  in Frankfurt-Hoechst than the built-in one;
* ``acme_reykjavik_2023``: data for 2023 only (``hourly_coverage``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from geomodel import Location, WeatherPoint, hookimpl

GEOMODEL_PLUGIN_API = "1"

LICENCE = "test fixture: synthetic, no licence needed"


def daily_cycle_c(time_index: pd.DatetimeIndex) -> np.ndarray:
    """15 + 5 cos(2 pi (UTC hour - 15) / 24), from the instants (any time zone)."""
    hours = time_index.tz_convert("UTC").hour.to_numpy()
    return 15.0 + 5.0 * np.cos(2 * np.pi * (hours - 15) / 24)


class SyntheticPoint(WeatherPoint):
    """Saturated air on the daily cycle, half-cloudy, 4 m/s."""

    def hourly_weather(self, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        n = len(time_index)
        return pd.DataFrame(
            {
                "temperature_c": daily_cycle_c(time_index),
                "relative_humidity_pct": np.full(n, 100.0),
                "cloud_cover_pct": np.full(n, 50.0),
                "wind_speed_10m_m_s": np.full(n, 4.0),
            },
            index=time_index,
        )


class Covering2023(SyntheticPoint):
    """The same weather, for the hours of 2023 only."""

    def hourly_coverage(self) -> pd.DatetimeIndex:
        return pd.date_range("2023-01-01", "2024-01-01", freq="h", tz="UTC", inclusive="left")


def _point(cls, name: str, lat: float, lon: float, zone: str) -> WeatherPoint:
    return cls(
        name=name,
        location=Location(lat=lat, lon=lon),
        zone=zone,
        reach_km=50.0,
        basis="synthetic (test fixture)",
        licence=LICENCE,
        source="tests/plugin_fixtures/reanalysis_weather.py",
        source_type="estimate",
    )


@hookimpl
def register_weather_points() -> list[WeatherPoint]:
    return [
        _point(SyntheticPoint, "acme_council_bluffs", 41.26, -95.86, "Council Bluffs"),
        _point(SyntheticPoint, "acme_frankfurt_hoechst", 50.10, 8.54, "Frankfurt-Hoechst"),
        _point(Covering2023, "acme_reykjavik_2023", 64.13, -21.90, "Reykjavik"),
    ]
