"""The build table of ``geomodel run`` and ``geomodel report`` (planning mode)."""

from __future__ import annotations

from typing import Any

from geomodel.cli.output import print_table

BUILD_COLUMNS = {
    "asset": "asset",
    "what": "what",
    "where": "where",
    "amount": "amount",
    "units": "units",
    "capex_usd": "capex (USD)",
    "annual_cost_usd_per_year": "annual cost (USD/year)",
}


def build_payload(result: Any) -> list[dict[str, Any]]:
    """Rows of the build table (empty when the result builds nothing)."""
    from geomodel.results.planning import build_rows

    if not result.has_solution:
        return []
    return build_rows(result.dataset, result.inputs)


def print_build(result: Any, title: str) -> None:
    """What was built where, MW, systems, MWh, fibre pairs and annual cost; nothing if none."""
    rows = build_payload(result)
    if rows:
        print_table(rows, BUILD_COLUMNS, title=f"{title}: built")
