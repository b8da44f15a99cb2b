"""Which HiGHS method solves geomodel's own LP fastest (issue 7, item 4).

Run by hand (not part of the test suite; 1e4 and 1e5 take about 10 minutes with
a 120 s limit; 1e6 up to 2-3 hours with the default 600 s limit):

    python bench/solver_methods.py --sizes 1e4 1e5 --time-limit 120
    python bench/solver_methods.py --sizes 1e6 --json methods_1e6.json
    python bench/solver_methods.py --sizes 1e5 --training-load 0.4 --methods dual primal ipm
    python bench/solver_methods.py --sizes 1e5 --repeats 3    # median of 3 processes

For each size (``SIZES`` of ``bench/solve_path.py``) and each ``--training-load``
(``bench/scenarios.py`` ``synthetic_scenario(..., training_load=...)``), the LP
geomodel hands to HiGHS is built once from the current model code in a child
process and saved as a .npz (``solve_path.py``'s capture at ``Highs.run``, with
the HiGHS options geomodel set; each method's options below override geomodel's
method and time limit). Then, one fresh Python process at a time (never in
parallel), the saved LP is passed to highspy as ``solve_path.py``'s floor does
and solved with each method (``METHODS``):

* ``dual``: ``solver=simplex``, ``simplex_strategy=1`` (dual simplex);
* ``primal``: ``solver=simplex``, ``simplex_strategy=4`` (primal simplex);
* ``ipm``: ``solver=ipm``, ``run_crossover=on`` (IPX, then crossover to a vertex);
* ``ipm-nocross``: ``solver=ipm``, ``run_crossover=off`` (IPX only);
* ``pdlp``: ``solver=pdlp`` (first-order, cuPDLP-C on the CPU);
* ``choose``: HiGHS's own defaults (``solver=choose``; dual simplex for an LP).

Every run uses ``threads=1``, ``output_flag=False`` and ``--time-limit`` seconds
(default 600). Measured: wall seconds of ``Highs.run()`` alone (median of
``--repeats`` processes; loading the .npz and ``passModel`` are not timed), the
model status, the objective and the iteration counts of ``getInfo()`` (simplex,
IPM, crossover, PDLP). The objectives of the methods that end at a vertex
(``EXACT_METHODS``) and reach "Optimal" must agree to 1e-6 relative (exit status
1 otherwise); for ``ipm-nocross`` and ``pdlp``, which stop at a looser
tolerance, the relative difference is only reported. ``--json FILE`` writes
every run and summary (rewritten after each size and training load).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402
from solve_path import (  # noqa: E402
    SIZES,
    child_floor,
    median_run,
    patch_highs_options,
)
from solve_path import _child as solve_path_child  # noqa: E402

from scenarios import synthetic_scenario  # noqa: E402

#: method name -> HiGHS options; every method sets all three, so none inherits another's
METHODS: dict[str, dict[str, Any]] = {
    "dual": {"solver": "simplex", "simplex_strategy": 1, "run_crossover": "on"},
    "primal": {"solver": "simplex", "simplex_strategy": 4, "run_crossover": "on"},
    "ipm": {"solver": "ipm", "simplex_strategy": 1, "run_crossover": "on"},
    "ipm-nocross": {"solver": "ipm", "simplex_strategy": 1, "run_crossover": "off"},
    "pdlp": {"solver": "pdlp", "simplex_strategy": 1, "run_crossover": "on"},
    "choose": {"solver": "choose", "simplex_strategy": 1, "run_crossover": "on"},  # HiGHS defaults
}
#: methods whose optimum is a vertex at simplex tolerances: their objectives must agree
EXACT_METHODS = ("dual", "primal", "ipm", "choose")
OBJECTIVE_TOLERANCE = 1e-6
OPTIMAL = "Optimal"
#: a child that outlives its time limit by this much (loading, presolve, crossover) is killed
GRACE_SECONDS = 300.0


# --------------------------------------------------------------------------- child


def child_method(npz_path: str, method: str, time_limit_seconds: float) -> dict[str, Any]:
    """Solve the saved LP with one method (``solve_path.child_floor`` with the method's options)."""
    import highspy

    captured: dict[str, Any] = {}
    original_run = highspy.Highs.run

    def run(self, *args, **kwargs):
        began = time.perf_counter()
        status = original_run(self, *args, **kwargs)
        captured["seconds"] = time.perf_counter() - began
        info = self.getInfo()
        captured["status"] = self.modelStatusToString(self.getModelStatus())
        captured["objective"] = info.objective_function_value
        # 2: feasible; a method stopped early ("Unknown") may still leave a usable point
        captured["primal_solution_status"] = info.primal_solution_status
        captured["max_primal_infeasibility"] = info.max_primal_infeasibility
        captured["max_dual_infeasibility"] = info.max_dual_infeasibility
        for kind in ("simplex", "ipm", "crossover", "pdlp"):
            captured[f"{kind}_iterations"] = getattr(info, f"{kind}_iteration_count")
        captured["method_options"] = {
            name: self.getOptionValue(name)[1]
            for name in ("solver", "simplex_strategy", "run_crossover", "threads", "time_limit")
        }
        return status

    highspy.Highs.run = run
    # set on top of the options geomodel saved with the LP, just before run (wraps the capture)
    patch_highs_options({**METHODS[method], "threads": 1, "time_limit": float(time_limit_seconds)})
    floor = child_floor(npz_path)
    return {
        "method": method,
        **captured,
        "peak_mb": floor["peak_mb"],
        "columns": floor["columns"],
        "rows": floor["rows"],
        "nonzeros": floor["nonzeros"],
        "geomodel_options": floor["options"],  # saved with the LP; the method's options override
    }


# -------------------------------------------------------------------------- parent


def _child(timeout_seconds: float, *args: str) -> dict[str, Any]:
    """Run this file's ``_child`` mode in a fresh process, killed after ``timeout_seconds``."""
    return run_fresh(__file__, *args, timeout_seconds=timeout_seconds)


def _code_version() -> str:
    """``git describe`` of the checkout the LP is built from (``-dirty``: uncommitted changes)."""
    done = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, cwd=HERE
    )
    return done.stdout.strip() or "unknown"


