"""The Python API: ``solve`` a scenario (or an inputs Dataset) and get a :class:`Result`.

The CLI, the batch engine and the app all go through these functions.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pyomo
import xarray as xr
from pyomo.common.errors import InfeasibleConstraintException
from pyomo.common.gc_manager import PauseGC

from geomodel.catalog import Catalog, build_catalog
from geomodel.inputs.build import build_inputs
from geomodel.inputs.provenance import SIGNAL_ATTRIBUTES
from geomodel.model.basics import IntegerChoices
from geomodel.model.build import build_model
from geomodel.model.objective import OBJECTIVE_TERMS
from geomodel.plugin_loader import PluginHost
from geomodel.results.extract import extract_results
from geomodel.results.kpis import compute_kpis
from geomodel.results.result import Result, attach_kpis
from geomodel.scenario import Scenario, load_scenario
from geomodel.solver.explain import explain_constraints
from geomodel.solver.highs import (
    IIS_TIME_LIMIT_S,
    HighsSession,
    SolveOutcome,
    SolverSettings,
    solve_model,
)

Progress = Callable[[str], None]
_KUSD = 1000.0
#: objective term component -> KPI name
TERM_KPIS = dict(
    zip(
        OBJECTIVE_TERMS,
        (
            "energy_cost_term_usd",
            "carbon_cost_term_usd",
            "latency_cost_term_usd",
            "unserved_cost_term_usd",
            "extension_cost_term_usd",
            "investment_cost_term_usd",
            "fixed_om_cost_term_usd",
            "storage_cost_term_usd",
        ),
        strict=True,
    )
)


def solve(
    scenario: Scenario | str | Path,
    *,
    variants: Iterable[str] = (),
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    catalog: Catalog | None = None,
    progress: Progress | None = None,
    epsilon: tuple[str, float] | None = None,
    threads: int | None = None,
) -> Result:
    """Load (if given a path), build, solve and read back one scenario.

    ``threads`` overrides the scenario's HiGHS threads without changing its hash
    (the batch engine sets it so workers do not oversubscribe the cores).
    """
    report = progress or (lambda phase: None)
    catalog = catalog if catalog is not None else build_catalog()
    if not isinstance(scenario, Scenario):
        report("load")
        scenario = load_scenario(scenario, variants=variants, overrides=overrides, catalog=catalog)
    inputs = build_inputs(scenario, catalog)
    return solve_inputs(inputs, host=catalog.host, progress=report, epsilon=epsilon, threads=threads)


def solve_inputs(
    inputs: xr.Dataset,
    *,
    host: PluginHost | None = None,
    progress: Progress | None = None,
    epsilon: tuple[str, float] | None = None,
    minimise: str = "weighted",
    threads: int | None = None,
) -> Result:
    """Solve an inputs Dataset.

    ``epsilon`` = ("latency", ms) or ("carbon", tCO2e) bounds mean served latency
    or emissions (Pareto mode); ``minimise`` = "latency" or "carbon" replaces the
    weighted objective by that term alone (the ends of a Pareto front).
    """
    report = progress or (lambda phase: None)
    settings = solver_settings(inputs, threads)
    report("build")
    model, messages, build_seconds = _build(inputs, host, epsilon, minimise)
    report("solve")
    try:
        outcome = solve_model(model, settings)
        if minimise != "weighted" and outcome.has_solution:
            outcome = _cheapest_at_term_minimum(model, settings, outcome)
    except InfeasibleConstraintException as error:
        names = re.findall(r"'([^']+)'", str(error))
        outcome = SolveOutcome("infeasible", str(error), iis_constraints=names)
    report("results")
    return _result(model, inputs, outcome, build_seconds, messages)


def solve_epsilon_points(
    inputs: xr.Dataset,
    term: str,
    bounds: Iterable[float],
    *,
    host: PluginHost | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
) -> list[Result]:
    """Pareto points: one ``solve_inputs(epsilon=(term, bound))`` per bound, but the
    model is built and handed to HiGHS once and each later point starts warm from
    the last basis (bench/resolve.py: 1.6-5.1x faster than rebuilding)."""
    report = progress or (lambda phase: None)
    bounds = [float(b) for b in bounds]
    if not bounds:
        return []
    settings = solver_settings(inputs, threads)
    report("build")
    model, messages, build_seconds = _build(inputs, host, (term, bounds[0]), "weighted")
    try:
        session = HighsSession(model, settings)
    except InfeasibleConstraintException:  # reported in words by the ordinary path
        return [solve_inputs(inputs, host=host, progress=progress, epsilon=(term, b)) for b in bounds]
    results = []
    for position, bound in enumerate(bounds):
        if position:
            set_epsilon_bound(model, term, bound, session)
        report("solve")
        outcome = session.run()
        report("results")
        results.append(
            _result(model, inputs, outcome, build_seconds if not position else 0.0, list(messages))
        )
    return results


def _solver_options(inputs: xr.Dataset) -> dict[str, Any]:
    """The scenario's ``solver`` section, as build_inputs recorded it."""
    return json.loads(inputs.attrs.get("solver_options", "{}"))


