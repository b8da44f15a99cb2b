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

#: KPIs compared, the headline ones of docs/model.md, "KPIs".
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
#: KPIs that are a share of demand and usually 0: compared by their absolute
#: difference (an interior-point solution leaves ~1e-10 where a vertex has 0)
ABSOLUTE_KPIS = frozenset({"unserved_fraction"})


@dataclass
class AggregationCheck:
    aggregated: Result
    full: Result

    def rows(self) -> list[dict[str, Any]]:
        """Per KPI: both values and the error of the aggregated one (:func:`kpi_error`)."""
        rows = []
        for name in CHECKED_KPIS:
            a, f = self.aggregated.kpis.get(name), self.full.kpis.get(name)
            rows.append(
                {"kpi": name, "aggregated": a, "full": f, "relative_error": kpi_error(name, a, f)}
            )
        return rows

    @property
    def worst(self) -> tuple[str | None, float]:
        """The KPI with the largest error, and that error (None, NaN if none compares)."""
        errors = [
            (r["relative_error"], r["kpi"]) for r in self.rows() if r["relative_error"] is not None
        ]
        error, name = max(errors, default=(float("nan"), None))
        return name, error


def kpi_error(name: str, value: Any, reference: Any) -> float | None:
    """Relative error of a KPI; the absolute difference for :data:`ABSOLUTE_KPIS`."""
    if name in ABSOLUTE_KPIS:
        return abs(value - reference) if _comparable(value, reference) else None
    return relative_error(value, reference)


def _comparable(*values: Any) -> bool:
    return all(isinstance(v, int | float) and not math.isnan(v) for v in values)


def relative_error(value: Any, reference: Any) -> float | None:
    """|value - reference| / |reference|; absolute difference when the reference is 0."""
    if not _comparable(value, reference):
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
