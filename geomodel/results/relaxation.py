"""How far the reported plan is from the LP relaxation (docs/model.md (6), "Executable plans").

The relaxation makes every integer decision continuous (a synchronous job's site use,
and the scenario's integer options): its objective is a lower bound on every plan, and
the gap says what making the plan executable costs above it.
"""

from __future__ import annotations

import math
from typing import Any

RELAXATION_KPI_SPECS: dict[str, tuple[str, str]] = {
    "participation": (
        "",
        "how synchronous jobs' site use was solved: exact, relax_fix, or relaxed (the LP "
        "relaxation: the plan may split a job over unlinked sites and is not executable)",
    ),
    "relaxation_objective": (
        "USD",
        "objective of the LP relaxation (every integer decision continuous, site use included), "
        "a lower bound on any plan",
    ),
    "relaxation_gap": (
        "1",
        "(objective - relaxation_objective) / objective: what the integer decisions, an "
        "executable site use among them, cost above the relaxation",
    ),
    "relaxation_seconds": ("s", "hand-over and solve time of the relaxation"),
}


def relaxation_kpis(
    objective_usd: float, bound_usd: float | None, seconds: float, participation: str
) -> dict[str, Any]:
    """The relaxation KPIs of a solved plan; ``bound_usd`` is the relaxation's objective
    (None when no relaxation was solved, e.g. a Pareto end's second stage: NaN)."""
    known = bound_usd is not None
    gap = max(objective_usd - bound_usd, 0.0) / max(abs(objective_usd), 1e-9) if known else math.nan
    return {
        "participation": participation,
        "relaxation_objective": bound_usd if known else math.nan,
        "relaxation_gap": gap,
        "relaxation_seconds": seconds if known else math.nan,
    }
