"""Pareto re-solves: rebuild every point, keep one Highs and warm-start it, or Pyomo's persistent HiGHS.

Run by hand (not part of the test suite; about 13 minutes with the defaults on a
shared 2-core machine, 1e5 nearly all of it):

    python bench/resolve.py                              # sizes 1e4 1e5, terms carbon latency, 6 points
    python bench/resolve.py --sizes 1e4 --terms carbon --points 4
    python bench/resolve.py --approaches rebuild kept --json resolve.json

For each size (``solve_path.SIZES``: a ``bench/scenarios.py`` synthetic scenario
of about 10^4 or 10^5 columns) and each Pareto term, ``geomodel.pareto.pareto_front``
runs the sweep, one approach per fresh Python process, one process at a time.
The two ends (the weighted optimum and the lexicographic minimum of the term)
are solved by ``solve_inputs`` in every approach; the approaches differ only in
how the ``points - 1`` epsilon-bounded points are solved (pareto_front's
``solve_points`` argument):

* ``rebuild``: ``solve_inputs(epsilon=...)`` for every point (geomodel's path
  before the warm re-solves): the Pyomo model is rebuilt, compiled
  (``LinearStandardFormCompiler``), passed to a new ``highspy.Highs`` and solved
  cold (with presolve).
* ``kept``: geomodel's path, ``geomodel.api.solve_epsilon_points``: one model
  and one ``Highs``; every later point changes the epsilon row (one
  ``changeRowBounds`` for carbon, one ``changeCoeff`` for latency) and calls
  ``run()`` again, which starts simplex from the previous basis.
* ``persistent``: Pyomo's persistent HiGHS interface
  (``pyomo.contrib.solver.solvers.highs.Highs``) on the model of the first point
  (whose epsilon bound is a mutable Param); every later point sets the Param and
  calls ``solve`` again (Pyomo updates the model and HiGHS warm-starts). Only
  parameter updates are switched on (``auto_updates``), the cheapest correct
  setting for this change; ``persistent-all`` keeps Pyomo's default checks (every
  constraint, variable and named expression looked at again before each solve).

Every HiGHS run uses ``threads=1`` (the synthetic scenarios set it) and the method
geomodel chooses (``solver.method``, ``auto`` unless ``--method`` says otherwise:
primal simplex below 100,000 columns, IPX with crossover above, after which
``kept`` re-solves with primal simplex), with the same HiGHS options in every
approach. Per approach: the seconds of the two ends, of the first point (for
``kept`` and ``persistent`` it includes building and handing over the model they
keep), of the later points, and of all points (``interior``, what the approaches
are compared on), each point's wall time up to its Result (build, hand-over,
solve and read-back); the HiGHS ``run`` seconds and simplex iterations inside
them (on a busy machine the seconds vary, the iterations do not); and the
process's peak RSS. Every point's objective must agree with ``rebuild``'s to
1e-6 relative, and every point's KPI must respect its bound (exit status 1
otherwise).
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402
from solve_path import SIZES  # noqa: E402

from scenarios import synthetic_scenario  # noqa: E402

APPROACHES = ("rebuild", "kept", "persistent", "persistent-all")
DEFAULT_APPROACHES = ("rebuild", "kept", "persistent")
DEFAULT_SIZES = ("1e4", "1e5")
TERMS = ("carbon", "latency")
OBJECTIVE_TOLERANCE = 1e-6
BOUND_TOLERANCE = 1e-6
#: every highspy ``Highs.run`` of the process: seconds, iterations, warm start (a valid basis)
HIGHS_RUNS: list[dict[str, Any]] = []

PointSolver = Callable[[Any, Any, tuple[str, float]], Any]  # (inputs, host, epsilon) -> Result


# --------------------------------------------------------------------------- children


def _instrument_highs_run() -> None:
    """Time every ``highspy.Highs.run`` and note whether it started from a valid basis."""
    import highspy

    original_run = highspy.Highs.run

    def run(self, *args, **kwargs):
        warm = bool(self.getBasis().valid)
        began = time.perf_counter()
        status = original_run(self, *args, **kwargs)
        seconds = time.perf_counter() - began
        info = self.getInfo()
        HIGHS_RUNS.append(
            {
                "seconds": seconds,
                "simplex_iterations": int(info.simplex_iteration_count),
                "ipm_iterations": int(info.ipm_iteration_count),
                "warm": warm,
                "columns": int(self.getNumCol()),
                "rows": int(self.getNumRow()),
            }
        )
        return status

    highspy.Highs.run = run


def _rebuild_point(inputs, host, epsilon: tuple[str, float]):
    """Approach ``rebuild``: today's path, the whole of ``solve_inputs`` per point."""
    from geomodel.api import solve_inputs

    return solve_inputs(inputs, host=host, epsilon=epsilon)


