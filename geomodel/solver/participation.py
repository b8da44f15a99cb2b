"""Executable plans: binary site use of synchronous jobs, with the LP relaxation's bound kept
(docs/model.md (6), "Executable plans").

A MIP is first solved as its LP relaxation (every integer column continuous): its
objective is the bound the results report the executable plan's gap against. Then, by
``solver.participation``:

* ``relax_fix``: each synchronous job stays, at each step, within the group of linked
  sites where the relaxation put most of its chips (its spans elsewhere fixed to 0; in a
  step where the relaxation ran none of it, it stays off) and the model is solved again
  with the remaining integers; if that has no solution, the full MIP is solved.
* ``exact``: as ``relax_fix``, and then the full MIP, started from that plan, to the
  scenario's ``mip_gap``.
* ``relaxed``: spans are continuous in the model (the LP relaxation of site use); only
  the scenario's other integer options, if any, are solved as a MIP.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from geomodel.solver.highs import HighsSession, SolveOutcome

#: ``solver.participation`` values; the first is the default
PARTICIPATION_METHODS = ("exact", "relax_fix", "relaxed")


@dataclass
class Relaxation:
    """The LP relaxation of the model, solved before its integers."""

    objective: float | None  #: kUSD; None when the relaxation had no solution
    seconds: float  #: its hand-over and solve
    fixed_spans: int = 0  #: spans relax-fix fixed to 0
    fell_back: bool = False  #: relax-fix found no plan, so the full MIP was solved


def solve_participation(
    session: HighsSession, model, participation: str
) -> tuple[SolveOutcome, Relaxation]:
    """Solve ``model`` (handed to ``session``) by ``participation`` and keep its relaxation."""
    if not session.form.is_mip:  # nothing integer: the LP is its own relaxation
        outcome = session.run()
        return outcome, Relaxation(outcome.objective, outcome.handover_seconds + outcome.solve_seconds)
    runs: list[SolveOutcome] = []

    def run(relaxation: bool = False) -> SolveOutcome:
        spent = sum(r.handover_seconds + r.solve_seconds for r in runs)
        runs.append(session.run(relaxation, session.settings.time_limit_s - spent))
        return runs[-1]

    first = run(relaxation=True)
    relaxation = Relaxation(first.objective, first.handover_seconds + first.solve_seconds)
    if not first.has_solution:  # no LP plan, no integer one: report the relaxation's status
        return first, relaxation
    if participation in ("relax_fix", "exact") and len(model.span):
        fixed = fix_to_relaxed_groups(session, model)
        relaxation.fixed_spans = len(fixed)
        found = run().has_solution
        session.set_column_bounds(fixed, 0.0, 1.0)  # the spans are binaries again
        relaxation.fell_back = not found
        if participation == "exact" or not found:
            if found:
                session.start_from(session.column_values())
            run()
    else:
        run()
    return _combined(runs), relaxation


def fix_to_relaxed_groups(session: HighsSession, model) -> list:
    """Fix to 0 the spans outside the group of linked sites where the relaxation (whose
    values the model holds) put most of each job's chips at each step; all of a job's
    spans at a step where it ran none of it. Returns the span variables fixed."""
    sets = model.sets
    chips: dict[tuple[int, int, int], float] = defaultdict(float)
    for (j, s, _, t), var in zip(sets.train, model.train.values(), strict=True):
        chips[j, s, t] += var.value or 0.0
    sites_at: dict[tuple[int, int], list[int]] = defaultdict(list)
    for j, s, t in sets.span:
        sites_at[j, t].append(s)
    fixed = []
    for (j, t), sites in sites_at.items():
        floor = 1e-6 * max(1.0, sum(chips[j, s, t] for s in sites))
        groups = sets.site_groups.get(j, [tuple(sites)])
        best = max(groups, key=lambda g: sum(chips[j, s, t] for s in g))
        if sum(chips[j, s, t] for s in best) <= floor:
            best = ()
        fixed.extend(model.span[j, s, t] for s in sites if s not in best)
    session.set_column_bounds(fixed, 0.0, 0.0)
    return fixed


def _combined(runs: list[SolveOutcome]) -> SolveOutcome:
    """The last run's outcome with the hand-over and solve time of every run."""
    last = runs[-1]
    last.handover_seconds = float(np.sum([r.handover_seconds for r in runs]))
    last.solve_seconds = float(np.sum([r.solve_seconds for r in runs]))
    return last
