"""How far typical-day KPIs are from the full-resolution solve (``--check-aggregation``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from geomodel.api import Progress, solve
from geomodel.catalog import Catalog
from geomodel.results.result import Result
from geomodel.scenario import load_scenario

#: KPIs compared, the headline ones of DESIGN section 8.
CHECKED_KPIS = (
    "energy_mwh",
    "cost_usd",
    "emissions_tco2",
    "latency_ms_mean",
    "latency_ms_p95",
    "unserved_fraction",
    "renewable_share",
    "objective",
)


@dataclass
class AggregationCheck:
    aggregated: Result
    full: Result

    def rows(self) -> list[dict[str, Any]]:
        """Per KPI: both values and the relative error of the aggregated one."""
        rows = []
        for name in CHECKED_KPIS:
            a, f = self.aggregated.kpis.get(name), self.full.kpis.get(name)
            rows.append(
                {"kpi": name, "aggregated": a, "full": f, "relative_error": relative_error(a, f)}
            )
        return rows

    @property
    def worst_error(self) -> float:
        errors = [r["relative_error"] for r in self.rows() if r["relative_error"] is not None]
        return max(errors, default=float("nan"))


def relative_error(value: Any, reference: Any) -> float | None:
    """|value - reference| / |reference|; absolute difference when the reference is 0."""
    if not isinstance(value, int | float) or not isinstance(reference, int | float):
        return None
    if math.isnan(value) or math.isnan(reference):
        return None
    return abs(value - reference) / abs(reference) if reference else abs(value - reference)


def check_aggregation(
    path: str | Path,
    *,
    variants: Iterable[str] = (),
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    catalog: Catalog | None = None,
    progress: Progress | None = None,
) -> AggregationCheck:
    """Solve a scenario with its typical days and again hour by hour."""
    from geomodel.scenario.load import parse_overrides

    given = parse_overrides(overrides)
    aggregated_scenario = load_scenario(path, variants=variants, overrides=given, catalog=catalog)
    if aggregated_scenario.time.aggregation is None:
        from geomodel.errors import UsageError

        raise UsageError("--check-aggregation", "the scenario has no time.aggregation to check")
    full_scenario = load_scenario(
        path, variants=variants, overrides={**given, "time.aggregation": None}, catalog=catalog
    )
    aggregated = solve(aggregated_scenario, catalog=catalog, progress=progress)
    full = solve(full_scenario, catalog=catalog, progress=progress)
    return AggregationCheck(aggregated, full)
