"""Whether a plan can be carried out, for ``geomodel run`` and ``geomodel report``: the
gap to the LP relaxation and what the checker of :mod:`geomodel.results.executable` finds."""

from __future__ import annotations

import math
from typing import Any

from rich.markup import escape

from geomodel.cli.output import console

#: findings printed (each with how many more steps it recurs in); the rest are counted
SHOWN_FINDINGS = 20


def executable_payload(result: Any) -> dict[str, Any]:
    """The --json section: how site use was solved, the gap, and every finding."""
    from geomodel.results.executable import check_executable

    findings = check_executable(result.dataset, result.inputs) if result.has_solution else []
    participation = str(result.kpis.get("participation", ""))
    return {
        "participation": participation,
        "relaxed": participation == "relaxed",
        "executable": result.has_solution and not findings,
        "relaxation_objective_usd": _number(result.kpis.get("relaxation_objective")),
        "relaxation_gap": _number(result.kpis.get("relaxation_gap")),
        "findings": [finding.as_dict() for finding in findings],
    }


def print_executable(result: Any) -> None:
    """One line on how the plan relates to its relaxation, then each rule it breaks."""
    if not result.has_solution:
        return
    payload = executable_payload(result)
    out = console()
    gap, bound = payload["relaxation_gap"], payload["relaxation_objective_usd"]
    versus = (
        f"{gap:.3%} above the LP relaxation ({bound:,.0f} USD)"
        if gap is not None and bound is not None
        else "gap to the LP relaxation not known"
    )
    findings = payload["findings"]
    how = payload["participation"] or "participation not recorded"
    if payload["relaxed"]:
        out.print(
            f"[yellow]Relaxed plan (solver.participation: relaxed): not executable as reported; "
            f"the checker finds {len(findings)} problem(s).[/yellow]",
            soft_wrap=True,
        )
    elif findings:
        out.print(
            f"[red]Plan ({how}, {versus}): the checker finds {len(findings)} problem(s).[/red]",
            soft_wrap=True,
        )
    else:
        out.print(
            f"Executable plan ({how}, "
            f"{versus}): every synchronous job on linked sites within capacity and budget, "
            "nothing built beyond a site's opening.",
            soft_wrap=True,
        )
    groups: dict[tuple, list[dict]] = {}  # the same rule, job and sites at several steps
    for finding in findings:
        groups.setdefault((finding["rule"], finding["job"], *finding["sites"]), []).append(finding)
    for same in list(groups.values())[:SHOWN_FINDINGS]:
        more = f" (and in {len(same) - 1} more steps)" if len(same) > 1 else ""
        out.print(f"  {escape(same[0]['text'])}{more}", soft_wrap=True)
    if len(groups) > SHOWN_FINDINGS:
        out.print(f"  ... and {len(groups) - SHOWN_FINDINGS} more (--json lists them all)")


def _number(value: Any) -> float | None:
    if value is None or value == "":
        return None
    value = float(value)
    return None if math.isnan(value) else value
