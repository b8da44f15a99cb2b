"""How to make plans executable: each method on every example and variant, against the LP.

    python bench/executable_methods.py                    # every example, every variant
    python bench/executable_methods.py --cases plan-100k-gpu:base quickstart:tight_sla
    python bench/executable_methods.py --methods relaxed relax_fix --json out.json
    python bench/executable_methods.py --from out.json --markdown   # tables of saved runs

A synchronous job's site use (docs/model.md (6)) is decided by one of:

* ``relaxed``: the LP relaxation alone (``solver.participation: relaxed``), the reference;
* ``exact_cold``: binary site use, branch and bound from nothing (after the relaxation,
  solved first for its bound, as every method here does);
* ``relax_fix``: the relaxation, then each job kept at the linked group where it put most
  of its chips and the model solved again (``solver.participation: relax_fix``);
* ``exact``: ``relax_fix``'s plan as the start of the full branch and bound, to the
  scenario's MIP gap (``solver.participation: exact``).

Each (case, method) runs in a fresh process, one after the other, on one thread. It
reports the objective, the relaxation's objective, HiGHS's hand-over and solve time (all
runs of the method) and the relaxation's share of it, the MIP gap, and what the checker
of geomodel/results/executable.py finds in the plan, and whether bench/executable_check.py,
reading only the saved file, finds the same. Ratios to the relaxation are
measured in the same process (its own first run), so load moves both alike. Results are
appended to ``--json`` as each finishes; ``--from`` prints the tables of saved ones.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import executable_check  # noqa: E402
from fresh_process import run_fresh  # noqa: E402

SCENARIOS = HERE.parent / "scenarios"
METHODS = ("relaxed", "exact_cold", "relax_fix", "exact")


def all_cases() -> list[str]:
    """``example:variant`` of every example scenario and variant (``base``: none)."""
    from ruamel.yaml import YAML

    cases = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        variants = YAML(typ="safe").load(path.read_text()).get("variants") or {}
        cases.extend(f"{path.stem}:{v}" for v in ["base", *variants])
    return cases


def _cold(inputs) -> tuple[Any, Any, Any]:
    """Binary site use solved by branch and bound from nothing, after the relaxation."""
    from geomodel.api import _build, solver_settings
    from geomodel.solver.highs import HighsSession
    from geomodel.solver.participation import solve_participation

    model, _, _ = _build(inputs, None, None, "weighted")
    session = HighsSession(model, solver_settings(inputs))
    outcome, relaxation = solve_participation(session, model, "exact", warm=False)
    return model, outcome, relaxation


def child(case: str, method: str, overrides: list[str]) -> dict[str, Any]:
    """Solve one case by one method in this process."""
    from geomodel.api import _result, solve_inputs
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.results.executable import check_executable
    from geomodel.scenario import load_scenario

    name, variant = case.split(":")
    catalog = build_catalog()
    participation = "exact" if method == "exact_cold" else method
    scenario = load_scenario(
        SCENARIOS / f"{name}.yaml",
        variants=[] if variant == "base" else [variant],
        overrides=[*overrides, f"solver.participation={participation}"],
        catalog=catalog,
    )
    inputs = build_inputs(scenario, catalog)
    started = time.perf_counter()
    if method == "exact_cold":
        model, outcome, relaxation = _cold(inputs)
        result = _result(model, inputs, outcome, 0.0, [], [], None, relaxation)
    else:
        result = solve_inputs(inputs, host=catalog.host)
    seconds = time.perf_counter() - started
    kpis = result.kpis
    found = check_executable(result.dataset, inputs) if result.has_solution else []
    agree = None
    if result.has_solution:
        with tempfile.TemporaryDirectory() as folder:  # the independent script reads the file
            agree = executable_check.agrees(result.to_netcdf(Path(folder) / "plan.nc"), found)
    spans = int(inputs["job_needs_span"].values.sum()) if "job_needs_span" in inputs else 0
    return {
        "case": case,
        "method": method,
        "status": result.status,
        "objective": kpis.get("objective"),
        "relaxation_objective": kpis.get("relaxation_objective"),
        "relaxation_gap": kpis.get("relaxation_gap"),
        "mip_gap": kpis.get("mip_gap"),
        "solve_seconds": kpis.get("solve_seconds"),
        "relaxation_seconds": kpis.get("relaxation_seconds"),
        "wall_seconds": seconds,
        "jobs_with_site_use": spans,
        "findings": len(found),
        "checkers_agree": agree,
        "rules": sorted({f.rule for f in found}),
        "messages": [m for m in result.messages if "relax-and-fix" in m or "stopped" in m],
    }


def _ratio(row: dict[str, Any]) -> str:
    solve, relax = row.get("solve_seconds"), row.get("relaxation_seconds")
    if not solve or not relax:
        return ""
    return f"{solve / relax:.2f}"


def _gap(row: dict[str, Any]) -> str:
    """The gap in percent, to two significant figures (0 when the plan is the relaxation)."""
    gap = row.get("relaxation_gap")
    if gap is None:
        return ""
    return "0 %" if gap < 1e-12 else f"{gap * 100:.2g} %"


def _cell(row: dict[str, Any] | None) -> str:
    """A method's gap to the relaxation, its time over the relaxation's, what it breaks."""
    if row is None:
        return ""
    status = "" if row["status"] == "optimal" else f" ({row['status']})"
    broken = f", {row['findings']} broken" if row["findings"] else ""
    disagree = "" if row.get("checkers_agree", True) else " (checkers disagree)"
    return f"{_gap(row)}{status}, x{_ratio(row)}{broken}{disagree}"


def markdown(rows: list[dict[str, Any]]) -> str:
    """One line per case: the relaxation's objective and seconds, then for each method its
    objective gap to the relaxation, its time / the relaxation's time and the rules the
    checker finds broken (none unless said)."""
    by_case: dict[str, dict[str, dict]] = {}
    for row in rows:
        by_case.setdefault(row["case"], {})[row["method"]] = row
    methods = [m for m in METHODS if any(m in r for r in by_case.values())]
    head = ["case", "relaxation objective (USD)", "relaxation s", *methods]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case, runs in by_case.items():
        first = next(iter(runs.values()))
        bound = first.get("relaxation_objective")
        seconds = first["relaxation_seconds"]
        cells = [case, f"{bound:,.0f}" if bound is not None else "", f"{seconds:.1f}"]
        cells += [_cell(runs.get(method)) for method in methods]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        print(json.dumps(child(argv[1], argv[2], argv[3:])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="*", help="example:variant (default: all)")
    parser.add_argument("--methods", nargs="*", default=list(METHODS), choices=METHODS)
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    parser.add_argument("--json", type=Path, help="append each result to this JSON-lines file")
    parser.add_argument("--from", dest="saved", type=Path, help="print the tables of saved runs")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    if args.saved:
        rows = [json.loads(line) for line in args.saved.read_text().splitlines() if line.strip()]
    else:
        rows = []
        for case in args.cases or all_cases():
            for method in args.methods:
                row = run_fresh(__file__, case, method, *args.overrides)
                rows.append(row)
                print(json.dumps(row), flush=True)
                if args.json:
                    with args.json.open("a") as out:
                        out.write(json.dumps(row) + "\n")
    if args.markdown or args.saved:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
