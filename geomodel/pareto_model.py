"""Pareto mode's changes to a built model: an epsilon bound on one term, or one term
as the objective, and the lexicographic second stage at a term's minimum.

:mod:`geomodel.pareto` sweeps the front; the API (:func:`geomodel.api.solve_inputs`)
applies these to the model it builds. The bound is a mutable parameter in one
coefficient or right-hand side, so a warm re-solve changes one number of the
compiled model (:func:`set_epsilon_bound`).
"""

from __future__ import annotations

import pyomo.environ as pyo

from geomodel.solver.highs import HighsSession, SolveOutcome, SolverSettings, solve_model


def add_epsilon_bound(model, term: str, bound: float) -> None:
    """Pareto mode: bound mean served latency (ms) or total emissions (tCO2e).

    The bound is a mutable parameter and sits in one coefficient (latency, against
    the total served) or the right-hand side (carbon), so a new bound changes one
    number of the compiled model (:func:`set_epsilon_bound`).
    """
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
    model.objective.deactivate()
    if term == "latency":
        worst_ms = float(model.inputs["sla_ms"].max()) if model.inputs.sizes.get("service") else 0.0
        expr = model.latency_ms_mtoken + (worst_ms + 1.0) * model.unserved_mtoken
    elif term == "carbon":
        expr = model.emissions_tco2 + 1.0 * model.unserved_mtoken  # 1 t/Mtoken >> serving's
    else:
        raise ValueError(f"unknown term {term!r}; use 'latency' or 'carbon'")
    model.term_objective = pyo.Objective(expr=expr, sense=pyo.minimize)


def cheapest_at_term_minimum(model, settings: SolverSettings, first: SolveOutcome) -> SolveOutcome:
    """Second stage of a lexicographic solve: hold the term at its minimum (to 1e-7
    relative) and minimise the weighted objective, so the end of a front is not a
    plan that wastes energy the term does not see."""
    term = model.term_objective
    floor = float(pyo.value(term.expr))
    model.term_floor = pyo.Constraint(expr=term.expr <= floor * (1 + 1e-7) + 1e-9)
    term.deactivate()
    model.objective.activate()
    second = solve_model(model, settings)
    second.handover_seconds += first.handover_seconds
    second.solve_seconds += first.solve_seconds
    return second
