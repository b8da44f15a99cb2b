"""Locations on the Earth and the geodesic distance between them."""

from __future__ import annotations

import math
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, field_validator, model_validator
from pyproj import Geod

from geomodel.errors import UsageError


class Location(BaseModel):
    """A point given by latitude and longitude in degrees (WGS84)."""

    model_config = ConfigDict(frozen=True)

    lat: float
    lon: float

    @field_validator("lat", "lon")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError(f"coordinate must be a finite number, got {value}")
        return value

    @model_validator(mode="after")
    def _in_range(self) -> Location:
        problem = coordinate_problem(self.lat, self.lon)
        if problem:
            raise ValueError(problem)
        return self


def coordinate_problem(lat: float, lon: float) -> str | None:
    """Why (lat, lon) is not a valid coordinate, or None; hints when the two look swapped."""
    if -90 <= lat <= 90 and -180 <= lon <= 180:
        return None
    swapped = -90 <= lon <= 90 and -180 <= lat <= 180
    hint = f" (did you swap them? try {lon},{lat})" if swapped else ""
    if not -90 <= lat <= 90:
        return f"latitude {lat} is outside [-90, 90]{hint}"
    return f"longitude {lon} is outside [-180, 180]{hint}"


def parse_lat_lon(text: str, option: str) -> Location:
    """Parse ``"LAT,LON"`` as given on a command line into a Location."""
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        raise UsageError(option, f"expected LAT,LON in degrees, got {text!r}")
    try:
        lat, lon = (float(p) for p in parts)
    except ValueError:
        raise UsageError(option, f"expected two numbers LAT,LON, got {text!r}") from None
    if not (math.isfinite(lat) and math.isfinite(lon)):
        raise UsageError(option, f"coordinates must be finite numbers, got {text!r}")
    problem = coordinate_problem(lat, lon)
    if problem:
        raise UsageError(option, problem)
    return Location(lat=lat, lon=lon)


@lru_cache(maxsize=1)
def _wgs84() -> Geod:
    return Geod(ellps="WGS84")


def geodesic_km(a: Location, b: Location) -> float:
    """Shortest distance over the WGS84 ellipsoid between two locations, in km."""
    _, _, distance_m = _wgs84().inv(a.lon, a.lat, b.lon, b.lat)
    return distance_m / 1000.0
