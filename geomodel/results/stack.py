"""Many results along one new dimension (batch scenarios, Pareto points), KPIs included."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import xarray as xr

from geomodel.inputs.dataset import variable
from geomodel.results.kpis import KPI_SPECS


def stack_results(
    datasets: Sequence[xr.Dataset], kpis: Sequence[Mapping[str, Any]], dim: str
) -> xr.Dataset:
    """Results Datasets concatenated along ``dim``, with every numeric KPI as ``kpi_<name>[dim]``.

    Datasets of scenarios with different sites or systems are aligned on the union
    of their labels (missing values are NaN).
    """
    combined = xr.concat(
        list(datasets),
        dim=dim,
        combine_attrs="drop_conflicts",
        data_vars="all",
        coords="minimal",
        compat="override",
        join="outer",
    )
    for name, (units, description) in KPI_SPECS.items():
        values = [row.get(name) for row in kpis]
        if values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            combined[f"kpi_{name}"] = variable(
                dim, [float(v) for v in values], units or "1", description
            )
    return combined
