"""A Pareto front as one table: a row per point with cost, emissions, latency and the
objective terms, read from the stacked results of :mod:`geomodel.pareto`."""

from __future__ import annotations

import pandas as pd
import xarray as xr

from geomodel.results.kpis import KPI_SPECS

#: The dimension Pareto points are stacked along.
PARETO_DIM = "pareto"

#: KPI columns of a front, in order (units from KPI_SPECS).
FRONT_KPIS = (
    "cost_usd",
    "emissions_tco2",
    "latency_ms_mean",
    "latency_ms_p95",
    "unserved_fraction",
    "energy_mwh",
    "renewable_share",
    "objective",
    "energy_cost_term_usd",
    "carbon_cost_term_usd",
    "latency_cost_term_usd",
    "unserved_cost_term_usd",
    "extension_cost_term_usd",
)


def is_front(dataset: xr.Dataset) -> bool:
    """True for the stacked results of a Pareto sweep."""
    return PARETO_DIM in dataset.dims and "pareto_term" in dataset.attrs


def front_table(dataset: xr.Dataset) -> pd.DataFrame:
    """One row per Pareto point, from the tightest bound to the weighted optimum.

    Columns: ``point`` (1..N), ``role`` (``least <term>``, ``bounded`` or
    ``weighted optimum``), ``bound`` (the epsilon bound on the swept term, in its
    units; the weighted optimum's is its own value), ``solver_status`` and the KPIs
    of :data:`FRONT_KPIS` (units in :func:`front_units`).
    """
    if not is_front(dataset):
        raise ValueError("not a Pareto front: no 'pareto' dimension and 'pareto_term' attribute")
    n = dataset.sizes[PARETO_DIM]
    term = str(dataset.attrs["pareto_term"])
    roles = ["bounded"] * n
    roles[0] = f"least {term}"
    roles[-1] = "weighted optimum"
    statuses = (
        [str(s) for s in dataset["point_status"].values]
        if "point_status" in dataset
        else ["unknown"] * n
    )
    table = {
        "point": list(range(1, n + 1)),
        "role": roles,
        "bound": [float(b) for b in dataset["epsilon"].values],
        "solver_status": statuses,
    }
    for name in FRONT_KPIS:
        variable = f"kpi_{name}"
        table[name] = (
            [float(v) for v in dataset[variable].values] if variable in dataset else [float("nan")] * n
        )
    return pd.DataFrame(table)


def front_units(dataset: xr.Dataset) -> dict[str, str]:
    """Column -> units of :func:`front_table` (the bound's from the swept term)."""
    units = {"point": "", "role": "", "solver_status": ""}
    units["bound"] = str(dataset["epsilon"].attrs.get("units", "")) if "epsilon" in dataset else ""
    units.update({name: KPI_SPECS[name][0] for name in FRONT_KPIS})
    return units
