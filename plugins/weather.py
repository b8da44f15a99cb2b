"""Weather at a site: the nearest weather point of the shipped measured year, within reach.

The measured year (:mod:`geomodel_builtins.measured`) holds hourly temperature,
relative humidity, cloud cover and 10 m wind speed at one point per covered grid
zone (Open-Meteo's ERA5-based reanalysis; ``weather_lat``/``weather_lon`` in
``data/hourly_2023_zones.csv``). A site takes the nearest point within
``REACH_KM``; beyond it the site has no measured weather.

Why 150 km: an ERA5 value stands for a cell of about 28 x 28 km, and within a
few cells weather on land tracks closely unless a coast or a mountain range lies
between. The archive's own points show it (docs/fidelity.md, pinned by
tests/builtins/test_weather.py): New York and Philadelphia, 128 km apart, have
hourly wet-bulb temperatures 0.7 K apart at the median and, on the default
weather-driven PUE curve, annual mean PUEs 0.003 apart with 90 % of hours within
0.023; points 540-710 km apart (Toronto-Philadelphia, Sydney-Melbourne) differ by
2.5-3.2 K, 0.016-0.040 and 0.07-0.13. Sites with a coast or a mountain range
between them and the point should set their own PUE.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd

from geomodel.geo import Location, geodesic_km

from .measured import aligned_series, zone_table

#: Farthest a site may lie from the weather point it takes (great circle).
REACH_KM = 150.0
#: The archive's 10 m wind speed is in km/h.
KM_H_PER_M_S = 3.6


@dataclass(frozen=True)
class WeatherPoint:
    """A measured weather point and how far a site lies from it."""

    zone: str
    lat: float
    lon: float
    distance_km: float

    def describe(self) -> str:
        where = f"({self.lat:.2f}, {self.lon:.2f})"
        return f"the {self.zone} weather point {where}, {self.distance_km:.0f} km away"


@cache
def weather_points() -> dict[str, Location]:
    """Zone -> where its weather was measured, for every zone with weather (from the zones
    table alone: finding a site's point does not load the archive)."""
    return {
        zone: Location(lat=float(row["weather_lat"]), lon=float(row["weather_lon"]))
        for zone, row in zone_table().items()
        if row["weather_lat"]
    }


def nearest_weather_point(location: Location) -> WeatherPoint:
    """The nearest weather point, however far (see :func:`weather_point_in_reach`)."""
    distances = {zone: geodesic_km(location, point) for zone, point in weather_points().items()}
    zone = min(distances, key=distances.get)
    point = weather_points()[zone]
    return WeatherPoint(zone, point.lat, point.lon, distances[zone])


def weather_point_in_reach(location: Location) -> WeatherPoint | None:
    """The nearest weather point within ``REACH_KM``, or None: the site has no measured weather."""
    point = nearest_weather_point(location)
    return point if point.distance_km <= REACH_KM else None


def site_weather(zone: str, hours: pd.DatetimeIndex) -> pd.DataFrame:
    """The measured weather of ``zone`` on ``hours`` (any year, by the weekday rule).

    Columns: ``temperature_c`` (2 m), ``relative_humidity_pct`` (2 m),
    ``cloud_cover_pct`` (total) and ``wind_speed_10m_m_s``; ``attrs["filled_hours"]``
    counts the hours of the data year filled per series.
    """
    columns = {}
    filled = {}
    for series in ("temperature_c", "relative_humidity_pct", "cloud_cover_pct", "wind_speed_10m_km_h"):
        aligned = aligned_series(zone, series, hours)
        columns[series] = aligned.values
        filled[series] = aligned.filled_hours
    frame = pd.DataFrame(
        {
            "temperature_c": columns["temperature_c"],
            "relative_humidity_pct": np.clip(columns["relative_humidity_pct"], 0.0, 100.0),
            "cloud_cover_pct": np.clip(columns["cloud_cover_pct"], 0.0, 100.0),
            "wind_speed_10m_m_s": np.maximum(columns["wind_speed_10m_km_h"], 0.0) / KM_H_PER_M_S,
        },
        index=hours,
    )
    frame.attrs["filled_hours"] = filled
    frame.attrs["zone"] = zone
    return frame
