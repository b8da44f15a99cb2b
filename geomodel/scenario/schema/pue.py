"""A site's PUE: a constant, or hour by hour from the measured outdoor wet-bulb temperature.

The weather-driven curve (docs/fidelity.md, ``geomodel.inputs.pue``) follows a
chilled-water plant with cooling towers and a water-side economiser, the plant
most large data centres run: at or below ``economiser_below`` (outdoor wet-bulb)
the towers cool the water alone and the PUE is ``pue_economiser``; from there to
``chiller_above`` the towers pre-cool the returning water and the chillers take a
growing share of the heat; above it they take all of it. A chiller's electric
input per unit of heat grows with its lift, the temperature it pumps heat up by,
so the PUE keeps rising with the wet-bulb; it passes ``pue_design`` at
``design_wet_bulb``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, model_validator

from geomodel.scenario.schema.fields import Section
from geomodel.scenario.units import Quantity

#: A constant PUE: facility power / IT power.
ConstantPue = Annotated[float, Field(ge=1, le=3, allow_inf_nan=False, json_schema_extra={"unit": "1"})]


class WeatherPue(Section):
    """PUE hour by hour from the outdoor wet-bulb temperature at the site's weather point."""

    model: Literal["weather"] = Field(
        description="`weather`: PUE follows the measured weather (nearest weather point in reach)",
        examples=["weather"],
    )
    economiser_below: Quantity("degC", ge=-10, le=30) = Field(
        default=12.0,
        description="outdoor wet-bulb at or below which the economiser carries the whole load: "
        "chilled water at 18 degC (ASHRAE TC9.9 recommended inlet air 18-27 degC) less 6 K of "
        "cooling-tower and heat-exchanger approach",
        examples=["12 degC"],
    )
    chiller_above: Quantity("degC", ge=-5, le=35) = Field(
        default=18.0,
        description="outdoor wet-bulb from which the chillers carry the whole load: chilled-water "
        "return (6 K above the supply) less the same approach; between the two the chillers' "
        "share rises linearly",
        examples=["18 degC"],
    )
    design_wet_bulb: Quantity("degC", ge=0, le=35) = Field(
        default=26.0,
        description="outdoor wet-bulb of the design point, where the PUE is `pue_design` "
        "(a hot, humid design day: Singapore, Houston)",
        examples=["26 degC"],
    )
    pue_economiser: float = Field(
        default=1.10,
        ge=1.0,
        le=2.0,
        description="PUE with the economiser alone (fans, pumps, power conversion); Google's "
        "fleet-wide trailing-twelve-month PUE was 1.10 in 2023",
        examples=[1.08],
        json_schema_extra={"unit": "1"},
    )
    pue_design: float = Field(
        default=1.35,
        ge=1.0,
        le=3.0,
        description="PUE at the design wet-bulb, chillers carrying the whole load "
        "(hot-humid air-cooled sites 1.35-1.5)",
        examples=[1.4],
        json_schema_extra={"unit": "1"},
    )

    @model_validator(mode="after")
    def _in_order(self) -> WeatherPue:
        if not self.economiser_below < self.chiller_above <= self.design_wet_bulb:
            raise ValueError(
                "need economiser_below < chiller_above <= design_wet_bulb (degC), got "
                f"{self.economiser_below:g} < {self.chiller_above:g} <= {self.design_wet_bulb:g}"
            )
        if self.pue_design < self.pue_economiser:
            raise ValueError(
                f"pue_design {self.pue_design:g} is below pue_economiser {self.pue_economiser:g}: "
                "chillers add power, they cannot save it"
            )
        return self


_CONSTANT = TypeAdapter(ConstantPue)


def parse_pue(value: Any) -> float | WeatherPue | None:
    """A site's ``pue``: a mapping is a :class:`WeatherPue`, anything else a constant.

    The field's validator calls it instead of pydantic's union matching, so a bad
    constant is one problem stating the constant's range and a bad weather
    parameter one problem at its own path, not one for each way the value might
    have been meant.
    """
    if value is None:
        return None
    if isinstance(value, dict | WeatherPue):
        return WeatherPue.model_validate(value)
    return _CONSTANT.validate_python(value)
