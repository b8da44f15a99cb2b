"""Reading the scenario schema: the section at a field path, a field's unit and bounds.

Error messages (:mod:`geomodel.scenario.errors`) and the field reference in
docs/scenarios.md (:mod:`geomodel.scenario.reference`) both read the models
through these helpers, so what users are told matches what is enforced.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from geomodel.scenario.problems import Path


def constraints(field: FieldInfo) -> list[Any]:
    """The field's bounds, including those inside ``Annotated`` (quantities, fractions)."""
    found = list(field.metadata)
    for item in _annotated_metadata(field.annotation):
        found.extend(item.metadata if isinstance(item, FieldInfo) else [item])
    return found


def field_unit(field: FieldInfo) -> str | None:
    """The unit a field's number is stored in (``json_schema_extra['unit']``), if any."""
    extra = field.json_schema_extra
    if isinstance(extra, dict) and "unit" in extra:
        return str(extra["unit"])
    for item in _annotated_metadata(field.annotation):
        extra = getattr(item, "json_schema_extra", None)
        if isinstance(extra, dict) and "unit" in extra:
            return str(extra["unit"])
    return None


def _annotated_metadata(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return list(typing.get_args(annotation)[1:])
    if origin in (typing.Union, types.UnionType):
        return [m for arg in typing.get_args(annotation) for m in _annotated_metadata(arg)]
    return []


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
