"""A generator whose hourly output follows the measured weather at the site.

``weather: true`` (or a mapping of the settings below) on a site's solar or wind
source replaces the catalogue's clear-sky or synthetic profile with one computed
from the nearest measured weather point (within 150 km): solar from the cloud
cover, wind from the 10 m wind speed through a named turbine's power curve.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator

from geomodel.errors import closest_names
from geomodel.scenario.schema.fields import Section
from geomodel.scenario.units import Quantity


@cache
def known_turbines() -> tuple[str, ...]:
    """Turbine types of windpowerlib's library (OpenEnergy Database) with a power curve."""
    from windpowerlib.data import get_turbine_types

    types = get_turbine_types(turbine_library="local", print_out=False)
    return tuple(sorted(types.loc[types["has_power_curve"], "turbine_type"]))


#: Roughness length (m) of each terrain class of the Davenport classification as revised
#: by Wieringa (Wieringa et al. 2001; WMO Guide to Instruments and Methods of Observation,
#: WMO-No. 8, Annex 5.B), for taking a 10 m wind speed to hub height by the log law.
TERRAIN_ROUGHNESS_M: dict[str, float] = {
    "sea": 0.0002,
    "smooth": 0.005,
    "open": 0.03,
    "roughly_open": 0.10,
    "rough": 0.25,
    "very_rough": 0.5,
    "closed": 1.0,
    "chaotic": 2.0,
}


class SupplyWeather(Section):
    """Settings of a weather-driven profile; wind takes them all, solar none."""

    turbine: str | None = Field(
        default=None,
        description="turbine type of windpowerlib's library whose power curve turns hub-height "
        "wind into output (default: the wind source's, E-115/3000)",
        examples=["V126/3450"],
    )
    hub_height: Quantity("m", gt=10, le=300) | None = Field(
        default=None, description="hub height (default: the wind source's, 100 m)", examples=["120 m"]
    )
    terrain: Literal[tuple(TERRAIN_ROUGHNESS_M)] | None = Field(  # type: ignore[valid-type]
        default=None,
        description="surface around the weather point, whose roughness length takes the 10 m "
        "wind to hub height by the log law (Davenport-Wieringa class: sea 0.0002 m, open 0.03, "
        "roughly_open 0.1, rough 0.25, very_rough 0.5, closed 1.0, chaotic 2.0; default: the "
        "wind source's, very_rough for the built-in points, which stand in cities)",
        examples=["rough"],
    )
    roughness_length: Quantity("m", gt=0, le=3) | None = Field(
        default=None,
        description="roughness length for the log law, in place of the terrain's",
        examples=["0.3 m"],
    )
    shear_exponent: float | None = Field(
        default=None,
        ge=0.05,
        le=0.6,
        description="power-law exponent taking the 10 m wind to hub height instead of the log "
        "law (1/7: open, flat land; 0.2-0.25 over crops and hedges, more over forest)",
        examples=[0.2],
        json_schema_extra={"unit": "1"},
    )

    @field_validator("turbine")
    @classmethod
    def _known_turbine(cls, value: str | None) -> str | None:
        if value is None or value in known_turbines():
            return value
        close = closest_names(value, list(known_turbines()))
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise ValueError(
            f"unknown turbine; {hint}one of windpowerlib's {len(known_turbines())} turbine types "
            f"with a power curve ({', '.join(known_turbines()[:4])}, ...)"
        )


def _true_means_defaults(value: Any) -> Any:
    """``weather: true`` asks for the defaults, ``weather: false`` for no weather."""
    if value is True:
        return {}
    if value is False:
        return None
    return value


#: The ``weather`` field of a site's power source.
WeatherChoice = Annotated[SupplyWeather | None, BeforeValidator(_true_means_defaults)]
