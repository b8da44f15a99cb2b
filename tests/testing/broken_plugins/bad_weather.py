"""Weather points with the slips a weather plugin makes: km/h for m/s (in the values or
in the column's name), kelvin for degC, fractions for percent, a gap, wall-clock hours
for instants, and hourly_weather that raises."""

from __future__ import annotations

import numpy as np
import pandas as pd

from geomodel import Location, WeatherPoint, hookimpl

GEOMODEL_PLUGIN_API = "1"


class Slipped(WeatherPoint):
    """Plausible weather (10 degC, 80 %, 60 %, 5 m/s) with one column given wrong."""

    def hourly_weather(self, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        n = len(time_index)
        frame = pd.DataFrame(
            {
                "temperature_c": np.full(n, 10.0),
                "relative_humidity_pct": np.full(n, 80.0),
                "cloud_cover_pct": np.full(n, 60.0),
                "wind_speed_10m_m_s": np.full(n, 5.0),
            },
            index=time_index,
        )
        if self.name == "wind_in_km_h":
            frame["wind_speed_10m_m_s"] = 5.0 * 3.6 * 1.5  # 27 km/h: 7.5 m/s
        elif self.name == "kelvin":
            frame["temperature_c"] = 283.15
        elif self.name == "humidity_fraction":
            frame["relative_humidity_pct"] = 0.8
        elif self.name == "gap":
            frame.iloc[5, 1] = np.nan
        elif self.name == "km_h_column":
            frame = frame.rename(columns={"wind_speed_10m_m_s": "wind_speed_10m_km_h"})
        elif self.name == "wall_clock":
            frame["temperature_c"] = 5.0 + time_index.hour.to_numpy()  # the index's own zone
        elif self.name == "raises":
            raise OSError("reanalysis archive not found")
        return frame


@hookimpl
def register_weather_points():
    return [
        Slipped(
            name=name,
            location=Location(lat=10.0 + i, lon=20.0),
            zone=name,
            reach_km=50.0,
            basis="synthetic (test fixture)",
            licence="test fixture",
            source="tests/testing/broken_plugins/bad_weather.py",
            source_type="estimate",
        )
        for i, name in enumerate(
            [
                "wind_in_km_h",
                "kelvin",
                "humidity_fraction",
                "gap",
                "km_h_column",
                "wall_clock",
                "raises",
            ]
        )
    ]