def solver_settings(inputs: xr.Dataset, threads: int | None = None) -> SolverSettings:
    """HiGHS settings from the scenario's ``solver`` section; ``threads`` overrides."""
    options = _solver_options(inputs)
    return SolverSettings(
        time_limit_s=options.get("time_limit", 600.0),
        mip_gap=options.get("mip_gap", 0.01),
        threads=options.get("threads", 1) if threads is None else threads,
        method=options.get("method", "auto"),
    )


def _build(
    inputs: xr.Dataset,
    host: PluginHost | None,
    epsilon: tuple[str, float] | None,
    minimise: str,
) -> tuple[Any, list[str], float]:
    """The model with extensions, an epsilon bound and a term objective as asked."""
    integer = IntegerChoices(**_solver_options(inputs).get("integer", {}))
    started = time.perf_counter()
    # millions of small, acyclic objects: the cyclic garbage collector would spend
    # two thirds of the build scanning them (10^6 columns: 18.5 s -> 5.7 s without it)
    with PauseGC():
        model = build_model(inputs, integer)
        messages = _apply_extensions(model, inputs, host)
        if epsilon is not None:
            add_epsilon_bound(model, *epsilon)
        if minimise != "weighted":
            minimise_term(model, minimise)
    return model, messages, time.perf_counter() - started


def add_epsilon_bound(model, term: str, bound: float) -> None:
    """Pareto mode: bound mean served latency (ms) or total emissions (tCO2e).

    The bound is a mutable parameter and sits in one coefficient (latency, against
    the total served) or the right-hand side (carbon), so a new bound changes one
    number of the compiled model (:func:`set_epsilon_bound`).
    """
    import pyomo.environ as pyo

    model.epsilon_bound = pyo.Param(mutable=True, initialize=float(bound))
    if term == "latency":
        model.served_total_mtoken = pyo.Var(domain=pyo.NonNegativeReals, doc="served, Mtoken")
        model.served_total = pyo.Constraint(expr=model.served_total_mtoken == model.served_mtoken)
        model.epsilon = pyo.Constraint(
            expr=model.latency_ms_mtoken - model.epsilon_bound * model.served_total_mtoken <= 0
        )
    elif term == "carbon":
        model.epsilon = pyo.Constraint(expr=model.emissions_tco2 <= model.epsilon_bound)
    else:
        raise ValueError(f"unknown epsilon term {term!r}; use 'latency' or 'carbon'")


def set_epsilon_bound(model, term: str, bound: float, session: HighsSession) -> None:
    """A new bound for :func:`add_epsilon_bound`, in the model and in HiGHS."""
    model.epsilon_bound.set_value(float(bound))
    if term == "latency":
        session.set_coefficient(model.epsilon, model.served_total_mtoken, -float(bound))
    else:
        session.set_row_upper(model.epsilon, float(bound))


