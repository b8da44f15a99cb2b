"""Conformance checks of entry names: unique, and not shadowing a built-in unless declared.

geomodel keeps the first definition of a name it loads (built-ins load first)
and reports the second as a failure. A plugin meant to replace a built-in entry
says so at module level::

    GEOMODEL_OVERRIDES = ["grid_de"]

and its users disable the built-in plugin that defines it
(``GEOMODEL_DISABLE_PLUGINS=grid``); the checks then pass the clash and say so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from geomodel.catalog import CatalogEntry
from geomodel.testing.results import CheckResult, singular

#: Module attribute listing the built-in entry names a plugin means to replace.
OVERRIDES_ATTRIBUTE = "GEOMODEL_OVERRIDES"


@dataclass(frozen=True)
class Provider:
    """Who else defines a name."""

    plugin: str
    distribution: str
    builtin: bool


def declared_overrides(plugin_object: Any, plugin: str) -> tuple[set[str], list[CheckResult]]:
    """The names in the plugin's GEOMODEL_OVERRIDES, and a failure if it is malformed."""
    declared = getattr(plugin_object, OVERRIDES_ATTRIBUTE, ())
    if isinstance(declared, str) or not all(isinstance(name, str) for name in declared):
        message = f"{OVERRIDES_ATTRIBUTE} must be a list of entry names, got {declared!r}"
        return set(), [CheckResult("overrides", plugin, "", OVERRIDES_ATTRIBUTE, False, message)]
    return set(declared), []


def check_names(
    plugin: str,
    entries: Mapping[str, list[CatalogEntry]],
    others: Mapping[str, Mapping[str, Provider]],
    overrides: set[str],
) -> list[CheckResult]:
    """Names unique within the plugin and among the other plugins loaded beside it.

    ``entries`` maps catalogue kind -> the plugin's valid entries; ``others`` maps
    kind -> name -> the other plugin defining it.
    """
    results: list[CheckResult] = []
    used_overrides: set[str] = set()
    for kind, own in entries.items():
        noun = singular(kind)
        counts = Counter(entry.name for entry in own)
        for name in dict.fromkeys(entry.name for entry in own):
            if counts[name] > 1:
                message = f"{noun} {name!r} is defined {counts[name]} times by this plugin"
                results.append(CheckResult("unique-name", plugin, name, "name", False, message, kind))
                continue
            other = others.get(kind, {}).get(name)
            if other is None:
                results.append(
                    CheckResult("unique-name", plugin, name, "name", True, "name is unique", kind)
                )
                continue
            where = f"plugin {other.plugin!r} (distribution {other.distribution})"
            if other.builtin and name in overrides:
                used_overrides.add(name)
                message = (
                    f"declared override of the built-in {noun} of {where}; geomodel keeps the "
                    f"first definition, so run with GEOMODEL_DISABLE_PLUGINS={other.plugin} for "
                    "this one to apply"
                )
                results.append(CheckResult("no-shadowing", plugin, name, "name", True, message, kind))
            elif other.builtin:
                message = (
                    f"{noun} {name!r} shadows the built-in of {where}; rename it, or declare "
                    f"{OVERRIDES_ATTRIBUTE} = [{name!r}] if it is meant to replace the built-in"
                )
                results.append(CheckResult("no-shadowing", plugin, name, "name", False, message, kind))
            else:
                message = f"{noun} {name!r} is also defined by {where}; one of them must be renamed"
                results.append(CheckResult("unique-name", plugin, name, "name", False, message, kind))
    for name in sorted(overrides - used_overrides):
        message = (
            f"{OVERRIDES_ATTRIBUTE} names {name!r}, which this plugin does not define over a built-in; "
            "remove it from the list"
        )
        results.append(CheckResult("overrides", plugin, name, OVERRIDES_ATTRIBUTE, False, message))
    return results