class PersistentPyomo:
    """Approach ``persistent``: Pyomo's persistent HiGHS, the epsilon bound a mutable Param."""

    def __init__(self, only_parameters: bool) -> None:
        self.only_parameters = only_parameters
        self.model: Any = None
        self.solver: Any = None
        self.settings: Any = None
        self.term = ""
        self.method = ""
        self.options: dict[str, Any] = {}

    def __call__(self, inputs, host, epsilon: tuple[str, float]):
        """The Result of one point (the first one builds the model and the persistent solver)."""
        import geomodel.api as api

        term, bound = epsilon
        if self.solver is None:
            self.term = term
            with mock.patch.object(api, "solve_model", self._first_solve):
                return api.solve_inputs(inputs, host=host, epsilon=epsilon)
        if term != self.term:
            raise ValueError(f"persistent model bounds {self.term}, not {term}")
        self.model.epsilon_bound.set_value(bound)
        return api._result(self.model, inputs, self._solve(), 0.0, [])

    def _first_solve(self, model, settings):
        """Stands in for ``solve_model`` once: the persistent solver sees the model."""
        from pyomo.contrib.solver.solvers.highs import Highs

        solver = Highs()
        if self.only_parameters:
            updates = solver.config.auto_updates
            for name in (
                "check_for_new_or_removed_constraints",
                "check_for_new_or_removed_vars",
                "check_for_new_or_removed_params",
                "check_for_new_objective",
                "update_constraints",
                "update_vars",
                "update_named_expressions",
                "update_objective",
            ):
                setattr(updates, name, False)
            updates.update_parameters = True
        # the method solve_model would choose; columns: every Var (the compiler keeps the used ones)
        import pyomo.environ as pyo

        from geomodel.solver.highs import METHOD_OPTIONS, StandardForm, chosen_method

        columns = list(model.component_data_objects(pyo.Var, descend_into=True))
        form = StandardForm(None, columns, [], any(v.is_integer() for v in columns))
        self.method = chosen_method(settings.method, form)
        self.options = {"output_flag": False, **METHOD_OPTIONS.get(self.method, {})}
        self.model, self.solver, self.settings = model, solver, settings
        return self._solve()

    def _solve(self):
        """Solve (Pyomo hands over or updates the model), load the solution, say what happened."""
        import highspy
        from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition

        from geomodel.solver.highs import SolveOutcome

        started = time.perf_counter()
        runs = len(HIGHS_RUNS)
        results = self.solver.solve(
            self.model,
            threads=int(self.settings.threads),
            time_limit=float(self.settings.time_limit_s),
            rel_gap=float(self.settings.mip_gap),
            load_solutions=False,
            raise_exception_on_nonoptimal_result=False,
            solver_options=dict(self.options),
        )
        solved = time.perf_counter()
        run_seconds = sum(r["seconds"] for r in HIGHS_RUNS[runs:])
        has_solution = results.solution_status in (SolutionStatus.optimal, SolutionStatus.feasible)
        optimal = results.termination_condition == TerminationCondition.convergenceCriteriaSatisfied
        if has_solution:
            results.solution_loader.load_vars()
        return SolveOutcome(
            status="optimal" if optimal else results.termination_condition.name,
            message=results.termination_condition.name,
            objective=results.incumbent_objective if has_solution else None,
            mip_gap=0.0 if has_solution else None,
            has_solution=has_solution,
            handover_seconds=solved - started - run_seconds,
            solve_seconds=run_seconds,
            highs_version=highspy.Highs().version(),
            method=self.method,
        )


