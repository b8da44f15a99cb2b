"""What a model extension may add to results: variables and KPIs, each with its units.

A plugin's ``extension_results`` hook returns these (docs/plugins.md); the results
stage checks them and adds them (:mod:`geomodel.results.extension_results`). Kept free
of geomodel imports, so the hook specification can name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ExtensionVariable:
    """A results Dataset variable: ``values`` on existing dimensions ``dims`` (in that
    order, e.g. ``("site",)`` or ``("site", "time")``), in ``units``."""

    name: str
    dims: tuple[str, ...]
    values: Any
    units: str
    description: str


@dataclass(frozen=True)
class ExtensionKpi:
    """One headline number of the run, in ``units``."""

    name: str
    value: float
    units: str
    description: str


ExtensionOutput = ExtensionVariable | ExtensionKpi
