"""The Python API: ``solve`` a scenario (or an inputs Dataset) and get a :class:`Result`.

The CLI, the batch engine and the app all go through these functions.
"""

from __future__ import annotations

import json
import math
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
from geomodel.errors import ExtensionError, GeomodelError
from geomodel.inputs.build import build_inputs
from geomodel.inputs.provenance import SIGNAL_ATTRIBUTES
from geomodel.model.basics import IntegerChoices
from geomodel.model.build import build_model
from geomodel.model.objective import OBJECTIVE_TERMS
from geomodel.pareto_model import (
    add_epsilon_bound,
    cheapest_at_term_minimum,
    minimise_term,
    set_epsilon_bound,
)
from geomodel.plugin_loader import (
    ALLOW_BROKEN_EXTENSIONS_ENV,
    DISABLE_ENV,
    PluginHost,
    broken_extensions_allowed,
)
from geomodel.results.extension_results import add_extension_results
from geomodel.results.extract import extract_results
from geomodel.results.kpis import compute_kpis
from geomodel.results.relaxation import relaxation_kpis
from geomodel.results.result import Result, attach_kpis
from geomodel.results.shadow_prices import add_shadow_prices
from geomodel.scenario import Scenario, load_scenario
from geomodel.solver.explain import PROVEN_BEFORE_SOLVING, explain_infeasible
from geomodel.solver.highs import HighsSession, SolveOutcome, SolverSettings
from geomodel.solver.participation import PARTICIPATION_METHODS, Relaxation, solve_participation
from geomodel.solver.precheck import Finding, aggregate_checks, proves_infeasible

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
            "transfer_cost_term_usd",
            "water_cost_term_usd",
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
    allow_broken_extensions: bool | None = None,
) -> Result:
    """Load (if given a path), build, solve and read back one scenario.

    ``threads`` overrides the scenario's HiGHS threads without changing its hash
    (the batch engine sets it so workers do not oversubscribe the cores).
    ``allow_broken_extensions`` (default: ``GEOMODEL_ALLOW_BROKEN_EXTENSIONS``)
    solves without an extension whose ``extend_model`` raises instead of raising
    :class:`geomodel.errors.ExtensionError`.
    """
    report = progress or (lambda phase: None)
    catalog = catalog if catalog is not None else build_catalog()
    if not isinstance(scenario, Scenario):
        report("load")
        scenario = load_scenario(scenario, variants=variants, overrides=overrides, catalog=catalog)
    if scenario.periods is not None:
        raise GeomodelError(
            f"scenario {scenario.name!r} has periods: it is a pathway, solved by "
            "geomodel.pathway.solve_pathway (geomodel run does so), not by solve"
        )
    inputs = build_inputs(scenario, catalog)
    return solve_inputs(
        inputs,
        host=catalog.host,
        progress=report,
        epsilon=epsilon,
        threads=threads,
        allow_broken_extensions=allow_broken_extensions,
    )