class PointsRecorder:
    """pareto_front's ``solve_points``: the epsilon points one approach's way, each timed."""

    def __init__(self, approach: str) -> None:
        self.approach = approach
        self.calls: list[dict[str, Any]] = []

    def __call__(self, inputs, term: str, bounds: list[float], *, host=None, progress=None) -> list:
        if self.approach == "kept":
            return self._kept(inputs, term, bounds, host)
        point: PointSolver = (
            _rebuild_point
            if self.approach == "rebuild"
            else PersistentPyomo(only_parameters=self.approach == "persistent")
        )
        results = []
        for bound in bounds:
            runs, started = len(HIGHS_RUNS), time.perf_counter()
            result = point(inputs, host, (term, bound))
            self._record(bound, time.perf_counter() - started, HIGHS_RUNS[runs:], result)
            results.append(result)
        return results

    def _kept(self, inputs, term: str, bounds: list[float], host) -> list:
        """geomodel's own warm path; a point runs from its "solve" mark to the next one."""
        from geomodel.api import solve_epsilon_points

        marks = [(time.perf_counter(), len(HIGHS_RUNS))]  # the first point also builds

        def mark(phase: str) -> None:
            if phase == "solve":
                marks.append((time.perf_counter(), len(HIGHS_RUNS)))

        results = solve_epsilon_points(inputs, term, bounds, host=host, progress=mark)
        marks = [marks[0], *marks[2:], (time.perf_counter(), len(HIGHS_RUNS))]
        for (began, first), (ended, last), bound, result in zip(
            marks[:-1], marks[1:], bounds, results, strict=True
        ):
            self._record(bound, ended - began, HIGHS_RUNS[first:last], result)
        return results

    def _record(self, bound: float, seconds: float, runs: list[dict[str, Any]], result) -> None:
        self.calls.append(
            {
                "bound": float(bound),
                "seconds": seconds,
                "highs_seconds": sum(r["seconds"] for r in runs),
                "simplex_iterations": sum(r["simplex_iterations"] for r in runs),
                "warm": all(r["warm"] for r in runs) if runs else None,
                "status": result.status,
                "method": str(result.dataset.attrs.get("solver_method", "")),
                "objective": result.kpis.get("objective"),
            }
        )


def child(approach: str, scenario_path: str, term: str, points: int) -> dict[str, Any]:
    """One approach's sweep in this process: timings, objectives and KPIs per point."""
    import geomodel
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.pareto import PARETO_TERMS, pareto_front
    from geomodel.scenario import load_scenario

    _instrument_highs_run()
    catalog = build_catalog()
    inputs = build_inputs(load_scenario(scenario_path, catalog=catalog), catalog)
    recorder = PointsRecorder(approach)
    started = time.perf_counter()
    front = pareto_front(inputs, term, points, host=catalog.host, solve_points=recorder)
    sweep_seconds = time.perf_counter() - started
    kpi, _ = PARETO_TERMS[term]
    interior = recorder.calls
    for call, result in zip(interior, front.points[:-1], strict=True):
        call["kpi"] = float(result.kpis[kpi]) if result.has_solution else math.nan
    interior_seconds = sum(c["seconds"] for c in interior)
    return {
        "approach": approach,
        "term": term,
        "points": points,
        "bounds": [float(b) for b in front.bounds],
        "geomodel": str(Path(geomodel.__file__).parent),
        "methods": sorted({c["method"] for c in interior}),
        "columns": HIGHS_RUNS[0]["columns"],
        "rows": HIGHS_RUNS[0]["rows"],
        "sweep_seconds": sweep_seconds,
        "ends_seconds": sweep_seconds - interior_seconds,
        "first_point_seconds": interior[0]["seconds"] if interior else math.nan,
        "later_points_seconds": sum(c["seconds"] for c in interior[1:]),
        "interior_seconds": interior_seconds,
        "interior_highs_seconds": sum(c["highs_seconds"] for c in interior),
        "interior_simplex_iterations": sum(c["simplex_iterations"] for c in interior),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,  # kB on Linux
        "interior": interior,
    }


# ------------------------------------------------------------------------------ parent


def _run_child(approach: str, scenario_path: Path, term: str, points: int) -> dict[str, Any]:
    """Run one approach in a fresh process."""
    return run_fresh(__file__, approach, str(scenario_path), term, str(points))


