"""Weather points: places whose hourly weather a plugin supplies, and the one a site takes.

Weather-driven PUE, solar and wind (docs/scenarios.md) read the weather at a site from
the catalogue's weather points, which plugins register like any other entry
(``register_weather_points``): the built-in ``weather`` plugin registers the measured
2023 year it ships, a third party its own reanalysis or station records. A site takes
the nearest point whose ``reach_km`` it lies within (:func:`weather_point_in_reach`);
without one it has no measured weather, and the scenario checks say so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated

import numpy as np
import pandas as pd
from pydantic import Field, StringConstraints

from geomodel.catalog.entries import CatalogEntry, check_time_index
from geomodel.geo import Location, geodesic_km

#: Text that may not be empty.
NonEmptyText = Annotated[str, StringConstraints(min_length=1)]
#: Columns of the frame a weather point returns, with units.
WEATHER_COLUMNS: dict[str, str] = {
    "temperature_c": "degC",
    "relative_humidity_pct": "%",
    "cloud_cover_pct": "%",
    "wind_speed_10m_m_s": "m/s",
}
#: Hourly bounds of each column: beyond them a value is not weather on Earth at 2 m / 10 m
#: (the records are -89.2 and 56.7 degC; 10 m winds of 100 m/s are beyond any cyclone's
#: sustained speed).
WEATHER_BOUNDS: dict[str, tuple[float, float]] = {
    "temperature_c": (-90.0, 60.0),
    "relative_humidity_pct": (0.0, 100.0),
    "cloud_cover_pct": (0.0, 100.0),
    "wind_speed_10m_m_s": (0.0, 100.0),
}


class WeatherPoint(CatalogEntry):
    """A place with hourly weather: temperature, humidity, cloud cover and 10 m wind speed.

    Subclasses override :meth:`hourly_weather`; a point backed by data for a limited
    period also overrides :meth:`hourly_coverage`.
    """

    location: Location = Field(description="where the weather is measured or modelled")
    zone: NonEmptyText = Field(
        max_length=64,
        description="the area the point stands for, as result notes name it (a grid zone, a city)",
    )
    reach_km: float = Field(
        gt=0,
        le=1000,
        description="farthest great-circle km at which a site takes this point's weather",
    )
    basis: NonEmptyText = Field(
        max_length=200,
        description="what the hourly weather rests on, as result notes say it ('measured 2023')",
    )
    licence: NonEmptyText = Field(
        max_length=500,
        description="licence and attribution to keep with any copy or table derived from the data",
    )

    def hourly_weather(self, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        """The weather on ``time_index`` (hourly, timezone-aware): a frame on exactly that
        index with the columns of :data:`WEATHER_COLUMNS`. Subclasses override this."""
        raise NotImplementedError(f"weather point {self.name!r} does not implement hourly_weather")

    def hourly_coverage(self) -> pd.DatetimeIndex | None:
        """The hours the point has weather for (hourly, timezone-aware); None: any hour."""
        return None

    def weather(self, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        """The hourly weather, checked: right index and columns, no gaps, within bounds."""
        check_time_index(time_index)
        frame = self.hourly_weather(time_index)
        check_weather_frame(frame, time_index, self.name)
        return frame


def check_weather_frame(frame: pd.DataFrame, time_index: pd.DatetimeIndex, name: str) -> None:
    """Raise ValueError naming the weather point when its frame breaks the contract."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"weather point {name!r}: hourly_weather returned {type(frame).__name__}")
    missing = [column for column in WEATHER_COLUMNS if column not in frame.columns]
    if missing:
        raise ValueError(f"weather point {name!r}: weather lacks columns {missing}")
    if not frame.index.equals(time_index):
        raise ValueError(f"weather point {name!r}: weather index differs from the requested one")
    for column, (low, high) in WEATHER_BOUNDS.items():
        values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(values)
        if bad.any():
            raise ValueError(f"weather point {name!r}: {column} has gaps, first at {time_index[bad][0]}")
        outside = (values < low) | (values > high)
        if outside.any():
            raise ValueError(
                f"weather point {name!r}: {column} = {values[outside][0]:g} at "
                f"{time_index[outside][0]} is outside [{low:g}, {high:g}] {WEATHER_COLUMNS[column]}"
            )


@dataclass(frozen=True)
class WeatherMatch:
    """A weather point and how far a site lies from it."""

    point: WeatherPoint
    distance_km: float

    @property
    def in_reach(self) -> bool:
        return self.distance_km <= self.point.reach_km

    @property
    def zone(self) -> str:
        return self.point.zone

    def describe(self) -> str:
        where = f"({self.point.location.lat:.2f}, {self.point.location.lon:.2f})"
        return f"the {self.point.zone} weather point {where}, {self.distance_km:.0f} km away"


def weather_matches(points: Iterable[WeatherPoint], location: Location) -> list[WeatherMatch]:
    """Every point with its distance from ``location``, nearest first (ties keep the
    catalogue's order, so a built-in point wins a tie)."""
    matches = [WeatherMatch(point, geodesic_km(location, point.location)) for point in points]
    return sorted(matches, key=lambda match: match.distance_km)


def nearest_weather_point(points: Iterable[WeatherPoint], location: Location) -> WeatherMatch | None:
    """The nearest point however far (for messages), or None when there is none."""
    matches = weather_matches(points, location)
    return matches[0] if matches else None


def weather_point_in_reach(points: Iterable[WeatherPoint], location: Location) -> WeatherMatch | None:
    """The nearest point whose reach holds ``location``, or None: no measured weather there."""
    return next((match for match in weather_matches(points, location) if match.in_reach), None)