def solve_inputs(
    inputs: xr.Dataset,
    *,
    host: PluginHost | None = None,
    progress: Progress | None = None,
    epsilon: tuple[str, float] | None = None,
    minimise: str = "weighted",
    threads: int | None = None,
    allow_broken_extensions: bool | None = None,
) -> Result:
    """Solve an inputs Dataset.

    ``epsilon`` = ("latency", ms) or ("carbon", tCO2e) bounds mean served latency
    or emissions (Pareto mode); ``minimise`` = "latency" or "carbon" replaces the
    weighted objective by that term alone (the ends of a Pareto front).

    The aggregate checks of :mod:`geomodel.solver.precheck` run first: when one
    proves the model infeasible, nothing is built and the result says why.
    """
    report = progress or (lambda phase: None)
    settings = solver_settings(inputs, threads)
    findings = aggregate_checks(inputs, systems_on_off=_integer_choices(inputs).systems_on_off)
    if proves_infeasible(findings, with_supply=False):
        return _result(
            None, inputs, SolveOutcome("infeasible", PROVEN_BEFORE_SOLVING), 0.0, [], findings, host
        )
    report("build")
    model, messages, build_seconds = _build(inputs, host, epsilon, minimise, allow_broken_extensions)
    report("solve")
    relaxation = None
    session = None
    try:
        session = HighsSession(model, settings)
        outcome, relaxation = solve_participation(session, model, participation(inputs))
        if session.duals and outcome.has_solution:
            session.fixed_integer_duals()  # an extension's shadow prices after a MIP
        if minimise != "weighted" and outcome.has_solution:
            outcome = cheapest_at_term_minimum(model, settings, outcome)
        elif outcome.status == "infeasible" and not proves_infeasible(findings, with_supply=True):
            session.find_iis(outcome)
    except InfeasibleConstraintException as error:
        names = re.findall(r"'([^']+)'", str(error))
        outcome = SolveOutcome("infeasible", str(error), iis_constraints=names)
    report("results")
    weighted = session if minimise == "weighted" else None
    return _result(model, inputs, outcome, build_seconds, messages, findings, host, relaxation, weighted)


