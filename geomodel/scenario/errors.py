"""Turn pydantic's validation errors into scenario problems with positions and hints."""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from geomodel.errors import closest_names
from geomodel.scenario.files import Document
from geomodel.scenario.problems import Path, Problem, dotted


def problems_from_validation(
    error: ValidationError, model: type[BaseModel], document: Document
) -> list[Problem]:
    """One problem per pydantic error, with file:line, field path, value and what is allowed."""
    problems = []
    for item in error.errors(include_url=False):
        path: Path = tuple(item["loc"])
        kind = item["type"]
        value = item.get("input")
        if kind == "extra_forbidden":
            known = list(fields_at(model, path[:-1]))
            close = closest_names(str(path[-1]), known)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known fields: {', '.join(known)}"
            problems.append(Problem(dotted(path), f"unknown field{hint}", document.position(path)))
            continue
        message = item["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if kind == "missing":
            message = "required field is missing"
        shown = value if not isinstance(value, dict | list) and kind != "missing" else _NO_VALUE
        problems.append(Problem(dotted(path), message, document.position(path), **_value_kw(shown)))
    return problems


_NO_VALUE = object()


def _value_kw(value: Any) -> dict[str, Any]:
    return {} if value is _NO_VALUE else {"value": value}


def fields_at(model: type[BaseModel], path: Path) -> dict[str, Any]:
    """The fields of the section at ``path`` (following dict values and list items)."""
    annotation: Any = model
    for part in path:
        annotation = _unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(str(part))
            if field is None:
                return {}
            annotation = field.annotation
        elif typing.get_origin(annotation) in (dict, list, tuple):
            annotation = typing.get_args(annotation)[-1]
        else:
            return {}
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return dict(annotation.model_fields)
    return {}


def _unwrap(annotation: Any) -> Any:
    """``X | None`` and ``Annotated[X, ...]`` -> ``X``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            options = [a for a in typing.get_args(annotation) if a is not type(None)]
            annotation = options[0]
        else:
            return annotation
