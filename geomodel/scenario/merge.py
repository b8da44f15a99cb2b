"""Deep merge of scenario data and ``--set path.to.field=value`` overrides.

Mappings merge key by key; lists and scalars replace. This is the one rule for
imports, variants and overrides alike.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any


def deep_merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """A new mapping: ``top`` over ``base``; neither argument is changed."""
    merged = copy.deepcopy(dict(base))
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def nest(dotted_path: str, value: Any) -> dict[str, Any]:
    """``"a.b.c", 1`` -> ``{"a": {"b": {"c": 1}}}``."""
    keys = dotted_path.split(".")
    nested: Any = value
    for key in reversed(keys):
        nested = {key: nested}
    return nested
