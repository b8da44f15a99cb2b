"""Weather points of the shipped measured year: one per covered grid zone, reach 150 km.

The measured year (:mod:`geomodel_builtins.measured`) holds hourly temperature,
relative humidity, cloud cover and 10 m wind speed at one point per covered grid
zone (Open-Meteo's ERA5-based reanalysis; ``weather_lat``/``weather_lon`` in
``data/hourly_2023_zones.csv``). This plugin registers each as a catalogue weather
point (``register_weather_points``, docs/plugins.md); geomodel gives a site the
nearest point within ``REACH_KM``, and beyond it the site has no measured weather.

Why 150 km: an ERA5 value stands for a cell of about 28 x 28 km, and within a
few cells weather on land tracks closely unless a coast or a mountain range lies
between. The archive's own points show it (docs/fidelity.md, pinned by
tests/builtins/test_weather.py): New York and Philadelphia, 128 km apart, have
hourly wet-bulb temperatures 0.7 K apart at the median and, on a chilled-water PUE
curve from 1.10 to 1.35 at 26 degC wet-bulb, annual mean PUEs 0.003 apart with 90 % of hours within
0.023; points 540-710 km apart (Toronto-Philadelphia, Sydney-Melbourne) differ by
2.5-3.2 K, 0.016-0.040 and 0.07-0.13. Sites with a coast or a mountain range
between them and the point should set their own PUE.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from geomodel.catalog.weather import WeatherPoint
from geomodel.geo import Location
from geomodel.hookspecs import hookimpl

from .measured import DATA_YEAR, aligned_series, data_positions, zone_table

GEOMODEL_PLUGIN_API = "1"

#: Farthest a site may lie from the weather point it takes (great circle; module doc).
REACH_KM = 150.0
#: The archive's 10 m wind speed is in km/h.
KM_H_PER_M_S = 3.6
#: The archive's weather series, in the order :func:`site_weather` reads them.
ARCHIVE_SERIES = ("temperature_c", "relative_humidity_pct", "cloud_cover_pct", "wind_speed_10m_km_h")
SOURCE = (
    "Open-Meteo historical weather API (ERA5-based reanalysis), hourly 2023, as collected in "
    "HewlettPackard/green-dcc data/weather; plugins/data/hourly_2023.md"
)
LICENCE = "Weather data by Open-Meteo.com, CC BY 4.0 (ERA5: Copernicus Climate Change Service)"


class MeasuredWeatherPoint(WeatherPoint):
    """A weather point of the shipped year: any horizon reads 2023 by the weekday rule."""

    def hourly_weather(self, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        return site_weather(self.zone, time_index)


@hookimpl
def register_weather_points() -> list[WeatherPoint]:
    """One point per zone of the shipped year that has weather."""
    return [
        MeasuredWeatherPoint(
            name=point_name(zone),
            location=location,
            zone=zone,
            reach_km=REACH_KM,
            basis=f"measured {DATA_YEAR}",
            licence=LICENCE,
            source=SOURCE,
            source_type="agency",
            notes=_notes(zone),
        )
        for zone, location in weather_points().items()
    ]


def _notes(zone: str) -> str:
    row = zone_table()[zone]
    filled = int(float(row["weather_missing_h"] or 0))
    return (
        f"hourly in UTC (local time {row['weather_timezone']}), {filled} hours filled; a horizon in "
        f"any year reads {DATA_YEAR} by the weekday rule (docs/catalogues.md)"
    )


def point_name(zone: str) -> str:
    """The catalogue name of a zone's point: ``weather_de_lu`` for DE-LU."""
    return "weather_" + zone.lower().replace("-", "_")


@cache
def weather_points() -> dict[str, Location]:
    """Zone -> where its weather was measured, for every zone with weather (from the zones
    table alone: registering the points does not load the archive)."""
    return {
        zone: Location(lat=float(row["weather_lat"]), lon=float(row["weather_lon"]))
        for zone, row in zone_table().items()
        if row["weather_lat"]
    }


def site_weather(zone: str, hours: pd.DatetimeIndex) -> pd.DataFrame:
    """The measured weather of ``zone`` on ``hours`` (any year, by the weekday rule).

    Columns: ``temperature_c`` (2 m), ``relative_humidity_pct`` (2 m),
    ``cloud_cover_pct`` (total) and ``wind_speed_10m_m_s``; ``attrs["filled_hours"]``
    counts the hours of the data year filled per series.
    """
    positions = data_positions(hours)
    columns = {}
    filled = {}
    for series in ARCHIVE_SERIES:
        aligned = aligned_series(zone, series, hours, positions)
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
