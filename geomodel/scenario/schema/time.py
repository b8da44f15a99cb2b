"""The scenario's horizon: start, length, step and typical-day aggregation."""

from __future__ import annotations

import pandas as pd
from pydantic import Field, model_validator

from geomodel.scenario.schema.fields import Count, Section, Timestamp
from geomodel.scenario.units import Quantity


class Aggregation(Section):
    """Clustering of the horizon into typical days (used for year-long studies)."""

    typical_days: Count = Field(
        ge=1,
        le=366,
        description="number of typical days (tsam)",
        examples=[8],
        json_schema_extra={"unit": "days"},
    )
    segments: Count | None = Field(
        default=None,
        ge=1,
        le=24,
        description=(
            "steps per typical day: adjacent hours with similar prices, weather and demand "
            "merged into this many segments of varying length (tsam); none: 24 hourly steps"
        ),
        examples=[6],
        json_schema_extra={"unit": "steps"},
    )


class TimeSpec(Section):
    """The horizon: start, length and step."""

    start: Timestamp = Field(
        description="first hour, ISO 8601 with a UTC offset",
        examples=["2025-07-01T00:00:00-05:00"],
    )
    hours: Count | None = Field(
        default=None,
        gt=0,
        le=10 * 8784,
        description="horizon length (give this or 'end')",
        examples=[48],
        json_schema_extra={"unit": "h"},
    )
    end: Timestamp | None = Field(
        default=None,
        description="end of the horizon, exclusive (give this or 'hours')",
        examples=["2025-07-08T00:00:00-05:00"],
    )
    resolution: Quantity("h", gt=0, le=24) = Field(
        default=1.0,
        description="time step; whole hours dividing a day (1, 2, 3, 4, 6, 8, 12, 24)",
        examples=["2 h"],
    )
    aggregation: Aggregation | None = Field(
        default=None, description="typical-day clustering", examples=[{"typical_days": 8}]
    )

    @model_validator(mode="after")
    def _length(self) -> TimeSpec:
        if (self.hours is None) == (self.end is None):
            raise ValueError("give exactly one of 'hours' or 'end'")
        if self.end is not None and self.end <= self.start:
            raise ValueError(f"end {self.end} must be after start {self.start}")
        if not float(self.resolution).is_integer() or 24 % int(self.resolution):
            raise ValueError(
                f"resolution must be whole hours dividing a day (1, 2, 3, 4, 6, 8, 12 or 24), "
                f"got {self.resolution:g} h"
            )
        if not self.horizon_hours.is_integer():
            raise ValueError(f"the horizon must be whole hours, got {self.horizon_hours:g} h")
        if self.horizon_hours % self.resolution:
            raise ValueError(
                f"horizon of {self.horizon_hours:g} h is not a whole number of "
                f"{self.resolution:g} h steps"
            )
        if self.aggregation is not None:
            if self.resolution != 1:
                raise ValueError(
                    "typical days (time.aggregation) are built from hourly steps: "
                    f"use time.resolution 1 h, not {self.resolution:g} h"
                )
            if self.horizon_hours % 24:
                raise ValueError(
                    f"typical days need a horizon of whole days, got {self.horizon_hours:g} h"
                )
        return self

    @property
    def horizon_hours(self) -> float:
        if self.hours is not None:
            return float(self.hours)
        return (self.end - self.start).total_seconds() / 3600.0

    @property
    def steps(self) -> int:
        return int(self.horizon_hours // self.resolution)

    @property
    def model_steps(self) -> int:
        """Steps of the model: typical days times steps per day when the horizon is aggregated."""
        aggregation = self.aggregation
        days = int(self.horizon_hours // 24)
        if aggregation is None or (aggregation.typical_days >= days and not aggregation.segments):
            return self.steps
        return min(aggregation.typical_days, days) * (aggregation.segments or 24)

    def index(self) -> pd.DatetimeIndex:
        """Start of every time step, in the start's time zone."""
        return pd.date_range(self.start, periods=self.steps, freq=f"{int(self.resolution)}h")

    def hourly_index(self) -> pd.DatetimeIndex:
        """Every hour of the horizon (profiles are hourly; steps may be longer)."""
        return pd.date_range(self.start, periods=int(self.horizon_hours), freq="1h")
