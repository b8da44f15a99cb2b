"""Quantities with units in scenario files: bare numbers in the documented unit,
or strings such as ``"250 MW"``, ``"12 ms"`` or ``"1.2e25 FLOP"`` converted with pint."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Annotated, Any

import pint
from pydantic import BeforeValidator, Field, WithJsonSchema

#: Units pint does not know, defined for scenario files.
_EXTRA_UNITS = (
    "FLOP = [compute] = flop",
    "token = [text] = tok",
    "request = [request] = req",
    "USD = [currency] = usd",
    "tCO2 = [emission] = tCO2e",
    "kgCO2 = 1e-3 * tCO2 = kgCO2e",
    "gCO2 = 1e-6 * tCO2 = gCO2e",
    "m3 = meter ** 3",
)

#: Friendly names of common dimensionalities, for error messages.
_DIMENSION_NAMES = {
    "[mass] * [length] ** 2 / [time] ** 3": "a power",
    "[mass] * [length] ** 2 / [time] ** 2": "an energy",
    "[time]": "a duration",
    "[length]": "a length",
    "[compute]": "an amount of compute",
    "[compute] / [time]": "a compute rate",
    "[text] / [time]": "a token rate",
    "[request] / [time]": "a request rate",
    "[text]": "a number of tokens",
    "[currency]": "an amount of money",
    "[information]": "an amount of data",
    "[information] / [time]": "a data rate",
    "dimensionless": "a plain number",
    "[currency] * [time] ** 3 / [mass] / [length] ** 2": "a cost per unit of power",
    "[currency] * [time] ** 2 / [mass] / [length] ** 2": "a cost per energy (or per power a year)",
    "[currency] / [time]": "a cost a year",
    "[currency] / [length]": "a cost per length",
    "[length] ** 3": "a volume",
    "[length] ** 3 / [time]": "a volume a year",
    "[currency] / [length] ** 3": "a price per volume",
    "[length] * [time] ** 2 / [mass]": "a water use per energy",
}


@lru_cache(maxsize=1)
def registry() -> pint.UnitRegistry:
    """The unit registry for scenario files (built once, on first use)."""
    units = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    for definition in _EXTRA_UNITS:
        units.define(definition)
    return units


def _dimension_name(dimensionality: Any) -> str:
    text = str(dimensionality)
    return _DIMENSION_NAMES.get(text, f"dimension {text}")


def is_request_rate(text: str) -> bool:
    """Whether a quantity string is a rate of requests (``"120 request/s"``)."""
    try:
        quantity = registry().Quantity(text.strip())
    except (pint.errors.PintError, ValueError, TypeError, AttributeError, SyntaxError):
        return False
    return isinstance(quantity, pint.Quantity) and str(quantity.dimensionality) == "[request] / [time]"


def to_unit(value: Any, unit: str) -> float:
    """``value`` (a number already in ``unit``, or a string with units) as a float in ``unit``."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number or a quantity in {unit}, not true/false")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        number = _parse(value, unit)
    else:
        raise ValueError(f"expected a number or a quantity like '10 {unit}'")
    if not math.isfinite(number):
        raise ValueError("must be a finite number (not NaN or infinity)")
    return number


@lru_cache(maxsize=4096)
def _parse(text: str, unit: str) -> float:
    """``text`` (a quantity string) in ``unit``; memoised, as variants re-read the same file."""
    units = registry()
    try:
        quantity = units.Quantity(text.strip())
    except (pint.errors.PintError, ValueError, TypeError, AttributeError, SyntaxError):
        raise ValueError(f"cannot read this as a quantity in {unit} (e.g. '10 {unit}')") from None
    if not isinstance(quantity, pint.Quantity) or quantity.unitless:  # a number in a string
        return float(getattr(quantity, "magnitude", quantity))
    target = units.Unit(unit)
    if quantity.dimensionless and target.dimensionless:
        return float(quantity.to(target).magnitude)
    if quantity.dimensionality != target.dimensionality:
        raise ValueError(
            f"expected {_dimension_name(target.dimensionality)} in {unit} (e.g. '10 {unit}'), "
            f"not {_dimension_name(quantity.dimensionality)}"
        )
    if "[currency]" in str(target.dimensionality) and _per_time(quantity.units) != _per_time(target):
        # USD/MWh and USD/MW/year share a dimension: a price is not a yearly cost
        yearly = "a yearly cost" if _per_time(quantity.units) else "not a yearly cost"
        raise ValueError(f"expected a cost in {unit} (e.g. '10 {unit}'); '{text.strip()}' is {yearly}")
    return float(quantity.to(target).magnitude)


def _per_time(units: Any) -> bool:
    """True when one of the units is a time (a year, an hour) on its own."""
    names = getattr(units, "_units", {})
    return any(str(registry().get_dimensionality(name)) == "[time]" for name in names)


def Quantity(unit: str, **constraints: Any) -> Any:  # noqa: N802 - reads like a type
    """A float field stored in ``unit`` that also accepts strings with units."""
    return Annotated[
        float,
        BeforeValidator(lambda value: to_unit(value, unit)),
        Field(**constraints, json_schema_extra={"unit": unit}),
        WithJsonSchema(
            {
                "anyOf": [_number_schema(constraints), {"type": "string"}],
                "description": f"number in {unit}, or a string with units",
                "unit": unit,
            }
        ),
    ]


_JSON_BOUNDS = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum"}


def _number_schema(constraints: dict[str, Any]) -> dict[str, Any]:
    """JSON Schema of the bare-number form, with the field's bounds (in its unit)."""
    schema: dict[str, Any] = {"type": "number"}
    for key, bound in _JSON_BOUNDS.items():
        if key in constraints:
            schema[bound] = constraints[key]
    return schema
