"""Executable plans: binary site use of synchronous jobs, with the LP relaxation's bound kept
(docs/model.md (6), "Executable plans").

A MIP is first solved as its LP relaxation (every integer column continuous): its
objective is the bound the results report the executable plan's gap against. Then, by
``solver.participation``:

* ``relax_fix``: each synchronous job is kept, at each step, within the group of linked
  sites where the relaxation put most of its chips, at the sites of that group where it
  had chips (a step where the relaxation ran none of it: off): those spans are fixed to
  1, every other span to 0, and the model is solved again, as an LP when no other
  integer is left. If that has no plan (the whole exchange of a split does not fit),
  the spans of the jobs split within a group are left binary and it is solved again;
  failing that, the full MIP is solved.
* ``exact``: as ``relax_fix``; when that plan is within ``mip_gap`` of the relaxation's
  bound it is proven so and kept, otherwise branch and bound starts from it.
* ``relaxed``: spans are continuous in the model (the LP relaxation of site use); only
  the scenario's other integer options, if any, are solved as a MIP.

A plan found by branch and bound is then polished: spans fixed to where it has chips
and the other integers to their values, the LP that is left is solved (:func:`polish`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
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
    fixed_spans: int = 0  #: spans relax-fix fixed (to 0, or to 1 where a job kept one site)
    free_spans: int = 0  #: spans relax-fix left binary (the fallback of a split within a group)
    fell_back: bool = False  #: relax-fix found no plan, so the full MIP was solved


def solve_participation(
    session: HighsSession, model, participation: str, warm: bool = True
) -> tuple[SolveOutcome, Relaxation]:
    """Solve ``model`` (handed to ``session``) by ``participation`` and keep its relaxation.

    ``warm`` false: ``exact`` is branch and bound from nothing, without relax-fix's plan
    (bench/executable_methods.py measures both).
    """
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
        first.is_mip = True  # of the MIP it was the relaxation of
        return first, relaxation
    binary = participation != "relaxed" and len(model.span) > 0
    plan = None
    if binary and (participation == "relax_fix" or warm):
        plan = _relax_and_fix(session, model, relaxation, run)
        best = runs[-1].objective if plan is not None and runs[-1].has_solution else None
        gap = _gap(best, first.objective) if best is not None else np.inf
        if participation == "exact" and plan is not None and gap > session.settings.mip_gap:
            session.start_from(session.column_values())  # branch and bound from this plan
            plan = None
    fixed = plan is not None
    if plan is None:
        plan = run()  # branch and bound
        if plan.has_solution and binary:
            polish(session, model, run)
    outcome = _combined(runs, plan, session.form.is_mip)
    if fixed and outcome.has_solution:  # proven, or bounded, by the relaxation alone
        outcome.mip_gap = _gap(outcome.objective, first.objective)
    return outcome, relaxation


def _relax_and_fix(
    session: HighsSession, model, relaxation: Relaxation, run: Callable[..., SolveOutcome]
) -> SolveOutcome | None:
    """Solve with the spans fixed to the relaxation's sites (a job split within a linked
    group keeps all of them), or, if that has no plan, with the choice among them left
    binary; polish a plan branch and bound found. None when neither has a plan. The spans
    are free again either way."""
    for tight in (True, False):
        fixed, split = fix_to_relaxed_groups(session, model, tight)
        free = 0 if tight else split
        relaxation.fixed_spans, relaxation.free_spans = len(fixed), free
        fixed_ids = {id(var) for var in fixed}
        others = any(id(var) not in fixed_ids for var in session.integer_variables())
        integers_left = free > 0 or others
        plan = run(relaxation=not integers_left)
        if plan.has_solution and integers_left:
            polish(session, model, run)
        session.restore_column_bounds(fixed)
        if plan.has_solution:
            return plan
        if not split:
            break  # no job was split within a group: the loose fix is the same problem
    relaxation.fell_back = True
    return None


def fix_to_relaxed_groups(session: HighsSession, model, tight: bool) -> tuple[list, int]:
    """Fix the spans to the relaxation's sites, group by group (see the module's doc);
    the relaxation's values are in the model. ``tight``: a job the relaxation split
    within a linked group keeps all of those sites (spans 1) instead of choosing among
    them (spans binary). Returns the fixed span variables and how many spans belong to
    such splits (left binary unless ``tight``)."""
    sets = model.sets
    chips = _chips_at(model)
    sites_at: dict[tuple[int, int], list[int]] = defaultdict(list)
    for j, s, t in sets.span:
        sites_at[j, t].append(s)
    zeros, ones, split = [], [], 0
    for (j, t), sites in sites_at.items():
        floor = 1e-6 * max(1.0, sum(chips[j, s, t] for s in sites))
        groups = sets.site_groups.get(j, [tuple(sites)])
        best = max(groups, key=lambda g: sum(chips[j, s, t] for s in g))
        used = [s for s in best if chips[j, s, t] > floor]
        zeros.extend(model.span[j, s, t] for s in sites if s not in used)
        if len(used) > 1:
            split += len(used)
        if len(used) == 1 or tight:
            ones.extend(model.span[j, s, t] for s in used)
    session.set_column_bounds(zeros, 0.0, 0.0)
    session.set_column_bounds(ones, 1.0, 1.0)
    return zeros + ones, split


def polish(session: HighsSession, model, run: Callable[..., SolveOutcome]) -> None:
    """Solve the LP left when every span is fixed to where the plan has chips (1) or not
    (0) and every other integer at its value: the same placement and builds, without what
    branch and bound's gap let stand (a span left at 1 where the job has no chips, and the
    fibre it lit). The plan is feasible for this LP, so its objective can only fall; the
    model keeps the MIP's values if the LP finds no solution."""
    chips = _chips_at(model)
    spans = [model.span[index] for index in model.sets.span]
    used = [1.0 if chips[index] > 0 else 0.0 for index in model.sets.span]
    span_ids = {id(var) for var in spans}
    others = [var for var in session.integer_variables() if id(var) not in span_ids]
    values = [float(round(var.value or 0.0)) for var in others]
    session.set_column_bounds(spans, used, used)
    session.set_column_bounds(others, values, values)
    run(relaxation=True)
    session.restore_column_bounds(spans + others)


def _chips_at(model) -> dict[tuple[int, int, int], float]:
    """(job, site, step) chips of the plan the model holds, summed over systems."""
    chips: dict[tuple[int, int, int], float] = defaultdict(float)
    for (j, s, _, t), var in zip(model.sets.train, model.train.values(), strict=True):
        chips[j, s, t] += var.value or 0.0
    return chips


def _gap(objective: float, bound: float) -> float:
    """Relative gap of a plan's objective above a lower bound (HiGHS's definition)."""
    return max(objective - bound, 0.0) / max(abs(objective), 1e-12)


def _combined(runs: list[SolveOutcome], plan: SolveOutcome, is_mip: bool) -> SolveOutcome:
    """The plan's outcome (status, MIP gap) with the objective of a polish run after it,
    if it found one, and the hand-over and solve time of every run."""
    position = next(i for i, r in enumerate(runs) if r is plan)
    later = runs[position + 1 :]
    if later and later[-1].has_solution:
        plan.objective = later[-1].objective
    plan.handover_seconds = float(np.sum([r.handover_seconds for r in runs]))
    plan.solve_seconds = float(np.sum([r.solve_seconds for r in runs]))
    plan.is_mip = is_mip
    return plan
