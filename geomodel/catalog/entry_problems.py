"""Why a catalogue entry failed validation, in words: the unit of each field, its physical
range, the unit a value out of range looks like, and the field meant by an unknown one.

The conformance checks (``geomodel check-plugin``) report these one per field; a run
that meets an invalid entry while building the catalogue says the same, so a plugin
author reads one message in both places.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from annotated_types import Ge, Gt, Le, Lt
from pydantic import BaseModel, ValidationError

#: Unit of every numeric entry field (units are also in the field names).
FIELD_UNITS: dict[str, str] = {
    "chips_per_system": "chips",
    "scale_up_domain_chips": "chips",
    "racks_per_system": "racks",
    "bf16_dense_pflops_per_chip": "PFLOPS per chip",
    "fp8_dense_pflops_per_chip": "PFLOPS per chip",
    "fp4_dense_pflops_per_chip": "PFLOPS per chip",
    "int8_dense_pops_per_chip": "peta-operations/s per chip",
    "hbm_gb_per_chip": "GB per chip",
    "hbm_bandwidth_tbyte_s_per_chip": "TB/s per chip",
    "active_power_kw_per_chip": "kW per chip",
    "idle_power_kw_per_chip": "kW per chip",
    "training_power_kw_per_chip": "kW per chip",
    "serving_power_kw_per_chip": "kW per chip",
    "scale_up_bandwidth_gbyte_s_per_chip": "GB/s per chip",
    "scale_out_bandwidth_gbit_s_per_chip": "Gb/s per chip",
    "mtbf_hours_per_chip": "h per chip",
    "capex_usd_per_system": "USD per system",
    "params": "parameters",
    "active_params": "parameters",
    "layers": "layers",
    "attention_layers": "layers",
    "hidden_size": "values",
    "attention_dim": "values",
    "decode_attention_dim": "values",
    "kv_values_per_token": "values per token",
    "experts": "experts",
    "experts_per_token": "experts",
    "context_tokens": "tokens",
    "latency_us_per_km": "us/km",
    "capacity_gbit_s_per_fibre_pair": "Gb/s per fibre pair",
    "transceiver_power_w_per_gbit_s": "W per Gb/s",
    "amplifier_power_w_per_span": "W per span",
    "span_km": "km",
    "reach_km": "km",
    "route_factor": "fibre km per great-circle km",
    "capex_usd_per_km": "USD per km",
    "price_usd_per_mwh": "USD/MWh",
    "carbon_kg_per_mwh": "kgCO2e/MWh",
    "capacity_factor": "fraction",
    "capex_usd_per_unit": "USD per unit",
    "capex_low_usd_per_unit": "USD per unit",
    "capex_high_usd_per_unit": "USD per unit",
    "fixed_om_usd_per_unit_year": "USD per unit a year",
    "variable_cost_usd_per_mwh": "USD/MWh",
    "lifetime_years": "years",
    "gbit_s_per_unit": "Gb/s",
    "cost_year": "year",
    "usd_year": "year",
    "price_adder_usd_per_mwh": "USD/MWh",
    "carbon_other_basis_kg_per_mwh": "kgCO2e/MWh",
    "shaped_price_usd_per_mwh": "USD/MWh",
    "shaped_carbon_kg_per_mwh": "kgCO2e/MWh",
    "retail_price_usd_per_mwh": "USD/MWh",
}

#: Unit -> (factor, what the value was probably given in): a value v outside the
#: range with v x factor inside it gets the hint "looks like <what>".
UNIT_SLIPS: dict[str, tuple[tuple[float, str], ...]] = {
    "kW per chip": ((1e-3, "W per chip"),),
    "us/km": ((1e-3, "ns/km"), (1e3, "ms/km")),
    "fraction": ((1e-2, "percent"),),
    "PFLOPS per chip": ((1e-3, "TFLOPS per chip"),),
    "kgCO2e/MWh": ((1e3, "kg/kWh or t/MWh"),),
    "USD/MWh": ((1e3, "USD/kWh"),),
    "km": ((1e-3, "m"),),
    "W per Gb/s": ((1e-3, "mW per Gb/s"),),
}


def unit_of(field: str) -> str:
    return FIELD_UNITS.get(field, "")


def bounds(entry_class: type[BaseModel], field: str) -> tuple[float | None, bool, float | None, bool]:
    """(low, low inclusive, high, high inclusive) of a numeric field; None when open."""
    low = high = None
    low_inclusive = high_inclusive = True
    info = entry_class.model_fields.get(field)
    for item in info.metadata if info else ():
        if isinstance(item, Ge):
            low, low_inclusive = float(item.ge), True
        elif isinstance(item, Gt):
            low, low_inclusive = float(item.gt), False
        elif isinstance(item, Le):
            high, high_inclusive = float(item.le), True
        elif isinstance(item, Lt):
            high, high_inclusive = float(item.lt), False
    return low, low_inclusive, high, high_inclusive


def in_bounds(value: float, limits: tuple[float | None, bool, float | None, bool]) -> bool:
    low, low_inclusive, high, high_inclusive = limits
    above = low is None or (value >= low if low_inclusive else value > low)
    below = high is None or (value <= high if high_inclusive else value < high)
    return above and below


def describe_range(limits: tuple[float | None, bool, float | None, bool], unit: str) -> str:
    low, low_inclusive, high, high_inclusive = limits
    if low is not None and high is not None:
        left, right = "[" if low_inclusive else "(", "]" if high_inclusive else ")"
        return f"{left}{low:g}, {high:g}{right} {unit}".rstrip()
    if low is not None:
        return f"{'>=' if low_inclusive else '>'} {low:g} {unit}".rstrip()
    return f"{'<=' if high_inclusive else '<'} {high:g} {unit}".rstrip()


def unit_hint(value: Any, unit: str, limits: tuple[float | None, bool, float | None, bool]) -> str:
    """'; 700 looks like W per chip: 0.7 kW per chip' when a unit slip explains the value."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    for factor, what in UNIT_SLIPS.get(unit, ()):
        if in_bounds(value * factor, limits):
            return f"; {value:g} looks like {what}: that is {value * factor:g} {unit}"
    return ""