def solve_epsilon_points(
    inputs: xr.Dataset,
    term: str,
    bounds: Iterable[float],
    *,
    host: PluginHost | None = None,
    progress: Progress | None = None,
    threads: int | None = None,
    allow_broken_extensions: bool | None = None,
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
    model, messages, build_seconds = _build(
        inputs, host, (term, bounds[0]), "weighted", allow_broken_extensions
    )
    try:
        session = HighsSession(model, settings)
    except InfeasibleConstraintException:  # reported in words by the ordinary path
        return [
            solve_inputs(
                inputs,
                host=host,
                progress=progress,
                epsilon=(term, b),
                allow_broken_extensions=allow_broken_extensions,
            )
            for b in bounds
        ]
    results = []
    for position, bound in enumerate(bounds):
        if position:
            set_epsilon_bound(model, term, bound, session)
        report("solve")
        outcome, relaxation = solve_participation(session, model, participation(inputs))
        if session.duals and outcome.has_solution:
            session.fixed_integer_duals()  # an extension's shadow prices after a MIP
        if outcome.status == "infeasible":
            session.find_iis(outcome)
        report("results")
        seconds = build_seconds if not position else 0.0
        results.append(_result(model, inputs, outcome, seconds, list(messages), [], host, relaxation))
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


def participation(inputs: xr.Dataset) -> str:
    """``solver.participation`` of the scenario (docs/model.md (6))."""
    return _solver_options(inputs).get("participation", PARTICIPATION_METHODS[0])


def _integer_choices(inputs: xr.Dataset) -> IntegerChoices:
    """The integer options; a synchronous job's site use is binary unless it is relaxed."""
    options = _solver_options(inputs).get("integer", {})
    return IntegerChoices(**options, site_participation=participation(inputs) != "relaxed")


def _build(
    inputs: xr.Dataset,
    host: PluginHost | None,
    epsilon: tuple[str, float] | None,
    minimise: str,
    allow_broken_extensions: bool | None = None,
) -> tuple[Any, list[str], float]:
    """The model with extensions, an epsilon bound and a term objective as asked."""
    integer = _integer_choices(inputs)
    started = time.perf_counter()
    # millions of small, acyclic objects: the cyclic garbage collector would spend
    # two thirds of the build scanning them (10^6 columns: 18.5 s -> 5.7 s without it)
    with PauseGC():
        model = build_model(inputs, integer)
        messages = _apply_extensions(model, inputs, host, allow_broken_extensions)
        if epsilon is not None:
            add_epsilon_bound(model, *epsilon)
        if minimise != "weighted":
            minimise_term(model, minimise)
    return model, messages, time.perf_counter() - started


def _apply_extensions(
    model, inputs: xr.Dataset, host: PluginHost | None, allow_broken: bool | None = None
) -> list[str]:
    """Let each plugin's ``extend_model`` add to the model.

    A dropped extension is a wrong plan (a battery that is not there, a limit that
    does not hold), so one that raises fails the solve with the plugin named, unless
    broken extensions are allowed; then the result says what is missing.
    """
    model.extensions = []
    model.extensions_failed = []
    if host is None:
        return []
    before = len(host.failures)
    model.extensions = [
        plugin.name for plugin, _ in host.call_each("extend_model", model=model, inputs=inputs)
    ]
    failed = host.failures[before:]
    model.extensions_failed = [f.name for f in failed]
    if not failed:
        return []
    if allow_broken is None:
        allow_broken = broken_extensions_allowed()
    if not allow_broken or host.strict:
        lines = [f"{f} (the model would lack what it adds)" for f in failed]
        hint = (
            f"fix or disable the plugin ({DISABLE_ENV}=name), or solve without it: "
            f"--allow-broken-extensions or {ALLOW_BROKEN_EXTENSIONS_ENV}=1"
        )
        raise ExtensionError("\n".join([*lines, hint]))
    return [
        f"{f}; solved WITHOUT this extension ({ALLOW_BROKEN_EXTENSIONS_ENV}): "
        "the plan lacks its variables and constraints"
        for f in failed
    ]


def _result(
    model,
    inputs: xr.Dataset,
    outcome: SolveOutcome,
    build_seconds: float,
    messages: list[str],
    findings: list[Finding],
    host: PluginHost | None,
    relaxation: Relaxation | None = None,
    session: HighsSession | None = None,
) -> Result:
    """The Result of a solve; ``model`` is None when the aggregate checks proved the
    scenario infeasible before anything was built. With the ``session`` of a weighted
    solve, the envelope's shadow prices join the results (``results.shadow_prices``)."""
    kpis: dict[str, Any] = {
        "solver_status": outcome.status,
        "mip_gap": outcome.mip_gap if outcome.mip_gap is not None else float("nan"),
        "build_seconds": build_seconds,
        "solve_seconds": outcome.handover_seconds + outcome.solve_seconds,
    }
    if outcome.has_solution:
        dataset = extract_results(model)
        if session is not None:
            add_shadow_prices(dataset, model, session)
        kpis.update(compute_kpis(dataset, inputs, model.weight_hours))
        extension_kpis, notes = add_extension_results(model, inputs, dataset, host)
        kpis.update(extension_kpis)
        messages.extend(notes)
        kpis["objective"] = outcome.objective * _KUSD
        bound = relaxation.objective if relaxation is not None else None
        kpis.update(
            relaxation_kpis(
                kpis["objective"],
                None if bound is None else bound * _KUSD,
                relaxation.seconds if relaxation is not None else math.nan,
                participation(inputs),
            )
        )
        if relaxation is not None and relaxation.fell_back:
            messages.append(
                "relax-and-fix found no plan within the groups the relaxation used; the full "
                "MIP was solved instead"
            )
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
        messages.extend(f"warning: {f.message}" for f in findings if f.severity == "warning")
    else:
        dataset = xr.Dataset(coords=inputs.coords)
        messages.append(f"no solution: {outcome.message}")
        if outcome.status == "infeasible":
            extensions = getattr(model, "extensions", []) if model is not None else []
            messages.extend(explain_infeasible(outcome, inputs, findings, extensions))
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
        extensions_failed=",".join(getattr(model, "extensions_failed", [])),
        iis_seconds=outcome.iis_seconds,
        iis_limit_seconds=outcome.iis_limit_s,
        plugin_failures=json.dumps([str(f) for f in host.failures] if host is not None else []),
        is_mip=int(outcome.is_mip),
    )
    attach_kpis(dataset, kpis, messages)
    return Result(inputs=inputs, dataset=dataset, kpis=kpis, messages=messages)


__all__ = ["Result", "add_epsilon_bound", "solve", "solve_epsilon_points", "solve_inputs"]