def export_lp(label: str, training_load: float, folder: Path) -> Path:
    """Build geomodel's LP of one size and training load in a child process; save it as .npz."""
    scenario = synthetic_scenario(**SIZES[label], training_load=training_load)
    path = folder / f"synthetic_{label}_{training_load:g}.yaml"
    path.write_text(json.dumps(scenario, indent=1), encoding="utf-8")  # JSON is YAML
    npz = folder / f"geomodel_{label}_{training_load:g}.npz"
    solve_path_child("geomodel", str(path), str(npz), "{}")
    return npz


def run_method(npz: Path, method: str, time_limit_seconds: float) -> dict[str, Any]:
    """One method in a fresh process; a process that hangs past the limit is killed."""
    started = time.perf_counter()
    try:
        return _child(
            2 * time_limit_seconds + GRACE_SECONDS, str(npz), method, repr(float(time_limit_seconds))
        )
    except subprocess.TimeoutExpired:
        return {"method": method, "status": "killed", "seconds": time.perf_counter() - started}


def measure(
    label: str,
    training_load: float,
    methods: list[str],
    repeats: int,
    time_limit_seconds: float,
    folder: Path,
) -> dict[str, Any]:
    """Export the LP once, then time each method ``repeats`` times (methods interleaved)."""
    began = time.perf_counter()
    npz = export_lp(label, training_load, folder)
    export_seconds = time.perf_counter() - began
    print(f"  exported in {export_seconds:.1f} s ({npz.stat().st_size / 2**20:.0f} MB)", flush=True)
    runs: dict[str, list[dict[str, Any]]] = {m: [] for m in methods}
    for repeat in range(repeats):
        for method in methods:
            run = run_method(npz, method, time_limit_seconds)
            runs[method].append(run)
            print(
                f"  {label} load {training_load:g} {method} {repeat + 1}/{repeats}: "
                f"{run['seconds']:.2f} s, {run['status']}",
                flush=True,
            )
    npz.unlink()
    medians = {m: _median_run(r) for m, r in runs.items()}
    sizes = next((r for r in medians.values() if "columns" in r), {})
    result = {
        "size": label,
        "params": SIZES[label],
        "training_load": training_load,
        "columns": sizes.get("columns"),
        "rows": sizes.get("rows"),
        "nonzeros": sizes.get("nonzeros"),
        "export_seconds": export_seconds,
        "code_version": _code_version(),
        "time_limit_seconds": time_limit_seconds,
        "runs": runs,
        "median": medians,
    }
    result["summary"] = compare_objectives(medians)
    return result


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """``solve_path.median_run`` over the keys every run has (a killed run has few), and
    all statuses."""
    common = set.intersection(*(set(r) for r in runs))
    median = median_run([{k: v for k, v in r.items() if k in common} for r in runs])
    statuses = [r["status"] for r in runs]
    # a method whose repeats ended differently has no single status (its seconds mix them)
    status = statuses[0] if len(set(statuses)) == 1 else "mixed: " + ", ".join(statuses)
    return median | {"status": status, "statuses": statuses}