def field_problems(
    error: ValidationError, cls: type[BaseModel], data: dict
) -> list[tuple[str, str, str]]:
    """(check, field, message) for every problem of a validation error."""
    known = list(cls.model_fields)
    problems = []
    for item in error.errors():
        field = str(item["loc"][0]) if item["loc"] else ""
        unit = unit_of(field)
        in_unit = f" {unit}" if unit else ""
        kind = item["type"]
        if kind == "missing":
            problems.append(("required-field", field, f"missing required field {field}{paren(unit)}"))
        elif kind == "extra_forbidden":
            problems.append(("unknown-field", field, unknown_field(field, known, data)))
        elif kind in {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}:
            limits = bounds(cls, field)
            value = item.get("input")
            message = (
                f"{field} = {value!r}{in_unit} is outside the physical range "
                f"{describe_range(limits, unit)}{unit_hint(value, unit, limits)}"
            )
            problems.append(("field-range", field, message))
        elif kind == "value_error" and not field:
            text = str(item["msg"]).removeprefix("Value error, ")
            named = next((f for f in known if text.startswith(f)), "")
            problems.append(("cross-field", named, text))
        else:
            said = str(item["msg"]).removeprefix("Input ")
            problems.append(("field-type", field, f"{field}: {said} (got {item.get('input')!r})"))
    return problems


def paren(unit: str) -> str:
    return f" ({unit})" if unit else ""


def unknown_field(field: str, known: list[str], data: dict) -> str:
    """Name the field geomodel expects instead, with its unit, where one is close."""
    missing = [name for name in known if name not in data]
    stem = re.split(r"_(?:k?w|mw|gb|gbit|gbyte|us|ms|ns|km|m|usd|kg|g|hours|h)(?:_|$)", field)[0]
    same_stem = [name for name in missing if stem and name.startswith(stem)]
    close = same_stem or difflib.get_close_matches(field, missing, n=1, cutoff=0.6)
    message = f"unknown field {field!r}"
    if close:
        message += f"; did you mean {close[0]!r}{paren(unit_of(close[0]))}?"
        if same_stem:
            message += " Fields carry their unit in their name: convert the value to it"
    return message


def entry_problem_text(error: ValidationError, cls: type[BaseModel], data: dict) -> str:
    """Every problem of an invalid entry as one line, the field named in each."""
    return "; ".join(message for _, _, message in field_problems(error, cls, data))
