"""The flagship plan against the floor HiGHS sets, and its memory per column against
the operational model's.

Run by hand (not part of the test suite; about ten minutes with the defaults):

    python bench/plan_solve_path.py                          # 12x4 and 24x6, median of 3
    python bench/plan_solve_path.py --aggregations 12x4 --repeats 5
    python bench/plan_solve_path.py --mip                    # also the integer variant, once
    python bench/plan_solve_path.py --profile 24x6           # cProfile of build + hand-over
    python bench/plan_solve_path.py --json plan.json
    python bench/plan_solve_path.py --reference /tmp/before  # beside older code, alternating

``scenarios/plan-100k-gpu.yaml`` (a year of typical days, planning mode) at each
``--aggregations`` ``DxS`` (D typical days of S segments) is measured exactly as
``bench/solve_path.py`` measures its synthetic operational scenarios, with that
script's own child processes: geomodel phase by phase (load, inputs, build,
hand-over, solve, read-back; **total** = build + hand-over + solve + read-back,
issue 7's definition, and **end-to-end** adds load and inputs) and its peak RSS;
the **floor**, the very LP geomodel handed to HiGHS (caught at ``Highs.run``,
saved as arrays with every HiGHS option geomodel set) passed to highspy in a fresh
process and solved with the same options. Objectives must agree to 1e-6. On a
shared machine the two solves of that same LP differ by load alone, so beside the
ratio of medians the report gives **with the floor's solve**: each geomodel run's
total with its solve replaced by its paired floor run's solve, over that floor
run's total (the median of the pairs): what geomodel adds, without the noise.

Beside each, in the same run, two operational scenarios of ``bench/scenarios.py``
with about as many columns (``synthetic_scenario``, 8 sites and 10 workloads, or
``--operational SITES WORKLOADS``) are measured the same way: **hourly**, as many
hourly steps as the plan has steps (bench/solve_path.py's kind), and **year**, the
year of 8,760 hours on the plan's typical days and segments (bench/year.py's kind,
which pays the same tsam clustering and year-long inputs). So peak memory per column
of the plan and of today's operational model are compared side by side: peak RSS /
columns, and (peak - RSS after imports) / columns, which leaves out the fixed ~240 MB
of imports.

``--mip`` adds the ``integer`` variant (whole racks, binary site opening, whole
fibre pairs) at the first aggregation: geomodel once (its MIP gap and seconds)
and its floor once. Every HiGHS run uses the scenario's threads (2) and the
method geomodel chooses; the machine's load is printed with the results.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402
from solve_path import iterations_text, load_average, median_run, profile_build  # noqa: E402

from scenarios import synthetic_scenario  # noqa: E402

SCENARIO = HERE.parent / "scenarios" / "plan-100k-gpu.yaml"
SOLVE_PATH = HERE / "solve_path.py"
GOAL_TOTAL_OVER_FLOOR = 1.2
OBJECTIVE_TOLERANCE = 1e-6
#: operational scenarios beside the plan: sites and workloads of bench/scenarios.py (about
#: 470 columns a step, the plan's about 500)
OPERATIONAL = (8, 10)
HOURS_PER_DAY = 24


def plan_data(aggregation: str, variant: str | None = None) -> dict[str, Any]:
    """The flagship as one document: a variant merged in, the aggregation set, no variants."""
    from ruamel.yaml import YAML

    from geomodel.scenario.merge import deep_merge

    data = YAML(typ="safe").load(SCENARIO.read_text(encoding="utf-8"))
    variants = data.pop("variants", {})
    if variant:
        data = deep_merge(data, variants[variant])
    days, _, segments = aggregation.partition("x")
    data["time"]["aggregation"] = {
        "typical_days": int(days),
        "segments": int(segments) if segments and int(segments) != HOURS_PER_DAY else None,
    }
    return json.loads(json.dumps(data, default=str))  # timestamps as ISO text


def _write(folder: Path, name: str, data: dict[str, Any]) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")  # JSON is YAML
    return path


def _solve_path(*args: str, tree: Path | None = None) -> dict[str, Any]:
    """One of bench/solve_path.py's children (geomodel or floor) in a fresh process;
    ``tree``: geomodel imported from that source tree."""
    return run_fresh(SOLVE_PATH, *args, single_threaded=False, tree=tree)


def measure(
    label: str, path: Path, folder: Path, repeats: int, log, reference: Path | None = None
) -> dict[str, Any]:
    """geomodel and its floor on one scenario file (and the ``reference`` tree's geomodel
    and floor): median of ``repeats`` fresh processes each, alternating within a repeat."""
    lp = folder / f"{label}.npz"
    _solve_path("geomodel", str(path), str(lp), "{}")
    kinds: list[tuple[str, tuple[str, ...], Path | None]] = [
        ("geomodel", (str(path), "", "{}"), None),
        ("floor", (str(lp),), None),
    ]
    if reference is not None:
        reference_lp = folder / f"{label} reference.npz"
        _solve_path("geomodel", str(path), str(reference_lp), "{}", tree=reference)
        kinds += [
            ("reference", (str(path), "", "{}"), reference),
            ("reference_floor", (str(reference_lp),), None),
        ]
    runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind, _, _ in kinds}
    for repeat in range(repeats):  # alternate, so load changes hit all alike
        for kind, args, tree in kinds:
            child = "floor" if kind.endswith("floor") else "geomodel"
            run = _solve_path(child, *args, tree=tree)
            runs[kind].append(run)
            log(
                f"  {label} {kind} {repeat + 1}/{repeats}: total {run['total']:.2f} s "
                f"(solve {run['solve']:.2f}, {run['solve_cpu']:.2f} CPU), "
                f"peak {run['peak_mb']:.0f} MB"
            )
    g, f = median_run(runs["geomodel"]), median_run(runs["floor"])
    error = abs(g["objective_highs"] - f["objective_highs"]) / max(1e-12, abs(f["objective_highs"]))
    result = {
        "label": label,
        "geomodel": g,
        "floor": f,
        "runs": runs,
        "columns": g["columns"],
        "rows": g["rows"],
        "nonzeros": g["nonzeros"],
        "total_over_floor": g["total"] / f["total"],
        "total_over_floor_same_solve": same_solve(runs),
        "objective_relative_error": error,
        "memory_over_floor": g["peak_mb"] / f["peak_mb"],
        "kb_per_column": g["peak_mb"] * 1024 / g["columns"],
        "kb_per_column_above_imports": (g["peak_mb"] - g["baseline_mb"]) * 1024 / g["columns"],
    }
    if reference is not None:
        r = median_run(runs["reference"])
        result["reference"] = r
        result["reference_floor"] = median_run(runs["reference_floor"])
        result["reference_objective_relative_error"] = abs(
            r["objective_highs"] - g["objective_highs"]
        ) / max(1e-12, abs(r["objective_highs"]))
        result["reference_kb_per_column"] = r["peak_mb"] * 1024 / r["columns"]
        for phase in ("total", "end_to_end", "solve_cpu", "peak_mb"):
            result[f"{phase}_over_reference"] = g[phase] / r[phase]
    return result


def same_solve(runs: dict[str, list[dict[str, Any]]]) -> float:
    """Median over repeats of (geomodel's total - its solve + the floor's solve) / the floor's
    total: both solve the very same LP with the same options (the same iterations), so
    on a loaded machine the difference of the two solve times is load, not geomodel;
    this ratio keeps what geomodel adds (build, hand-over, read-back) and drops that noise."""
    return statistics.median(
        (g["total"] - g["solve"] + f["solve"]) / f["total"]
        for g, f in zip(runs["geomodel"], runs["floor"], strict=True)
    )


def profile(aggregation: str, folder: Path, top: int) -> None:
    """cProfile of build and hand-over of the plan (stopped at ``Highs.run``)."""
    path = _write(folder, f"plan_{aggregation}", plan_data(aggregation))
    profile_build(path, f"the plan at {aggregation}", top)


PHASES = ("load", "inputs", "build", "handover", "solve", "readback", "total", "end_to_end")


def print_report(results: list[dict[str, Any]], mip: dict[str, Any] | None) -> None:
    print()
    print(f"machine: {os.cpu_count()} cores; load average before/after: {LOAD[0]} / {load_average()}")
    print("seconds, median of each measurement's fresh processes; peak RSS MB (RSS after imports)")
    head = ["run", "columns", "rows", *PHASES, "peak MB", "KB/column", "KB/column above imports"]
    head += ["solve CPU", "iterations (simplex/IPM/crossover)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in results:
        for kind in ("geomodel", "floor", "reference", "reference_floor"):
            if kind not in r:
                continue
            run = r[kind]
            model = kind in ("geomodel", "reference")
            cells = [f"{r['label']} {kind.replace('_', ' ')}", "", ""]
            if model:
                cells[1:] = [f"{run['columns']:,}", f"{run['rows']:,}"]
            cells += [f"{run[p]:.2f}" if isinstance(run.get(p), int | float) else "" for p in PHASES]
            cells.append(f"{run['peak_mb']:.0f} ({run['baseline_mb']:.0f})")
            if model:
                per_column = run["peak_mb"] * 1024 / run["columns"]
                above = (run["peak_mb"] - run["baseline_mb"]) * 1024 / run["columns"]
                cells += [f"{per_column:.1f}", f"{above:.1f}"]
            else:
                cells += ["", ""]
            cells += [f"{run['solve_cpu']:.2f}", iterations_text(run)]
            print("| " + " | ".join(cells) + " |")
    print()
    for r in results:
        verdict = "met" if r["total_over_floor"] <= GOAL_TOTAL_OVER_FLOOR else "MISSED"
        same = "met" if r["total_over_floor_same_solve"] <= GOAL_TOTAL_OVER_FLOOR else "MISSED"
        print(
            f"{r['label']}: total/floor {r['total_over_floor']:.3f} (goal <= {GOAL_TOTAL_OVER_FLOOR}: "
            f"{verdict}); with the floor's solve {r['total_over_floor_same_solve']:.3f} ({same}); "
            f"memory/floor {r['memory_over_floor']:.2f}; objectives agree to "
            f"{r['objective_relative_error']:.1e}; "
            f"method {r['geomodel']['options'].get('solver', 'simplex')}"
        )
        if "reference" in r:
            print(
                f"      against the reference tree: total {r['total_over_reference']:.2f}x, "
                f"end-to-end {r['end_to_end_over_reference']:.2f}x, solve CPU "
                f"{r['solve_cpu_over_reference']:.2f}x, peak {r['peak_mb_over_reference']:.2f}x, "
                f"KB/column {r['kb_per_column']:.1f} vs {r['reference_kb_per_column']:.1f}; "
                f"objectives agree to {r['reference_objective_relative_error']:.1e}"
            )
    plans = {r["label"]: r for r in results if r["label"].startswith("plan")}
    for label, r in plans.items():
        twins = [label.replace("plan", f"operational {kind}") for kind in ("hourly", "year")]
        for operational in (o for o in results if o["label"] in twins):
            print(
                f"{label} vs {operational['label']}: KB/column {r['kb_per_column']:.1f} vs "
                f"{operational['kb_per_column']:.1f} "
                f"({r['kb_per_column'] / operational['kb_per_column']:.2f}x); "
                f"above imports {r['kb_per_column_above_imports']:.1f} vs "
                f"{operational['kb_per_column_above_imports']:.1f} "
                f"({r['kb_per_column_above_imports'] / operational['kb_per_column_above_imports']:.2f}x)"
            )
    if mip:
        g, f = mip["geomodel"], mip["floor"]
        print(
            f"integer variant ({mip['label']}): geomodel {g['kpis'].get('solver_status')} in "
            f"{g['solve']:.1f} s solve, total {g['total']:.1f} s, "
            f"MIP gap {g['kpis'].get('mip_gap'):.2e}; "
            f"floor {f['status']} in {f['total']:.1f} s; objectives {g['objective_highs']:.6e} vs "
            f"{f['objective_highs']:.6e}"
        )


LOAD = [load_average()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aggregations", nargs="+", default=["12x4", "24x6"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--operational",
        type=int,
        nargs=2,
        metavar=("SITES", "WORKLOADS"),
        help="the operational scenarios to compare with (default: 8 sites, 10 workloads)",
    )
    parser.add_argument("--mip", action="store_true", help="also the integer variant, once")
    parser.add_argument("--profile", metavar="DxS", help="only profile build + hand-over")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--reference",
        type=Path,
        metavar="TREE",
        help="also measure geomodel from this source tree (e.g. the code before a change)",
    )
    options = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, flush=True)

    results: list[dict[str, Any]] = []
    mip = None
    with tempfile.TemporaryDirectory(prefix="geomodel-plan-") as tmp:
        folder = Path(tmp)
        if options.profile:
            profile(options.profile, folder, options.top)
            return 0
        for aggregation in options.aggregations:
            log(f"plan {aggregation} ...")
            path = _write(folder, f"plan_{aggregation}", plan_data(aggregation))
            results.append(
                measure(f"plan {aggregation}", path, folder, options.repeats, log, options.reference)
            )
            sites, workloads = options.operational or OPERATIONAL
            days, segments = (int(x) for x in aggregation.split("x"))
            for kind, synthetic in (
                ("hourly", synthetic_scenario(sites, workloads, days * segments)),
                ("year", synthetic_scenario(sites, workloads, 8760, days, segments=segments)),
            ):
                label = f"operational {kind} {aggregation}"
                log(f"{label} ({sites} sites, {workloads} workloads) ...")
                synthetic["solver"] = {**synthetic.get("solver", {}), "threads": 2}
                path = _write(folder, label.replace(" ", "_"), synthetic)
                results.append(measure(label, path, folder, options.repeats, log, options.reference))
            if options.json:
                options.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
        if options.mip:
            aggregation = options.aggregations[0]
            log(f"integer variant {aggregation} ...")
            path = _write(folder, "plan_integer", plan_data(aggregation, "integer"))
            mip = measure(f"plan {aggregation} integer", path, folder, 1, log)
            if options.json:
                payload = {"results": results, "mip": mip}
                options.json.write_text(json.dumps(payload, indent=1, default=str), encoding="utf-8")
    print_report(results, mip)
    agree = all(
        max(r["objective_relative_error"], r.get("reference_objective_relative_error", 0.0))
        <= OBJECTIVE_TOLERANCE
        for r in results
    )
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
