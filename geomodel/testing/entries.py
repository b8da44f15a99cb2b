"""Conformance checks of catalogue entries: fields present, units, physical ranges, sources.

The ranges are the ones :mod:`geomodel.catalog.entries` enforces (read from the
entry classes, so the checks and the catalogue never disagree); these checks
break a validation error into one result per field and add what the catalogue
does not say: the unit each field is in, a hint when a value looks like it was
given in another unit, and whether every figure source carries its tag.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from geomodel.catalog import CATALOG_KINDS, CatalogEntry
from geomodel.catalog.entry_problems import (
    FIELD_UNITS,
    UNIT_SLIPS,
    bounds,
    describe_range,
    field_problems,
    in_bounds,
    unit_hint,
    unit_of,
)
from geomodel.testing.results import CheckResult

#: A figure source ends with its tag in brackets.
SOURCE_TAG = re.compile(r"\[(vendor|paper|agency|press|estimate)\]\s*$")

__all__ = [
    "FIELD_UNITS",
    "UNIT_SLIPS",
    "bounds",
    "check_entries",
    "describe_range",
    "in_bounds",
    "unit_hint",
    "unit_of",
]

ENTRY_CLASSES: dict[str, type[CatalogEntry]] = {kind: cls for kind, (_, cls) in CATALOG_KINDS.items()}


def check_entries(kind: str, returned: Any, plugin: str) -> tuple[list[CheckResult], list[CatalogEntry]]:
    """Check what a plugin's ``register_*`` hook returned for catalogue ``kind``.

    Returns the results and the entries that are valid (the ones the catalogue keeps).
    """
    hook = CATALOG_KINDS[kind][0]
    entry_class = ENTRY_CLASSES[kind]

    def result(check: str, entry: str, field: str, passed: bool, message: str) -> CheckResult:
        return CheckResult(check, plugin, entry, field, passed, message, kind)

    if returned is None:
        return [], []
    if not isinstance(returned, list | tuple):
        message = (
            f"{hook} returned {type(returned).__name__}; it must return a list of {entry_class.__name__}"
        )
        return [result("hook-returns-list", "", "", False, message)], []
    results: list[CheckResult] = [
        result(
            "hook-returns-list",
            "",
            "",
            True,
            f"{hook} returned {len(returned)} {'entry' if len(returned) == 1 else 'entries'}",
        )
    ]
    valid: list[CatalogEntry] = []
    for position, item in enumerate(returned):
        label = _label(item, position)
        data, cls, problem = _fields_of(item, entry_class)
        if problem:
            results.append(result("entry-type", label, "", False, problem))
            continue
        try:
            entry = cls.model_validate(data)
        except ValidationError as error:
            results.extend(
                result(check, label, field, False, message)
                for check, field, message in field_problems(error, cls, data)
            )
            continue
        results.append(result("fields", label, "", True, f"{len(data)} fields present and in range"))
        results.extend(result(*outcome) for outcome in _source_checks(entry, label))
        valid.append(entry)
    return results, valid


def _label(item: Any, position: int) -> str:
    name = item.get("name") if isinstance(item, dict) else getattr(item, "name", None)
    return str(name) if isinstance(name, str) and name else f"#{position}"


def _fields_of(item: Any, entry_class: type[CatalogEntry]) -> tuple[dict, type[CatalogEntry], str]:
    """The fields to validate, the class to validate them with, and a type problem."""
    if isinstance(item, dict):
        return dict(item), entry_class, ""
    if isinstance(item, entry_class):
        # re-validated: model_construct() skips validation, and a constructor that found
        # a bad value while the hook ran kept its arguments (collecting_invalid_entries)
        return item.given_fields(), type(item), ""
    wanted = entry_class.__name__
    return {}, entry_class, f"got a {type(item).__name__}; this hook returns {wanted} entries (or dicts)"


def _source_checks(entry: CatalogEntry, label: str) -> list[tuple[str, str, str, bool, str]]:
    """The main source is named and every other figure's source ends with its [tag]."""
    outcomes = []
    if not entry.source.strip():
        outcomes.append(
            ("sources", label, "source", False, "source is blank; name where the figures come from")
        )
    untagged = {f: s for f, s in entry.figure_sources.items() if not SOURCE_TAG.search(s)}
    for field, source in untagged.items():
        outcomes.append(
            (
                "sources",
                label,
                f"figure_sources.{field}",
                False,
                f"figure source {source!r} lacks its tag; end it with [vendor], [paper], "
                "[agency], [press] or [estimate]",
            )
        )
    if not outcomes:
        tagged = len(entry.figure_sources)
        outcomes.append(
            (
                "sources",
                label,
                "",
                True,
                f"source named ({entry.source_type}); {tagged} figure sources tagged",
            )
        )
    return outcomes
