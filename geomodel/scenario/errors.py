"""Turn pydantic's validation errors into scenario problems with positions and hints.

Each problem names the field path, says what is allowed in the user's terms
(the field's full range with its unit, the date format, the known field names)
and carries the value found; the file and line come from the document.
"""

from __future__ import annotations

import calendar
import re
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError

from geomodel.errors import closest_names
from geomodel.scenario.files import Document
from geomodel.scenario.introspect import constraints, field_unit, fields_at
from geomodel.scenario.problems import Path, Problem, dotted

DATE_EXAMPLE = "2025-01-01T00:00:00+00:00"
DATE_RULE = f"expected an ISO 8601 date-time with a UTC offset, e.g. {DATE_EXAMPLE}"
NAME_RULE = "names use letters, digits, '_', '.' and '-', and start with a letter or digit"

#: pydantic error type -> what to say instead of pydantic's message.
_MESSAGES = {
    "missing": "required field is missing",
    "finite_number": "must be a finite number (not NaN or infinity)",
    "timezone_aware": f"needs a UTC offset, e.g. {DATE_EXAMPLE}",
    "datetime_parsing": DATE_RULE,
    "datetime_from_date_parsing": DATE_RULE,
    "datetime_type": DATE_RULE,
    "dict_type": "must be a mapping (name: value, ...)",
    "model_type": "must be a mapping of fields",
    "model_attributes_type": "must be a mapping of fields",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_parsing": "must be a number",
    "float_type": "must be a number",
    "string_type": "must be text",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
}
_BOUND_TYPES = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}
_DATE_TYPES = {"datetime_parsing", "datetime_from_date_parsing"}
#: an ISO 8601 date-time by its parts, whatever their values
_DATE_PARTS = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?"
)


def impossible_date(text: str) -> str | None:
    """What makes a date-time written in ISO 8601 form name no real instant (``2025 has
    no 29 February``), or None when its parts are all possible (or it is not that form)."""
    match = _DATE_PARTS.fullmatch(text.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, offset = match.groups()
    if not 1 <= int(month) <= 12:
        return f"there is no month {int(month)} (1-12)"
    days = calendar.monthrange(int(year), int(month))[1]
    if not 1 <= int(day) <= days:
        return f"{calendar.month_name[int(month)]} {year} has {days} days, not {int(day)}"
    for name, part, most in (("hour", hour, 23), ("minute", minute, 59), ("second", second, 59)):
        if part is not None and int(part) > most:
            return f"there is no {name} {int(part)} (0-{most})"
    if offset and offset != "Z" and (int(offset[1:3]) > 23 or int(offset[-2:]) > 59):
        return f"a UTC offset of {offset} is beyond what a clock can show (-23:59 to +23:59)"
    return None


def problems_from_validation(
    error: ValidationError, model: type[BaseModel], document: Document, prefix: Path = ()
) -> list[Problem]:
    """One problem per pydantic error, with file:line, field path, value and what is allowed.

    ``prefix`` is where ``model``'s data sits in the document, for a part validated on
    its own (a plugin's ``extensions.<name>`` settings).
    """
    return [_problem(item, model, document, prefix) for item in error.errors(include_url=False)]


def _problem(item: Any, model: type[BaseModel], document: Document, prefix: Path) -> Problem:
    path: Path = tuple(item["loc"])
    kind = item["type"]
    value = item.get("input")

    def problem(at: Path, message: str, *given: Any) -> Problem:
        full = (*prefix, *at)
        return Problem(dotted(full), message, document.position(full), *given)

    if kind == "extra_forbidden":
        known = list(fields_at(model, path[:-1]))
        close = closest_names(str(path[-1]), known)
        hint = f"did you mean {close[0]!r}?" if close else f"known fields: {', '.join(known)}"
        return problem(path, f"unknown field; {hint}")
    if path and path[-1] == "[key]":  # a name used as a mapping key
        path = path[:-1]
        message = f"bad name: {NAME_RULE}" if kind == "string_pattern_mismatch" else _clean(item["msg"])
        return problem(path, message, value)
    message = _MESSAGES.get(kind) or _clean(item["msg"])
    if kind in _BOUND_TYPES:
        message = _range_message(model, path) or _bound_message(item.get("ctx", {})) or message
    elif kind == "too_short" and item.get("ctx", {}).get("min_length") == 1:
        message = "needs at least one entry"
    elif kind == "string_pattern_mismatch":
        message = NAME_RULE
    elif kind in _DATE_TYPES and isinstance(value, str) and impossible_date(value):
        message = f"{DATE_RULE}; {impossible_date(value)}"
    if kind == "missing" or isinstance(value, dict | list):
        return problem(path, message)
    return problem(path, message, value)


def _clean(message: str) -> str:
    """pydantic's message without its prefixes: ``Input should be`` -> ``should be``."""
    message = message.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return message.removeprefix("Input ")


def _bound_message(ctx: dict[str, Any]) -> str | None:
    """``must be at least 0`` from pydantic's context, for values that are not fields."""
    words = {"gt": "greater than", "ge": "at least", "lt": "less than", "le": "at most"}
    for key, word in words.items():
        if key in ctx:
            return f"must be {word} {ctx[key]}"
    return None


def _range_message(model: type[BaseModel], path: Path) -> str | None:
    """``must lie in (0, 1]`` with the unit, from the field's own constraints."""
    field = fields_at(model, path[:-1]).get(str(path[-1])) if path else None
    if field is None:
        return None
    low = high = None
    for constraint in constraints(field):
        if isinstance(constraint, annotated_types.Gt):
            low = f"({constraint.gt:g}"
        elif isinstance(constraint, annotated_types.Ge):
            low = f"[{constraint.ge:g}"
        elif isinstance(constraint, annotated_types.Lt):
            high = f"{constraint.lt:g})"
        elif isinstance(constraint, annotated_types.Le):
            high = f"{constraint.le:g}]"
    unit = field_unit(field)
    unit = f" {unit}" if unit and unit != "1" else ""
    if low and high:
        return f"must lie in {low}, {high}{unit}"
    if low:
        word = "greater than" if low.startswith("(") else "at least"
        return f"must be {word} {low[1:]}{unit}"
    if high:
        word = "less than" if high.endswith(")") else "at most"
        return f"must be {word} {high[:-1]}{unit}"
    return None
