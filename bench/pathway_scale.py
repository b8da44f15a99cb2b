"""A five-period pathway of the flagship against the floor HiGHS sets on the same LP, and
its peak memory per column against today's one-period plan of the same scenario.

    python bench/pathway_scale.py                     # 5 periods x 12 typical days x 4 segments
    python bench/pathway_scale.py --days 4 --json out.json

``scenarios/pathway-2030.yaml`` with five yearly periods (2026-2030, demand growing
between the example's factors) at ``--days`` typical days of ``--segments`` segments
each, in fresh processes one after the other: **geomodel** (load, inputs: one Dataset
per period, then the pathway solve: build, hand-over, solve, read-back; **total** is
the solve's, build to read-back, issue 7's definition), the **floor** (the very LP
geomodel handed to HiGHS, caught at ``Highs.run`` with every option geomodel set,
passed to highspy as matrices in a fresh process and solved with the same options;
bench/solve_path.py's own floor child), and **today's plan**, the one-year
``plan-100k-gpu.yaml`` at the same aggregation through ``geomodel.api.solve``, for the
memory per column. Objectives must agree to 1e-6. Prints ratios: total / floor total,
and KB per column (peak RSS, and above the RSS after imports) of the pathway over
today's plan. Seconds are of the machine it ran on, with its load printed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import answer_if_child, run_fresh  # noqa: E402
from solve_path import (  # noqa: E402
    _current_rss_mb,
    _ExportedError,
    _nondefault_options,
    _peak_rss_mb,
    _save_lp,
    child_floor,
    child_geomodel,
)

ROOT = HERE.parent
PATHWAY = ROOT / "scenarios" / "pathway-2030.yaml"
PLAN = ROOT / "scenarios" / "plan-100k-gpu.yaml"
YEARS = [2026, 2027, 2028, 2029, 2030]
#: the example's factors at 2026, 2028 and 2030, with the years between at their
#: geometric means
TRAINING = [0.4, 0.632, 1.0, 1.581, 2.5]
INFERENCE = [0.4, 0.894, 2.0, 4.0, 8.0]
TRAINING_JOBS = (
    "frontier_a",
    "frontier_b",
    "midsize_q2",
    "midsize_q3",
    "midsize_q4",
    "research",
    "rl_posttrain",
)
SERVICES = ("chat", "code", "agents")


def overrides(days: int, segments: int) -> dict[str, Any]:
    """The example at five yearly periods and the given aggregation."""
    growth = {name: TRAINING for name in TRAINING_JOBS} | {name: INFERENCE for name in SERVICES}
    return {
        "time.aggregation.typical_days": days,
        "time.aggregation.segments": segments,
        "periods.years": YEARS,
        "periods.demand_growth": growth,
    }


def child_pathway(days: int, segments: int, export: str) -> dict[str, Any]:
    """One pathway run: phases, size and peak memory; with ``export``, save the LP instead."""
    import highspy

    from geomodel.catalog import build_catalog
    from geomodel.inputs.pathway import build_pathway_inputs
    from geomodel.pathway import solve_pathway_inputs
    from geomodel.scenario import load_scenario

    captured: dict[str, Any] = {}
    original_run = highspy.Highs.run

    def run(self, *args, **kwargs):
        if export:
            _save_lp(self.getLp(), _nondefault_options(self), export)
            raise _ExportedError
        began = time.perf_counter()
        status = original_run(self, *args, **kwargs)
        captured["solve"] = time.perf_counter() - began
        captured["objective_highs"] = self.getInfo().objective_function_value
        captured["rows"], captured["columns"] = self.getNumRow(), self.getNumCol()
        captured["nonzeros"] = self.getNumNz()
        return status

    highspy.Highs.run = run
    baseline = _current_rss_mb()
    t0 = time.perf_counter()
    catalog = build_catalog()
    scenario = load_scenario(PATHWAY, overrides=overrides(int(days), int(segments)), catalog=catalog)
    t1 = time.perf_counter()
    tree = build_pathway_inputs(scenario, catalog)
    t2 = time.perf_counter()
    try:
        result = solve_pathway_inputs(tree, host=catalog.host)
    except _ExportedError:
        return {"exported": export}
    t3 = time.perf_counter()
    assert result.has_solution, result.messages
    return {
        "load": t1 - t0,
        "inputs": t2 - t1,
        "total": t3 - t2,
        "solve": captured["solve"],
        "end_to_end": t3 - t0,
        "peak_mb": _peak_rss_mb(),
        "baseline_mb": baseline,
        "objective": result.kpis["net_present_cost_usd"],
        **{k: v for k, v in captured.items() if k != "solve"},
    }


def _plan_file(days: int, segments: int) -> Path:
    """Today's one-year plan at the same aggregation (a copy beside the example's data)."""
    text = PLAN.read_text(encoding="utf-8")
    text = text.replace("typical_days: 12", f"typical_days: {days}").replace(
        "segments: 4", f"segments: {segments}"
    )
    path = PLAN.with_name(f".pathway-scale-plan-{os.getpid()}.yaml")
    path.write_text(text, encoding="utf-8")
    return path


def measure(days: int, segments: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        lp = str(Path(folder) / "pathway.npz")
        run_fresh(__file__, "pathway", json.dumps([days, segments, lp]))
        pathway = run_fresh(__file__, "pathway", json.dumps([days, segments, ""]))
        floor = run_fresh(__file__, "floor", json.dumps([lp]))
        plan_path = _plan_file(days, segments)
        try:
            plan = run_fresh(__file__, "plan", json.dumps([str(plan_path)]))
        finally:
            plan_path.unlink(missing_ok=True)
    return {"days": days, "segments": segments, "pathway": pathway, "floor": floor, "plan": plan}


def _child(kind: str, rest: list) -> dict[str, Any]:
    if kind == "pathway":
        return child_pathway(*rest)
    if kind == "floor":
        return child_floor(*rest)
    return child_geomodel(rest[0], None, {})


def report(out: dict[str, Any]) -> dict[str, float]:
    pathway, floor, plan = out["pathway"], out["floor"], out["plan"]
    kb = {
        name: (
            side["peak_mb"] * 1024 / side["columns"],
            (side["peak_mb"] - side["baseline_mb"]) * 1024 / side["columns"],
        )
        for name, side in (("pathway", pathway), ("plan", plan))
    }
    return {
        "columns": pathway["columns"],
        "rows": pathway["rows"],
        "plan_columns": plan["columns"],
        "objective_relative_difference": abs(pathway["objective_highs"] - floor["objective_highs"])
        / abs(floor["objective_highs"]),
        "total_over_floor": pathway["total"] / floor["total"],
        "solve_over_floor_solve": pathway["solve"] / floor["solve"],
        "with_floor_solve": (pathway["total"] - pathway["solve"] + floor["solve"]) / floor["total"],
        "kb_per_column": kb["pathway"][0],
        "kb_per_column_plan": kb["plan"][0],
        "kb_per_column_ratio": kb["pathway"][0] / kb["plan"][0],
        "kb_above_imports_ratio": kb["pathway"][1] / kb["plan"][1],
    }


def main(argv: list[str]) -> int:
    if answer_if_child(argv, _child):
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=12)
    parser.add_argument("--segments", type=int, default=4)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    before = os.getloadavg()
    out = measure(args.days, args.segments)
    out["ratios"] = report(out)
    out["load_average"] = [before, os.getloadavg()]
    print(json.dumps(out["ratios"], indent=2))
    p, f = out["pathway"], out["floor"]
    print(
        f"pathway: {p['columns']:,} columns; load {p['load']:.1f} s, inputs {p['inputs']:.1f} s, total "
        f"{p['total']:.1f} s (solve {p['solve']:.1f} s), peak {p['peak_mb']:.0f} MB; floor total "
        f"{f['total']:.1f} s; load average {before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0 if out["ratios"]["objective_relative_difference"] <= 1e-6 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
