"""Where inference users are and the demand they bring."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from geomodel.scenario.schema.fields import Located, Name, Section
from geomodel.scenario.units import Quantity, is_request_rate, to_unit

ONE_DAY_SHAPE = [0.5, 0.4, 0.35, 0.3, 0.3, 0.35, 0.5, 0.7, 0.9, 1.1, 1.2, 1.3]
ONE_DAY_SHAPE += [1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.25, 1.2, 1.1, 1.0, 0.8, 0.6]


class Demand(Section):
    """Demand of one service in one region: output tokens per second, or requests per
    second times the service's output tokens per request.

    A bare number or quantity (``chat: 30e6 token/s``, ``chat: 2e5 request/s``) is a
    constant demand.
    """

    constant: Quantity("token/s", ge=0) | None = Field(
        default=None, description="flat demand", examples=["30e6 token/s"]
    )
    daily_shape: list[Annotated[float, Field(ge=0)]] | None = Field(
        default=None,
        description="24 hourly multipliers in local solar time, from midnight; "
        "scaled so a day averages 'mean'",
        examples=[ONE_DAY_SHAPE],
        json_schema_extra={"unit": "1"},
    )
    mean: Quantity("token/s", ge=0) | None = Field(
        default=None, description="mean demand of the daily shape", examples=["60e6 token/s"]
    )
    csv: str | None = Field(
        default=None,
        description="CSV of hourly demand in tokens/s, relative to the file naming it",
        examples=["demand/us.csv"],
    )
    column: str | None = Field(default=None, description="column of the CSV", examples=["new_york"])
    per_request: bool = Field(
        default=False,
        description="the values are requests/s, each the service's output tokens per request "
        "(set by giving them in request/s; for a CSV, set it)",
        examples=[True],
    )
    scale: float = Field(
        default=1.0,
        ge=0,
        description="multiplier applied to the series (growth, what-if)",
        examples=[1.5],
        json_schema_extra={"unit": "1"},
    )

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        """The JSON Schema allows the shorthand too: a number or a quantity string."""
        schema = handler.resolve_ref_schema(handler(core_schema))
        shorthand = [{"type": "number", "minimum": 0}, {"type": "string"}]
        return {"anyOf": [dict(schema), *shorthand], "description": schema.get("description", "")}

    @model_validator(mode="before")
    @classmethod
    def _bare_number_is_constant(cls, value: Any) -> Any:
        if isinstance(value, int | float | str) and not isinstance(value, bool):
            value = {"constant": value}
        if isinstance(value, dict):
            for key in ("constant", "mean"):
                given = value.get(key)
                if isinstance(given, str) and is_request_rate(given):
                    value = {**value, key: to_unit(given, "request/s"), "per_request": True}
        return value

    @model_validator(mode="after")
    def _one_kind(self) -> Demand:
        kinds = [k for k in ("constant", "daily_shape", "csv") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("give exactly one of 'constant', 'daily_shape' (with 'mean') or 'csv'")
        if self.daily_shape is not None:
            if len(self.daily_shape) != 24:
                raise ValueError(f"daily_shape needs 24 values, got {len(self.daily_shape)}")
            if self.mean is None:
                raise ValueError("daily_shape needs 'mean' (tokens/s)")
            if sum(self.daily_shape) <= 0:
                raise ValueError("daily_shape must have a positive value")
        elif self.mean is not None:
            raise ValueError("'mean' goes with 'daily_shape' only")
        if (self.csv is None) != (self.column is None):
            raise ValueError("'csv' and 'column' go together")
        return self


class Region(Located):
    """Where inference users are, and how much they ask for."""

    demand: dict[Name, Demand] = Field(
        default_factory=dict,
        description="inference service name -> demand (constant, daily shape or CSV)",
        examples=[{"chat": "30e6 token/s"}],
    )