def compare_objectives(medians: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Relative objective differences against the first exact method that reached optimal.

    Every repeat must be "Optimal" for a method to count as optimal; differences are
    also given for methods that stopped with a primal point but not optimal.
    """
    optimal = [m for m, r in medians.items() if all(s == OPTIMAL for s in r["statuses"])]
    exact = [m for m in optimal if m in EXACT_METHODS]
    reference = (exact or optimal or [None])[0]
    if reference is None:
        return {
            "reference": None,
            "relative_difference": {},
            "exact_agree": True,
            "fastest": None,
            "fastest_exact": None,
        }
    value = medians[reference]["objective"]
    # also for runs that stopped without "Optimal" but with a primal point (PDLP's "Unknown")
    with_point = [
        m for m, r in medians.items() if m in optimal or r.get("primal_solution_status", 0) > 0
    ]
    difference = {m: abs(medians[m]["objective"] - value) / max(1e-12, abs(value)) for m in with_point}
    return {
        "reference": reference,
        "reference_objective": value,
        "relative_difference": difference,
        "exact_agree": all(difference[m] <= OBJECTIVE_TOLERANCE for m in exact),
        "fastest": min(optimal, key=lambda m: medians[m]["seconds"]),
        "fastest_exact": min(exact, key=lambda m: medians[m]["seconds"]) if exact else None,
    }


def _cell(run: dict[str, Any]) -> str:
    if run["status"] == OPTIMAL:
        return f"{run['seconds']:.2f}"
    if run["status"] == "Time limit reached":
        return "time limit"
    if run["status"].startswith("mixed"):
        return "mixed"
    return run["status"][:12]


def print_report(results: list[dict[str, Any]], methods: list[str]) -> None:
    """The seconds table, then iterations and objective differences per method."""
    print()
    print("seconds of Highs.run() (median of processes), threads=1; where not optimal, the status;")
    print(f"fastest exact: the fastest of {', '.join(EXACT_METHODS)} (a vertex solution)")
    head = f"{'size':>5} {'load':>5} {'columns':>10} {'rows':>10} {'nonzeros':>10}"
    print(head + "".join(f" {m:>12}" for m in methods) + f" {'fastest':>12} {'fastest exact':>13}")
    for r in results:
        cells = "".join(f" {_cell(r['median'][m]):>12}" for m in methods)
        sizes = " ".join(
            f"{r[k]:>10,}" if r[k] is not None else f"{'':>10}" for k in ("columns", "rows", "nonzeros")
        )
        fastest = r["summary"]["fastest"] or "-"
        exact = r["summary"]["fastest_exact"] or "-"
        print(f"{r['size']:>5} {r['training_load']:>5g} {sizes}{cells} {fastest:>12} {exact:>13}")
    print()
    print(
        "iterations (simplex / ipm / crossover / pdlp), objective, relative difference to the reference"
    )
    for r in results:
        s = r["summary"]
        agree = "agree" if s["exact_agree"] else "DIFFER"
        print(
            f"{r['size']} load {r['training_load']:g}: reference {s['reference']}, "
            f"exact methods {agree} (tolerance {OBJECTIVE_TOLERANCE:g})"
        )
        for m in methods:
            run = r["median"][m]
            counts = " / ".join(
                f"{run.get(f'{k}_iterations', 0):,.0f}" for k in ("simplex", "ipm", "crossover", "pdlp")
            )
            difference = s["relative_difference"].get(m)
            text = "" if difference is None else f", rel. diff {difference:.1e}"
            if "max_primal_infeasibility" in run and run["status"] != OPTIMAL:
                text += (
                    f" (max primal / dual infeasibility {run['max_primal_infeasibility']:.1e}"
                    f" / {run['max_dual_infeasibility']:.1e})"
                )
            objective = run.get("objective")
            value = "" if objective is None else f", objective {objective:,.6f}"
            print(
                f"  {m:>12}: {run['status']}, {run['seconds']:.2f} s, iterations {counts}{value}{text}"
            )


def main(argv: list[str] | None = None) -> int:
    """Command line; ``_child NPZ METHOD SECONDS`` is the per-method child process."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        print(json.dumps(child_method(argv[1], argv[2], float(argv[3])), default=str))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1e4", "1e5"], choices=list(SIZES))
    parser.add_argument("--training-load", nargs="+", type=float, default=[0.1, 0.4])
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per run")
    parser.add_argument("--json", type=Path, help="write every run and summary here")
    options = parser.parse_args(argv)
    results = []
    with tempfile.TemporaryDirectory(prefix="geomodel-methods-") as tmp:
        for label in options.sizes:
            for load in options.training_load:
                print(f"size {label} {SIZES[label]}, training_load {load:g}", flush=True)
                result = measure(
                    label, load, options.methods, options.repeats, options.time_limit, Path(tmp)
                )
                results.append(result)
                if options.json:
                    options.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    print_report(results, options.methods)
    return 0 if all(r["summary"]["exact_agree"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