def minimise_term(model, term: str) -> None:
    """Replace the objective by one term; unserved demand stays dearer than any serving."""
    import pyomo.environ as pyo

    model.objective.deactivate()
    if term == "latency":
        worst_ms = float(model.inputs["sla_ms"].max()) if model.inputs.sizes.get("service") else 0.0
        expr = model.latency_ms_mtoken + (worst_ms + 1.0) * model.unserved_mtoken
    elif term == "carbon":
        expr = model.emissions_tco2 + 1.0 * model.unserved_mtoken  # 1 t/Mtoken >> serving's
    else:
        raise ValueError(f"unknown term {term!r}; use 'latency' or 'carbon'")
    model.term_objective = pyo.Objective(expr=expr, sense=pyo.minimize)


def _cheapest_at_term_minimum(model, settings: SolverSettings, first: SolveOutcome) -> SolveOutcome:
    """Second stage of a lexicographic solve: hold the term at its minimum (to 1e-7
    relative) and minimise the weighted objective, so the end of a front is not a
    plan that wastes energy the term does not see."""
    import pyomo.environ as pyo

    term = model.term_objective
    floor = float(pyo.value(term.expr))
    model.term_floor = pyo.Constraint(expr=term.expr <= floor * (1 + 1e-7) + 1e-9)
    term.deactivate()
    model.objective.activate()
    second = solve_model(model, settings)
    second.handover_seconds += first.handover_seconds
    second.solve_seconds += first.solve_seconds
    return second


def _apply_extensions(model, inputs: xr.Dataset, host: PluginHost | None) -> list[str]:
    """Let each plugin's ``extend_model`` add to the model; a failing one is named and skipped."""
    if host is None:
        return []
    before = len(host.failures)
    applied = [plugin.name for plugin, _ in host.call_each("extend_model", model=model, inputs=inputs)]
    failures = [str(f) for f in host.failures[before:]]
    model.extensions = applied
    return failures


def _result(model, inputs, outcome: SolveOutcome, build_seconds: float, messages: list[str]) -> Result:
    kpis: dict[str, Any] = {
        "solver_status": outcome.status,
        "mip_gap": outcome.mip_gap if outcome.mip_gap is not None else float("nan"),
        "build_seconds": build_seconds,
        "solve_seconds": outcome.handover_seconds + outcome.solve_seconds,
    }
    if outcome.has_solution:
        dataset = extract_results(model)
        kpis.update(compute_kpis(dataset, inputs, model.weight_hours))
        kpis["objective"] = outcome.objective * _KUSD
        for term, name in TERM_KPIS.items():
            kpis[name] = (
                float(
                    getattr(model, term).expr()
                    if hasattr(getattr(model, term), "expr")
                    else getattr(model, term)()
                )
                * _KUSD
            )
        if outcome.status != "optimal":
            messages.append(
                f"solver stopped with status {outcome.status} ({outcome.message}); "
                f"the solution is feasible but not proven optimal "
                f"(gap {kpis['mip_gap']:.2%})"
            )
    else:
        dataset = xr.Dataset(coords=inputs.coords)
        messages.append(f"no solution: {outcome.message}")
        if outcome.status == "infeasible":
            reasons = explain_constraints(outcome.iis_constraints, inputs)
            messages.extend(
                reasons
                or [
                    "HiGHS found no infeasible subset to explain within "
                    f"{IIS_TIME_LIMIT_S:g} s; a shorter horizon "
                    "gives a smaller model to search"
                ]
            )
    dataset.attrs.update(
        {
            k: inputs.attrs[k]
            for k in (
                "scenario_name",
                "scenario_hash",
                "scenario_json",
                "variants",
                "timezone",
                "geomodel_version",
                "plugin_versions",
                *SIGNAL_ATTRIBUTES,
            )
            if k in inputs.attrs
        }
    )
    dataset.attrs.update(
        pyomo_version=pyomo.version.version,
        highs_version=outcome.highs_version,
        solver_message=outcome.message,
        handover_seconds=outcome.handover_seconds,
        solver_method=outcome.method,
        extensions=",".join(getattr(model, "extensions", [])),
        is_mip=int(outcome.is_mip),
    )
    attach_kpis(dataset, kpis, messages)
    return Result(inputs=inputs, dataset=dataset, kpis=kpis, messages=messages)


__all__ = ["Result", "add_epsilon_bound", "solve", "solve_epsilon_points", "solve_inputs"]
