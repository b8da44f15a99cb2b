"""Provenance of the grid signals, as Dataset attributes that travel into every result.

``carbon_basis`` and ``grid_series`` repeat the scenario's choices; ``grid_series_basis``
is JSON: site -> {"grid": region, "price": basis in words, "carbon": basis in words},
so a reader of any result knows which numbers are measured and which are shaped.
"""

from __future__ import annotations

import json

from geomodel.scenario.schema import Scenario

#: Attributes this module sets; geomodel.api copies them onto the results Dataset.
SIGNAL_ATTRIBUTES = ("carbon_basis", "grid_series", "grid_series_basis")


def signal_attributes(scenario: Scenario, grid_basis: dict[str, dict[str, str]]) -> dict[str, str]:
    """The attributes of :data:`SIGNAL_ATTRIBUTES` for a scenario and its sites' grid bases."""
    return {
        "carbon_basis": scenario.signals.carbon_basis,
        "grid_series": scenario.signals.grid_series,
        "grid_series_basis": json.dumps(grid_basis, sort_keys=True),
    }


def grid_series_basis(attrs: dict) -> dict[str, dict[str, str]]:
    """The per-site grid bases stored by :func:`signal_attributes` (empty for older results)."""
    return json.loads(attrs.get("grid_series_basis", "{}") or "{}")
