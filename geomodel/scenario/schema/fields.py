"""Field types every scenario section shares: names, counts, times, places, the base class."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field

#: Pattern of every name a scenario defines (sites, regions, jobs, services, variants).
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
Name = Annotated[str, Field(pattern=NAME_PATTERN, max_length=64)]
Fraction = Annotated[float, Field(gt=0, le=1, json_schema_extra={"unit": "1"})]


def _not_a_number(value: Any) -> Any:
    """Refuse numbers where a date-time is expected (pydantic would read them as Unix time)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise ValueError("expected a date-time such as 2025-01-01T00:00:00+00:00, not a number")
    return value


#: A date-time with a UTC offset or zone, given as ISO 8601 text.
Timestamp = Annotated[AwareDatetime, BeforeValidator(_not_a_number)]


def _not_a_boolean(value: Any) -> Any:
    """Refuse true and false where a count is expected (pydantic would read them as 1 and 0)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, not {str(value).lower()}")
    return value


#: A whole number of something (days, steps, chips, threads); true and false are not counts.
Count = Annotated[int, BeforeValidator(_not_a_boolean)]


def _latitude(value: float) -> float:
    if not -90 <= value <= 90:
        hint = " (that looks like a longitude: did you swap lat and lon?)" if abs(value) <= 180 else ""
        raise ValueError(f"latitude must lie in [-90, 90]{hint}")
    return value


def _longitude(value: float) -> float:
    if not -180 <= value <= 180:
        raise ValueError("longitude must lie in [-180, 180]")
    return value


Latitude = Annotated[
    float, AfterValidator(_latitude), Field(json_schema_extra={"minimum": -90, "maximum": 90})
]
Longitude = Annotated[
    float, AfterValidator(_longitude), Field(json_schema_extra={"minimum": -180, "maximum": 180})
]


class Section(BaseModel):
    """Base of every scenario section: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", validate_default=True, allow_inf_nan=False)


class Located(Section):
    """Fields of anything with a place on the map."""

    lat: Latitude = Field(
        description="latitude, degrees north (WGS84)",
        examples=[32.52],
        json_schema_extra={"unit": "degrees"},
    )
    lon: Longitude = Field(
        description="longitude, degrees east (WGS84)",
        examples=[-99.78],
        json_schema_extra={"unit": "degrees"},
    )
