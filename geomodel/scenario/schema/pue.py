"""A site's cooling kind and PUE: a constant, or hour by hour from the measured weather.

A site's ``cooling`` kind is how its plant rejects heat: ``evaporative`` (cooling towers
with a water-side economiser and chillers as trim, driven by the outdoor wet-bulb; the
default, the plant most hyperscale sites run), ``air`` (dry coolers and air-cooled
chillers, driven by the dry-bulb; no water) or ``liquid`` (direct-to-chip warm-water
loops on dry coolers, driven by the dry-bulb; no water). Each kind has a constant PUE
(:data:`COOLING_PUE`) for a site that gives none, and a weather curve
(:data:`COOLING_CURVES`) for ``pue: {model: weather}``: at or below ``economiser_below``
the economiser carries the load alone and the PUE is ``pue_economiser``; from there to
``chiller_above`` the chillers take a growing share of the heat, and above it all of it;
a chiller's input per unit of heat grows with its lift, so the PUE keeps rising with the
temperature, passing ``pue_design`` at ``design_temperature``. A site's ``pue`` mapping
overrides any of the kind's parameters (docs/fidelity.md, "Cooling kinds").
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from geomodel.scenario.schema.fields import Section
from geomodel.scenario.units import Quantity

#: A constant PUE: facility power / IT power.
ConstantPue = Annotated[float, Field(ge=1, le=3, allow_inf_nan=False, json_schema_extra={"unit": "1"})]

#: How a site rejects its heat.
CoolingKind = Literal["air", "evaporative", "liquid"]
#: The kind of a site that names none: most hyperscale sites run cooling towers.
DEFAULT_COOLING = "evaporative"


@dataclass(frozen=True)
class PueCurve:
    """A cooling kind's weather curve, every parameter resolved (module docstring)."""

    #: the outdoor temperature the plant follows: ``wet_bulb`` (towers) or ``dry_bulb``
    driver: Literal["wet_bulb", "dry_bulb"]
    economiser_below: float  #: degC
    chiller_above: float  #: degC
    design_temperature: float  #: degC
    pue_economiser: float
    pue_design: float

    def __post_init__(self) -> None:
        if not self.economiser_below < self.chiller_above <= self.design_temperature:
            raise ValueError(
                "need economiser_below < chiller_above <= design_temperature (degC), got "
                f"{self.economiser_below:g} < {self.chiller_above:g} <= {self.design_temperature:g}"
            )
        if self.pue_design < self.pue_economiser:
            raise ValueError(
                f"pue_design {self.pue_design:g} is below pue_economiser {self.pue_economiser:g}: "
                "chillers add power, they cannot save it"
            )


#: The weather curve of each kind. ``evaporative`` is fitted on the published 2023 PUE of
#: two Google sites, Quilicura (Chile, 1.09) and Singapore (1.13), on their weather
#: points' measured 2023 wet-bulb (bench/cooling_fidelity.py; Midlothian, Texas, is
#: predicted, docs/fidelity.md); ``air`` and ``liquid`` are engineering estimates
#: (docs/fidelity.md, "Cooling kinds"), not fitted.
COOLING_CURVES: dict[str, PueCurve] = {
    "evaporative": PueCurve("wet_bulb", 12.0, 18.0, 26.0, 1.086, 1.133),
    "air": PueCurve("dry_bulb", 12.0, 18.0, 35.0, 1.10, 1.34),
    "liquid": PueCurve("dry_bulb", 25.0, 32.0, 40.0, 1.07, 1.15),
}

#: Constant PUE of each kind, for a site that gives no ``pue``: ``evaporative`` Google's
#: fleet-wide 2023 PUE (1.10, Google Environmental Report 2024) [vendor]; ``air`` an air
#: economiser in a temperate climate (1.2-1.35) [estimate]; ``liquid`` the middle of
#: direct-to-chip figures (1.08-1.2) [estimate].
COOLING_PUE: dict[str, float] = {"evaporative": 1.10, "air": 1.3, "liquid": 1.14}

#: Water per kWh of IT energy (L/kWh) of each kind where the PUE is constant
#: (geomodel.inputs.water): ``evaporative`` Google's 2023 data-centre water over its IT
#: energy [vendor]; ``air`` and ``liquid`` reject heat dry [estimate].
COOLING_WUE_L_PER_KWH: dict[str, float] = {"evaporative": 1.06, "air": 0.0, "liquid": 0.0}


class WeatherPue(Section):
    """PUE hour by hour on the site's cooling kind's curve, at its weather point's weather.

    Every parameter left out is the cooling kind's (:data:`COOLING_CURVES`).
    """

    model: Literal["weather"] = Field(
        description="`weather`: PUE follows the measured weather (nearest weather point in reach)",
        examples=["weather"],
    )
    economiser_below: Quantity("degC", ge=-10, le=40) | None = Field(
        default=None,
        description="outdoor temperature (wet-bulb for evaporative, dry-bulb for air and "
        "liquid) at or below which the economiser carries the whole load; evaporative 12 degC: "
        "chilled water at 18 degC (ASHRAE TC9.9 recommended inlet air 18-27 degC) less 6 K of "
        "approach",
        examples=["12 degC"],
    )
    chiller_above: Quantity("degC", ge=-5, le=45) | None = Field(
        default=None,
        description="outdoor temperature from which the chillers carry the whole load; between "
        "the two their share rises linearly (evaporative 18 degC: the chilled-water return, 6 K "
        "above the supply, less the same approach)",
        examples=["18 degC"],
    )
    design_temperature: Quantity("degC", ge=0, le=50) | None = Field(
        default=None,
        description="outdoor temperature of the design point, where the PUE is `pue_design` "
        "(evaporative 26 degC wet-bulb, a hot, humid design day; air 35 and liquid 40 degC "
        "dry-bulb)",
        examples=["26 degC"],
    )
    pue_economiser: float | None = Field(
        default=None,
        ge=1.0,
        le=2.0,
        description="PUE with the economiser alone (fans, pumps, power conversion)",
        examples=[1.08],
        json_schema_extra={"unit": "1"},
    )
    pue_design: float | None = Field(
        default=None,
        ge=1.0,
        le=3.0,
        description="PUE at the design temperature, chillers carrying the whole load",
        examples=[1.2],
        json_schema_extra={"unit": "1"},
    )

    def curve(self, cooling: str) -> PueCurve:
        """The curve of ``cooling`` with this site's own parameters in place of its own."""
        given = {f.name: getattr(self, f.name) for f in fields(PueCurve) if f.name != "driver"}
        return replace(COOLING_CURVES[cooling], **{k: v for k, v in given.items() if v is not None})


_CONSTANT = TypeAdapter(ConstantPue)


def parse_pue(value: Any, cooling: str = DEFAULT_COOLING) -> float | WeatherPue | None:
    """A site's ``pue``: a mapping is a :class:`WeatherPue` (its curve on ``cooling``'s
    checked for order), anything else a constant.

    The field's validator calls it instead of pydantic's union matching, so a bad
    constant is one problem stating the constant's range and a bad weather
    parameter one problem at its own path, not one for each way the value might
    have been meant.
    """
    if value is None:
        return None
    if isinstance(value, dict | WeatherPue):
        pue = WeatherPue.model_validate(value)
        pue.curve(cooling)  # parameters out of order raise here, at the site's pue
        return pue
    return _CONSTANT.validate_python(value)