def check(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Objectives against the first approach's, point by point; every KPI within its bound."""
    reference = runs[0]
    problems: list[str] = []
    worst: dict[str, float] = {}
    for run in runs:
        if run["bounds"] != reference["bounds"]:
            problems.append(f"{run['approach']}: bounds differ from {reference['approach']}'s")
        differences = [0.0]
        for index, (mine, theirs) in enumerate(zip(run["interior"], reference["interior"], strict=True)):
            if mine["status"] != "optimal" or mine["objective"] is None:
                problems.append(f"{run['approach']} point {index}: status {mine['status']}")
                continue
            difference = abs(mine["objective"] - theirs["objective"]) / max(
                1e-12, abs(theirs["objective"])
            )
            differences.append(difference)
            if difference > OBJECTIVE_TOLERANCE:
                problems.append(
                    f"{run['approach']} point {index}: objective {mine['objective']:.9g} against "
                    f"{theirs['objective']:.9g} ({difference:.1e} relative)"
                )
            if mine["kpi"] > mine["bound"] * (1 + BOUND_TOLERANCE) + 1e-9:
                problems.append(
                    f"{run['approach']} point {index}: KPI {mine['kpi']:.9g} above its bound "
                    f"{mine['bound']:.9g}"
                )
        worst[run["approach"]] = max(differences)
    return {"max_relative_objective_difference": worst, "problems": problems}


def print_table(results: list[dict[str, Any]]) -> None:
    """One line per size, term and approach."""
    print()
    methods = sorted({m for r in results for run in r["runs"] for m in run["methods"]})
    print("seconds (wall, build + hand-over + solve + read-back per point); threads=1; HiGHS method:")
    print(f"{', '.join(methods)}. interior = every epsilon point (first + later); speed-up = the")
    print("first approach's interior / this interior; iterations = simplex iterations of the interior")
    print("points; obj diff = largest relative difference of a point's objective from the first's.")
    header = (
        f"{'size':>4} {'columns':>8} {'term':>7} {'approach':>14} {'ends':>7} {'first':>7} "
        f"{'later':>7} {'interior':>8} {'HiGHS':>7} {'iters':>7} {'speed-up':>8} {'obj diff':>8} "
        f"{'peak MB':>7}"
    )
    print(header)
    for result in results:
        base = result["runs"][0]["interior_seconds"]
        worst = result["check"]["max_relative_objective_difference"]
        for run in result["runs"]:
            print(
                f"{result['size']:>4} {run['columns']:>8} {run['term']:>7} {run['approach']:>14} "
                f"{run['ends_seconds']:7.2f} {run['first_point_seconds']:7.2f} "
                f"{run['later_points_seconds']:7.2f} {run['interior_seconds']:8.2f} "
                f"{run['interior_highs_seconds']:7.2f} {run['interior_simplex_iterations']:>7} "
                f"{base / run['interior_seconds']:7.2f}x {worst[run['approach']]:8.1e} "
                f"{run['peak_mb']:7.0f}"
            )
    print()
    print("per point (seconds / simplex iterations), tight to loose:")
    for result in results:
        for run in result["runs"]:
            cells = " ".join(
                f"{c['seconds']:6.2f}/{c['simplex_iterations']:<6}" for c in run["interior"]
            )
            print(f"{result['size']:>4} {run['term']:>7} {run['approach']:>14}: {cells}")
    for result in results:
        for problem in result["check"]["problems"]:
            print(f"PROBLEM {result['size']} {result['term']}: {problem}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        print(json.dumps(child(argv[1], argv[2], argv[3], int(argv[4])), default=str))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=list(DEFAULT_SIZES), choices=list(SIZES))
    parser.add_argument("--terms", nargs="+", default=list(TERMS), choices=TERMS)
    parser.add_argument("--points", type=int, default=6, help="points of the front, ends included")
    parser.add_argument(
        "--approaches",
        nargs="+",
        default=list(DEFAULT_APPROACHES),
        choices=APPROACHES,
        help="the first is the reference the others' objectives are checked against",
    )
    parser.add_argument(
        "--method",
        default="auto",
        help="the scenarios' solver.method (auto, dual_simplex, primal_simplex, ipm, pdlp)",
    )
    parser.add_argument("--json", type=Path, help="write every measurement here")
    options = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="geomodel-resolve-") as tmp:
        for size in options.sizes:
            path = Path(tmp) / f"synthetic_{size}.yaml"
            scenario = synthetic_scenario(**SIZES[size])
            scenario["solver"]["method"] = options.method
            path.write_text(json.dumps(scenario), encoding="utf-8")
            for term in options.terms:
                runs = []
                for approach in options.approaches:
                    run = _run_child(approach, path, term, options.points)
                    runs.append(run)
                    print(
                        f"{size} {term} {approach}: interior {run['interior_seconds']:.2f} s "
                        f"(first {run['first_point_seconds']:.2f} s), ends {run['ends_seconds']:.2f} s "
                        f"[{'/'.join(run['methods'])}; geomodel from {run['geomodel']}]",
                        flush=True,
                    )
                result = {
                    "size": size,
                    "params": SIZES[size],
                    "method": options.method,
                    "term": term,
                    "runs": runs,
                }
                result["check"] = check(runs)
                results.append(result)
                if options.json:
                    options.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    print_table(results)
    return 1 if any(r["check"]["problems"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
