"""What a solution is, in words: proven optimal or stopped short, and, for a plan, whole
or relaxed (no streamlit: the pages and the tests read these).

A run is shown as solved (green) only when HiGHS proved it optimal with no gap left;
a solve stopped by its time limit, or a MIP stopped within its gap, is the best plan
found, shown amber with the gap. A plan says whether its whole-unit decisions (racks or
systems, opening a site, fibre pairs) were asked for whole (``solver.integer``) and
whether they came out whole: a build of 285.41 racks or a site "opened 0.015" is a
relaxation's answer, not a plan one can carry out, and is named as such. Both read the
build values and the scenario's integer options themselves, not a status flag.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Literal

import xarray as xr

from geomodel.results.planning import build_decisions
from geomodel.ui.format import format_number, human

#: a MIP gap at or below this is no gap (HiGHS reports round-off on proven optima)
GAP_TOLERANCE = 1e-6
#: a whole-unit decision this close to a whole number is whole (solver round-off)
WHOLE_TOLERANCE = 1e-6
#: ``solver.integer`` option -> the build table's units it makes whole, and its words
WHOLE_UNITS: dict[str, tuple[str, str]] = {
    "whole_systems": ("systems", "whole racks (systems)"),
    "site_opening": ("1", "whole sites (open or not)"),
    "whole_fibre_pairs": ("pairs", "whole fibre pairs"),
}
Level = Literal["success", "warning", "error"]


@dataclass(frozen=True)
class SolveQuality:
    """How far a solve got: its status, MIP gap (0 for an LP) and wall time."""

    status: str
    gap: float | None = None
    seconds: float | None = None

    @classmethod
    def of_record(cls, record: dict[str, Any]) -> SolveQuality:
        """From a run record (``ui.runs``): its status, KPIs and wall time."""
        kpis = record.get("kpis", {})
        gap = kpis.get("mip_gap")
        seconds = record.get("wall_seconds")
        return cls(
            str(record.get("status", kpis.get("solver_status", "?"))),
            float(gap) if isinstance(gap, int | float) and not math.isnan(gap) else None,
            float(seconds) if isinstance(seconds, int | float) else None,
        )

    @property
    def solved(self) -> bool:
        """A solution to show (optimal, or the best one found before a limit)."""
        return self.status in ("optimal", "time_limit")

    @property
    def proven(self) -> bool:
        """Optimal with no gap left: the only outcome drawn green."""
        return self.status == "optimal" and (self.gap or 0.0) <= GAP_TOLERANCE

    @property
    def level(self) -> Level:
        return "success" if self.proven else "warning" if self.solved else "error"

    def text(self) -> str:
        """One sentence: "Solved: optimal in 3.1 s.", "Stopped at the time limit ..."."""
        timing = f" in {self.seconds:.1f} s" if self.seconds is not None else ""
        gap = f"{self.gap * 100:.2f} %" if self.gap is not None else "unknown"
        if self.proven:
            return f"Solved: optimal{timing}."
        if self.status == "optimal":
            return (
                f"Solved within the MIP gap{timing}: the best plan found, proven within {gap} "
                "of the optimum (solver.mip_gap), not proven optimal."
            )
        if self.status == "time_limit":
            return (
                f"Stopped at the time limit{timing}: the best plan found, gap {gap} "
                "to the best bound; not proven optimal."
            )
        return f"No solution ({self.status})."


@dataclass(frozen=True)
class Fractional:
    """A whole-unit build decision that came out fractional."""

    what: str
    where: str
    amount: float
    units: str

    def text(self) -> str:
        amount = format_number(self.amount)
        if self.units == "1":
            return f"{human(self.where)} opened {amount}"
        if self.units == "pairs":
            return f"{amount} fibre pairs on {human(self.where)}"
        return f"{amount} {human(self.what)} {self.units} at {human(self.where)}"


@dataclass(frozen=True)
class PlanKind:
    """Which whole-unit decisions were asked for whole, and which came out fractional."""

    integer: dict[str, bool]
    fractional: list[Fractional] = field(default_factory=list)

    def _fractional_text(self) -> str:
        """The fractional decisions by kind: sites opened in part first (the most striking),
        then systems and fibre pairs, a few of each named."""
        parts = []
        kinds = {"1": ("site", "opened in part"), "systems": ("site", "with systems built in part"),
                 "pairs": ("route", "with fibre pairs lit in part")}  # fmt: skip
        for units, (thing, what) in kinds.items():
            found = [f for f in self.fractional if f.units == units]
            if found:
                named = ", ".join(f.text() for f in found[:3])
                more = f" and {len(found) - 3} more" if len(found) > 3 else ""
                parts.append(f"{len(found)} {thing}{'s' * (len(found) != 1)} {what} ({named}{more})")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for a run record (JSON)."""
        return {"integer": dict(self.integer), "fractional": [vars(f) for f in self.fractional]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlanKind:
        return cls(dict(data.get("integer", {})), [Fractional(**f) for f in data.get("fractional", [])])

    @property
    def relaxed(self) -> list[str]:
        """The ``solver.integer`` options of whole units left off (an LP relaxation)."""
        return [name for name in WHOLE_UNITS if not self.integer.get(name, False)]

    @property
    def whole(self) -> bool:
        return not self.fractional

    def headline(self) -> str:
        """ "An integer plan: ...", "A relaxed plan (LP): ...", or the fractional warning."""
        asked = [WHOLE_UNITS[n][1] for n in WHOLE_UNITS if self.integer.get(n)]
        relaxed = [WHOLE_UNITS[n][1] for n in self.relaxed]
        if self.fractional:
            return (
                f"A fractional plan: {self._fractional_text()}. These are the answer of a relaxation"
                + (f" ({', '.join(relaxed)} not asked for)" if relaxed else "")
                + ", not a plan one can build as it stands. Turn on whole units in the Solver "
                "knobs (a MIP: slower) to solve for a buildable plan."
            )
        if not relaxed:
            return "An integer plan: " + ", ".join(asked) + "."
        kind = "A relaxed plan (LP)" if not asked else "A partly integer plan"
        return (
            f"{kind}: {', '.join(relaxed)} not asked for"
            + (f" ({', '.join(asked)} asked for)" if asked else "")
            + "; every such decision came out whole here."
        )


def integer_options(inputs: xr.Dataset) -> dict[str, bool]:
    """The scenario's ``solver.integer`` options, as the inputs Dataset recorded them."""
    options = json.loads(inputs.attrs.get("solver_options", "{}") or "{}")
    return {str(k): bool(v) for k, v in options.get("integer", {}).items()}


def plan_kind(results: xr.Dataset, inputs: xr.Dataset) -> PlanKind:
    """The plan's whole-unit decisions and the integer options they were solved under."""
    whole_units = {units for units, _ in WHOLE_UNITS.values()}
    fractional = [
        Fractional(row.what, row.where, row.amount, row.units)
        for row in build_decisions(results, inputs)
        if row.units in whole_units and abs(row.amount - round(row.amount)) > WHOLE_TOLERANCE
    ]
    return PlanKind(integer_options(inputs), fractional)
