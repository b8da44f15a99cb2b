"""Solves in one process that ask HiGHS for different thread counts.

HiGHS starts a process-wide thread pool at its first run; before the fix a later run
with another ``threads`` ended with model status "Not Set" (an app session or a batch
worker solving two scenarios, or the flagship plan at 2 threads after the examples at 1).
"""

from __future__ import annotations

import pyomo.environ as pyo
import pytest

from geomodel.solver.highs import SolverSettings, solve_model


def tiny_lp() -> pyo.ConcreteModel:
    """min x + 2y with x + y >= 3, 0 <= x, y <= 10: x = 3, y = 0, objective 3."""
    model = pyo.ConcreteModel()
    model.x = pyo.Var(bounds=(0, 10))
    model.y = pyo.Var(bounds=(0, 10))
    model.cover = pyo.Constraint(expr=model.x + model.y >= 3)
    model.cost = pyo.Objective(expr=model.x + 2 * model.y)
    return model


@pytest.mark.parametrize("method", ["ipm", "dual_simplex"])
def test_a_second_thread_count_in_one_process_still_solves(method):
    for threads in (1, 2, 1):
        model = tiny_lp()
        outcome = solve_model(model, SolverSettings(threads=threads, method=method))
        assert outcome.status == "optimal", (threads, outcome.message)
        assert outcome.objective == pytest.approx(3.0)
        assert pyo.value(model.x) == pytest.approx(3.0)
