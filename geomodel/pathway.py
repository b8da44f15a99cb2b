"""Solve a pathway: periods with perfect foresight (one model) or myopic (one period at a
time, keeping what earlier periods built); docs/planning.md, "Pathways".

The CLI and the API reach pathways through :func:`solve_pathway`; a scenario without
``periods`` never comes here, so it solves exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyomo.environ as pyo
import xarray as xr
from pyomo.common.gc_manager import PauseGC

from geomodel.api import Progress, _apply_extensions, _integer_choices, _result, solver_settings
from geomodel.catalog import Catalog, build_catalog
from geomodel.inputs.pathway import build_pathway_inputs, growth_factors
from geomodel.model.basics import USD_PER_KUSD
from geomodel.model.pathway import (
    OPERATIONAL_TERMS,
    Vintage,
    build_pathway_model,
    period_inputs,
    vintages,
)
from geomodel.plugin_loader import PluginHost
from geomodel.results.pathway import PathwayResult, summary_dataset
from geomodel.results.result import attach_kpis
from geomodel.scenario import Scenario, load_scenario
from geomodel.solver.highs import HighsSession, SolveOutcome
from geomodel.solver.precheck import aggregate_checks, proves_infeasible


def solve_pathway(
    scenario: Scenario | str | Path,
    *,
    variants: tuple[str, ...] = (),
    overrides: Mapping[str, Any] | None = None,
    catalog: Catalog | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
) -> PathwayResult:
    """Load (if given a path), build and solve a scenario with ``periods``."""
    report = progress or (lambda phase: None)
    catalog = catalog if catalog is not None else build_catalog()
    if not isinstance(scenario, Scenario):
        report("load")
        scenario = load_scenario(scenario, variants=variants, overrides=overrides, catalog=catalog)
    tree = build_pathway_inputs(scenario, catalog)
    growth = {k: v.tolist() for k, v in growth_factors(scenario.periods).items()}
    return solve_pathway_inputs(tree, host=catalog.host, progress=report, threads=threads, growth=growth)


def reachable_inputs(tree: xr.DataTree, position: int) -> xr.Dataset:
    """A period's inputs with no room to build where no vintage can be online in it (a
    lead time too long, a system not yet sold): what the aggregate checks may count."""
    inputs = period_inputs(tree)[position].copy()
    years = [float(y) for y in tree["period"].values]
    can = {(v.name, v.index) for v in vintages(tree) if v.alive(years[position], years[v.online])}
    from geomodel.model.planning import BUILD_VARIABLES

    for name, (most_name, *_) in BUILD_VARIABLES.items():
        if most_name not in inputs:
            continue
        most = inputs[most_name].values.copy()
        for raw in zip(*np.nonzero(most > 0), strict=True):
            key = tuple(int(i) for i in raw)
            if (name, key if len(key) > 1 else key[0]) not in can:
                most[raw] = 0.0
        inputs[most_name] = inputs[most_name].copy(data=most)
    return inputs


def _infeasible_periods(tree: xr.DataTree, growth: dict[str, list[float]]) -> list[str]:
    """Each period the aggregate checks prove infeasible, in words."""
    lines = []
    years = [int(y) for y in tree["period"].values]
    for position, year in enumerate(years):
        inputs = reachable_inputs(tree, position)
        findings = aggregate_checks(inputs)
        if not proves_infeasible(findings, with_supply=False):
            continue
        grown = ", ".join(
            f"{name} x {factors[position]:g}"
            for name, factors in growth.items()
            if factors[position] != 1
        )
        context = f" (demand grown: {grown})" if grown else ""
        for finding in findings:
            if finding.severity != "warning":
                lines.append(f"period {year}{context}: {finding.message}")
    return lines


def solve_pathway_inputs(
    tree: xr.DataTree,
    *,
    host: PluginHost | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
    growth: dict[str, list[float]] | None = None,
) -> PathwayResult:
    """Solve a pathway's inputs tree: one model (perfect foresight) or one per period (myopic)."""
    report = progress or (lambda phase: None)
    root = tree.to_dataset(inherit=False)
    periods = period_inputs(tree)
    n = len(periods)
    settings = solver_settings(periods[0], threads)
    integer = _integer_choices(periods[0])
    problems = _infeasible_periods(tree, growth or {})
    if problems:
        return PathwayResult(
            inputs=root, dataset=xr.Dataset(attrs={"pathway": 1}), messages=["no solution", *problems]
        )
    steps = [list(range(n))] if root.attrs.get("foresight") != "myopic" else [[p] for p in range(n)]
    built: dict[Vintage, float] = {}
    blocks: dict[int, tuple[Any, SolveOutcome, float]] = {}
    total_kusd = 0.0
    messages: list[str] = []
    for step in steps:
        report("build")
        with PauseGC():
            model = build_pathway_model(
                tree,
                step,
                built,
                integer,
                extend=lambda block, inputs: messages.extend(_apply_extensions(block, inputs, host)),
            )
        report("solve")
        outcome = HighsSession(model, settings).run()
        if not outcome.has_solution:
            years = ", ".join(str(int(root["period"].values[p])) for p in step)
            return PathwayResult(
                inputs=root,
                dataset=xr.Dataset(attrs={"pathway": 1}),
                messages=[f"no solution for period(s) {years}: {outcome.message}", *messages],
            )
        total_kusd += outcome.objective
        for k, v in enumerate(model.vintages):
            built[v] = float(model.new[k].value or 0.0)
        for p in step:
            blocks[p] = (model.blocks[p], outcome, _period_cost(model, p, root, built))
    report("results")
    results = []
    for p in range(n):
        block, outcome, cost = blocks[p]
        own = SolveOutcome(
            outcome.status,
            outcome.message,
            objective=float(pyo.value(block.objective)),
            has_solution=True,
            highs_version=outcome.highs_version,
            method=outcome.method,
        )
        result = _result(block, periods[p], own, 0.0, [], [], host)
        result.kpis["period_cost_usd_per_year"] = cost
        results.append(result)
    npc = total_kusd * USD_PER_KUSD
    dataset = summary_dataset(root, periods, built, results, npc)
    kpis = {
        "net_present_cost_usd": npc,
        "solver_status": "optimal",
        "foresight": dataset.attrs["foresight"],
    }
    attach_kpis(dataset, kpis, messages)
    return PathwayResult(inputs=root, dataset=dataset, periods=results, kpis=kpis, messages=messages)


def _period_cost(model, p: int, root: xr.Dataset, built: dict[Vintage, float]) -> float:
    """Period p's cost a year, USD: its operational cost scaled to a year plus the
    annuity and fixed O&M of every vintage alive in it."""
    years = [float(y) for y in root["period"].values]
    block = model.blocks[p]
    operational = sum(float(pyo.value(getattr(block, t))) for t in OPERATIONAL_TERMS)
    yearly = operational * USD_PER_KUSD / float(root["horizon_years"].values[p])
    alive = sum(v.usd_per_unit_year * x for v, x in built.items() if v.alive(years[p], years[v.online]))
    return yearly + alive


__all__ = ["reachable_inputs", "solve_pathway", "solve_pathway_inputs"]
