"""The local-only reference of a trace: the same file with every job of its job tables at
its origin and at its arrival, what the savings of shifting are measured against (no
streamlit).

It is the recipe with two ``--set`` overrides per job table (``stay_at_origin=true``,
``slack=0``): trace-week's ``local_only`` variant, for any file with job tables; the app
solves it like any other run (cached by its scenario hash).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from geomodel.ui.recipe import Recipe

#: KPIs the savings are read from: name -> words
SAVED = {
    "cost_usd": "energy cost (USD)",
    "emissions_tco2": "emissions (tCO2e)",
    "energy_mwh": "energy (MWh)",
    "transfer_cost_usd": "data transfer cost (USD)",
    "objective": "objective (USD)",
}


def pinned(table: str) -> dict[str, Any]:
    """The overrides that keep one job table's jobs at their origin, at arrival."""
    return {f"job_tables.{table}.stay_at_origin": True, f"job_tables.{table}.slack": 0.0}


def local_only_recipe(recipe: Recipe, tables: Iterable[str]) -> Recipe:
    """``recipe`` with every job of ``tables`` pinned to its origin and its arrival."""
    overrides = dict(recipe.overrides)
    for table in tables:
        overrides.update(pinned(table))
    return recipe.with_overrides(overrides)


def job_tables(member_sources: Iterable[str]) -> list[str]:
    """The job tables a result's jobs came from (``member_source`` = ``job_tables.NAME``)."""
    prefix = "job_tables."
    return sorted({str(s).removeprefix(prefix) for s in member_sources if str(s).startswith(prefix)})


def savings(this: Mapping[str, Any], local: Mapping[str, Any]) -> pd.DataFrame:
    """Each KPI of this run and of the local-only run, and what this run saves (local -
    this; negative: it costs more) in its units and as a share of the local-only run's."""
    rows = []
    for name, words in SAVED.items():
        a, b = local.get(name), this.get(name)
        if not isinstance(a, int | float) or not isinstance(b, int | float):
            continue
        saved = float(a) - float(b)
        rows.append(
            {
                "kpi": name,
                "what": words,
                "local_only": float(a),
                "this_run": float(b),
                "saved": saved,
                "saved_pct": saved / abs(float(a)) * 100.0 if float(a) else float("nan"),
            }
        )
    return pd.DataFrame(rows, columns=["kpi", "what", "local_only", "this_run", "saved", "saved_pct"])


SAVINGS_TABLE = {
    "what": ("What", None),
    "local_only": ("Local only", 1),
    "this_run": ("This run", 1),
    "saved": ("Saved", 1),
    "saved_pct": ("Saved (%)", 1),
}
