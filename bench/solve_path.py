"""The solve path against the floor HiGHS sets: where geomodel's time and memory go.

Run by hand (not part of the test suite; it takes about an hour with all sizes):

    python bench/solve_path.py                        # sizes 1e4 1e5 1e6, 3 repeats, linopy
    python bench/solve_path.py --sizes 1e4 1e5 --repeats 1 --no-linopy
    python bench/solve_path.py --json results.json    # also write every measurement
    python bench/solve_path.py --profile 1e6          # cProfile of build + hand-over only
    python bench/solve_path.py --sizes 1e5 --reference /tmp/before   # against older code
    python bench/solve_path.py --sizes 1e5 --linopy-columns 105600  # linopy at a set size

For each size (``SIZES``: a ``bench/scenarios.py`` synthetic scenario of about
10^4, 10^5 or 10^6 columns), every measurement runs in a fresh Python process,
the kinds alternating within each of ``--repeats`` rounds (so a change of the
shared machine's load hits them alike), and the median of each kind is reported,
with the HiGHS run's CPU seconds and its simplex, interior-point and crossover
iterations (deterministic, unlike seconds) and the load averages before and after:

* geomodel: ``load`` (catalogue and ``load_scenario``), ``inputs``
  (``build_inputs``), ``build`` (the Pyomo model and extensions, as
  ``solve_inputs`` times it), ``hand-over`` (``to_highs_lp`` + ``passModel``),
  ``solve`` (HiGHS ``run``), ``read-back`` (solution into the model, results
  Dataset, KPIs: the rest of ``solve_inputs``), ``total`` (their sum) and the
  process's peak RSS (``ru_maxrss``). Imports are not timed, on either side.
* floor: the very LP geomodel hands to HiGHS (caught at ``Highs.run`` in an
  extra, untimed process and saved as arrays in a .npz, with every HiGHS option
  geomodel set), read back in a fresh process and passed to highspy as a
  column-wise matrix, solved with the same options, and its solution vector
  fetched. Time: ``passModel`` + ``run`` + ``getSolution`` (reading the .npz is
  not timed); memory: that process's peak RSS.
* linopy (``--no-linopy`` skips it): the synthetic placement LP of issue 7 at
  the same sites and hours and about the same number of columns (or
  ``--linopy-columns N``: geomodel's count before a change that left columns
  out, so that linopy's problem stays the size it was), built with
  linopy and solved with its highspy interface; its own floor (its matrices
  passed to highspy) is measured the same way, so its ratio is comparable. It is
  a different, much smaller-rowed problem than geomodel's (the report prints both
  objectives and row counts): its seconds say how fast HiGHS is on a placement LP
  of that size, not what geomodel's own problem would take written in linopy (that
  is the floor: the same LP with nothing around it).
* reference (``--reference TREE``): geomodel imported from another source tree
  (e.g. a checkout of the code before a change), measured by these same children,
  with its own floor; the objectives must agree with geomodel's to 1e-6.

Every HiGHS run uses ``threads=1`` (the synthetic scenarios set
``solver.threads: 1``; the linopy model is solved with ``threads=1``) and the
method geomodel chooses (``solver.method: auto``), which the floor inherits with
the other options; linopy gets geomodel's method and dual feasibility tolerance
(``SHARED_OPTIONS``) at each size.
``--highs NAME=VALUE ...`` sets HiGHS options on top, for every size. The
objectives of geomodel and its floor must agree to 1e-6 relative (exit status 1
otherwise). ``--partial FILE`` keeps the runs of the current size as they end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402

from scenarios import synthetic_scenario  # noqa: E402

#: size label -> synthetic_scenario parameters (docs/performance.md lists the columns)
SIZES: dict[str, dict[str, int]] = {
    "1e4": {"sites": 5, "workloads": 6, "hours": 72},
    "1e5": {"sites": 10, "workloads": 20, "hours": 96},
    "1e6": {"sites": 20, "workloads": 50, "hours": 192},
}
#: issue 7 goals: total / floor at most this (None: no ratio goal at that size)
TOTAL_GOAL = {"1e4": None, "1e5": 1.6, "1e6": 1.25}
MEMORY_GOAL = 1.3
OBJECTIVE_TOLERANCE = 1e-6
PHASES = ("load", "inputs", "build", "handover", "solve", "readback", "total", "end_to_end")


# --------------------------------------------------------------------------- children


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kB on Linux


def _current_rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _nondefault_options(highs) -> dict[str, Any]:
    """Every HiGHS option whose value differs from a fresh Highs' (output options aside)."""
    import highspy

    fresh, given = highspy.Highs().getOptions(), highs.getOptions()
    skip = {"output_flag", "log_to_console", "log_file"}
    options = {}
    for name in dir(given):
        if name.startswith("_") or name in skip or callable(getattr(given, name)):
            continue
        value = getattr(given, name)
        if value != getattr(fresh, name):
            options[name] = value
    return options


def _iterations(highs) -> dict[str, int]:
    """HiGHS's iteration counts of its last run: deterministic, unlike seconds on a shared machine."""
    info = highs.getInfo()
    return {
        "simplex_iterations": int(info.simplex_iteration_count),
        "ipm_iterations": int(info.ipm_iteration_count),
        "crossover_iterations": int(info.crossover_iteration_count),
    }


class _ExportedError(Exception):
    """Raised at ``Highs.run`` once the LP has been saved (the export run does not solve)."""


def patch_highs_options(highs_options: dict[str, Any]) -> None:
    """Set ``highs_options`` on every Highs just before it runs (geomodel's own ``run``)."""
    import highspy

    original_run = highspy.Highs.run

    def run(self, *args, **kwargs):
        for name, value in highs_options.items():
            self.setOptionValue(name, value)
        return original_run(self, *args, **kwargs)

    highspy.Highs.run = run


def child_geomodel(
    scenario_path: str, export: str | None, highs_options: dict[str, Any]
) -> dict[str, Any]:
    """One geomodel run: phases and peak memory; with ``export``, save the LP instead."""
    started = time.perf_counter()
    import highspy

    from geomodel.api import solve_inputs
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario

    imported = time.perf_counter()
    patch_highs_options(highs_options)
    captured: dict[str, Any] = {}
    original_run = highspy.Highs.run

    def run(self, *args, **kwargs):
        if export:
            for name, value in highs_options.items():
                self.setOptionValue(name, value)
            captured["options"] = _nondefault_options(self)
            captured["columns"] = self.getNumCol()
            _save_lp(self.getLp(), captured["options"], export)
            raise _ExportedError
        began, cpu = time.perf_counter(), time.process_time()
        status = original_run(self, *args, **kwargs)
        captured["solve"] = time.perf_counter() - began
        captured["solve_cpu"] = time.process_time() - cpu
        captured["objective_highs"] = self.getInfo().objective_function_value
        captured["status"] = self.modelStatusToString(self.getModelStatus())
        captured.update(_iterations(self))
        captured["options"] = _nondefault_options(self)
        captured["rows"], captured["columns"] = self.getNumRow(), self.getNumCol()
        captured["nonzeros"] = self.getNumNz()
        return status

    highspy.Highs.run = run
    baseline = _current_rss_mb()
    t0, cpu0 = time.perf_counter(), time.process_time()
    catalog = build_catalog()
    scenario = load_scenario(scenario_path, catalog=catalog)
    t1 = time.perf_counter()
    inputs = build_inputs(scenario, catalog)
    t2, cpu2 = time.perf_counter(), time.process_time()
    try:
        result = solve_inputs(inputs, host=catalog.host)
    except _ExportedError:
        return {"exported": export, **captured}
    t3, cpu3 = time.perf_counter(), time.process_time()
    peak = _peak_rss_mb()
    build = result.kpis["build_seconds"]
    handover = float(result.dataset.attrs["handover_seconds"])
    solve = captured["solve"]
    phases = {
        "load": t1 - t0,
        "inputs": t2 - t1,
        "build": build,
        "handover": handover,
        "solve": solve,
        "readback": (t3 - t2) - build - handover - solve,
        "total": t3 - t2,  # build + hand-over + solve + read-back, as issue 7 defines it
        "end_to_end": t3 - t0,
        # process CPU seconds of the same spans: what a loaded machine's waiting leaves out
        "total_cpu": cpu3 - cpu2,
        "end_to_end_cpu": cpu3 - cpu0,
    }
    return {
        **phases,
        "imports": imported - started,
        "peak_mb": peak,
        "baseline_mb": baseline,
        "objective": result.kpis.get("objective"),
        "status": result.kpis["solver_status"],
        "kpis": {k: v for k, v in result.kpis.items() if isinstance(v, int | float | str)},
        "time_steps": inputs.sizes["time"],
        **{k: v for k, v in captured.items() if k != "solve"},
    }


def _save_lp(lp, options: dict[str, Any], path: str) -> None:
    import numpy as np
    import scipy.sparse as sp

    matrix = lp.a_matrix_
    start, index, value = (np.asarray(a) for a in (matrix.start_, matrix.index_, matrix.value_))
    if matrix.format_ != matrix.format_.__class__.kColwise:  # linopy hands over rows
        csc = sp.csr_matrix((value, index, start), shape=(lp.num_row_, lp.num_col_)).tocsc()
        start, index, value = csc.indptr, csc.indices, csc.data
    np.savez(
        path,
        col_cost=np.asarray(lp.col_cost_),
        col_lower=np.asarray(lp.col_lower_),
        col_upper=np.asarray(lp.col_upper_),
        row_lower=np.asarray(lp.row_lower_),
        row_upper=np.asarray(lp.row_upper_),
        start=start,
        index=index,
        value=value,
        offset=np.array([lp.offset_]),
        sense=np.array([int(lp.sense_ == lp.sense_.__class__.kMaximize)]),
        integrality=np.asarray([int(v) for v in lp.integrality_], dtype=np.int8),
        options=np.array(json.dumps(options)),
    )


def child_floor(npz_path: str) -> dict[str, Any]:
    """The floor: the saved LP passed to highspy as matrices and solved, same options."""
    import highspy
    import numpy as np

    baseline = _current_rss_mb()
    data = np.load(npz_path)
    arrays = {name: data[name] for name in data.files}
    options = json.loads(str(arrays.pop("options")))
    t0 = time.perf_counter()
    lp = highspy.HighsLp()
    n_col, n_row = len(arrays["col_cost"]), len(arrays["row_lower"])
    lp.num_col_, lp.num_row_ = n_col, n_row
    lp.col_cost_ = arrays["col_cost"]
    lp.col_lower_ = arrays["col_lower"]
    lp.col_upper_ = arrays["col_upper"]
    lp.row_lower_ = arrays["row_lower"]
    lp.row_upper_ = arrays["row_upper"]
    lp.offset_ = float(arrays["offset"][0])
    if arrays["sense"][0]:
        lp.sense_ = highspy.ObjSense.kMaximize
    if len(arrays["integrality"]):
        lp.integrality_ = [highspy.HighsVarType(int(v)) for v in arrays["integrality"]]
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = arrays["start"]
    lp.a_matrix_.index_ = arrays["index"]
    lp.a_matrix_.value_ = arrays["value"]
    lp.a_matrix_.num_col_ = n_col
    lp.a_matrix_.num_row_ = n_row
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    for name, value in options.items():
        highs.setOptionValue(name, value)
    highs.passModel(lp)
    t1, cpu = time.perf_counter(), time.process_time()
    highs.run()
    t2, solve_cpu = time.perf_counter(), time.process_time() - cpu
    solution = np.asarray(highs.getSolution().col_value)
    t3 = time.perf_counter()
    info = highs.getInfo()
    return {
        "handover": t1 - t0,
        "solve": t2 - t1,
        "solve_cpu": solve_cpu,
        "readback": t3 - t2,
        "total": t3 - t0,
        "peak_mb": _peak_rss_mb(),
        "baseline_mb": baseline,
        "objective_highs": info.objective_function_value,
        "status": highs.modelStatusToString(highs.getModelStatus()),
        **_iterations(highs),
        "columns": n_col,
        "rows": n_row,
        "nonzeros": len(arrays["value"]),
        "solution_norm": float(np.abs(solution).sum()),
        "options": options,
    }


# ---------------------------------------------------------------- linopy reference LP


def linopy_data(sites: int, hours: int, columns: int, seed: int = 7) -> dict[str, Any]:
    """Data of issue 7's synthetic placement LP with about ``columns`` columns.

    x[w,s,t] (chips of workload w at site s in hour t) exists for latency-allowed
    pairs (half the sites, at random, at least one per workload); each workload
    has a horizon demand (chip-hours); each site-hour a chip capacity; the power
    balance per site-hour is grid + solar + wind = idle + active power of x.
    Grid price and carbon follow a daily cycle with noise; solar and wind have
    capacity factors; the objective is grid cost + carbon price x emissions.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    per_workload = max(1, sites // 2)
    workloads = max(1, round((columns / hours - 3 * sites) / per_workload))
    allowed = np.zeros((workloads, sites), dtype=bool)
    for w in range(workloads):
        allowed[w, rng.choice(sites, per_workload, replace=False)] = True
    hour = np.arange(hours)
    daily = np.sin(2 * np.pi * (hour - 15) / 24)
    price = 60 + 25 * daily[None, :] + rng.normal(0, 8, (sites, hours))
    price += rng.uniform(-15, 15, (sites, 1))
    carbon = 350 + 120 * daily[None, :] + rng.normal(0, 30, (sites, hours))
    solar = np.clip(np.sin(2 * np.pi * (hour - 6) / 24), 0, None)[None, :]
    solar = solar * rng.uniform(0.6, 1.0, (sites, 1))
    wind = np.clip(0.35 + 0.25 * rng.standard_normal((sites, hours)), 0, 1)
    capacity = np.full(sites, 60000.0)  # chips per site
    demand = 0.4 * capacity.sum() * hours / workloads * rng.uniform(0.5, 1.5, workloads)
    demand *= 0.4 * capacity.sum() * hours / demand.sum()
    return {
        "workloads": workloads,
        "allowed": allowed,
        "price": np.clip(price, 5, None),
        "carbon": np.clip(carbon, 20, None),
        "cf": np.stack([solar, wind], axis=1),  # (s, k, t)
        "source_mw": np.full((sites, 2), 60.0),
        "capacity": capacity,
        "demand": demand,
        "active_mw": rng.uniform(0.0009, 0.0015, workloads),  # MW per working chip
        "idle_mw": np.full(sites, 27.0),
        "carbon_price": 0.05,  # kUSD/tCO2
    }


def child_linopy(
    sites: int, hours: int, columns: int, export: str | None, highs_options: dict[str, Any]
) -> dict[str, Any]:
    """Build the synthetic LP with linopy, solve with highspy (threads=1); or export it."""
    import warnings

    import linopy
    import numpy as np
    import xarray as xr

    # absent x slots count as 0 in sums (linopy's legacy semantics), as intended here
    warnings.filterwarnings("ignore", category=getattr(linopy, "LinopySemanticsWarning", Warning))

    d = linopy_data(sites, hours, columns)
    baseline = _current_rss_mb()
    t0, cpu0 = time.perf_counter(), time.process_time()
    w_, s_, t_, k_ = (
        {"workload": np.arange(d["workloads"])},
        {"site": np.arange(sites)},
        {"time": np.arange(hours)},
        {"source": ["solar", "wind"]},
    )
    coords = {**w_, **s_, **t_}
    allowed = xr.DataArray(d["allowed"], coords={**w_, **s_}).broadcast_like(
        xr.DataArray(np.ones(hours), coords=t_)
    )
    price = xr.DataArray(d["price"], coords={**s_, **t_})
    carbon = xr.DataArray(d["carbon"], coords={**s_, **t_})
    available = xr.DataArray(d["cf"] * d["source_mw"][:, :, None], coords={**s_, **k_, **t_})
    m = linopy.Model()
    x = m.add_variables(lower=0, coords=list(coords.values()), dims=list(coords), name="x", mask=allowed)
    grid = m.add_variables(lower=0, coords=[s_["site"], t_["time"]], dims=["site", "time"], name="grid")
    gen = m.add_variables(lower=0, upper=available, name="gen")
    m.add_constraints(x.sum(["site", "time"]) >= xr.DataArray(d["demand"], coords=w_), name="demand")
    m.add_constraints(x.sum("workload") <= xr.DataArray(d["capacity"], coords=s_), name="capacity")
    active = xr.DataArray(d["active_mw"], coords=w_)
    m.add_constraints(
        grid + gen.sum("source") - (active * x).sum("workload")
        == xr.DataArray(d["idle_mw"], coords=s_).broadcast_like(price),
        name="balance",
    )
    m.add_objective(((price / 1000 + d["carbon_price"] * carbon / 1000) * grid).sum())
    t1 = time.perf_counter()
    if export:
        h = m.to_highspy()
        h.setOptionValue("threads", 1)
        for name, value in highs_options.items():
            h.setOptionValue(name, value)
        _save_lp(h.getLp(), _nondefault_options(h), export)
        return {"exported": export}
    cpu = time.process_time()
    status, condition = m.solve(
        solver_name="highs", io_api="direct", threads=1, output_flag=False, **highs_options
    )
    t2, solve_cpu = time.perf_counter(), time.process_time() - cpu
    h = m.solver_model
    run_seconds = h.getRunTime() if h is not None else float("nan")
    solution = m.variables["x"].solution.values  # read-back as a user would
    t3, cpu3 = time.perf_counter(), time.process_time()
    return {
        "build": t1 - t0,
        "solve_call": t2 - t1,
        "solve": run_seconds,
        "solve_cpu": solve_cpu,  # linopy's hand-over to highspy included
        "readback": t3 - t2,
        "total": t3 - t0,
        "total_cpu": cpu3 - cpu0,
        "peak_mb": _peak_rss_mb(),
        "baseline_mb": baseline,
        "objective_highs": float(m.objective.value),
        "status": f"{status}/{condition}",
        "columns": int(m.nvars),
        "rows": int(m.ncons),
        "workloads": d["workloads"],
        "solution_nan": int(np.isnan(solution).sum()),
        **(_iterations(h) if h is not None else {}),
    }


# ------------------------------------------------------------------------------ parent


def _child(*args: str) -> dict[str, Any]:
    """Run this file's ``_child`` mode in a fresh process."""
    return run_fresh(__file__, *args)


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each number of the runs as their median; the rest as in the first run."""
    out = dict(runs[0])
    for key, value in runs[0].items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[key] = statistics.median(r[key] for r in runs)
    return out


#: HiGHS options of geomodel's that linopy's run gets too: its method and tolerance
SHARED_OPTIONS = ("solver", "simplex_strategy", "run_crossover", "dual_feasibility_tolerance")


def measure_size(
    label: str,
    folder: Path,
    repeats: int,
    linopy: bool,
    highs: dict[str, Any] | None,
    log,
    reference: Path | None = None,
    linopy_columns: int | None = None,
) -> dict[str, Any]:
    """Every measurement of one size, repeat by repeat, the kinds alternating within a
    repeat (geomodel, its floor, [the reference tree's geomodel and floor], [linopy and
    its floor]) so a change of the machine's load hits them all alike. linopy's LP has
    geomodel's column count, or ``linopy_columns``."""
    params = SIZES[label]
    highs = highs or {}
    highs_json = json.dumps(highs)
    scenario = synthetic_scenario(**params)
    path = folder / f"synthetic_{label}.yaml"
    path.write_text(json.dumps(scenario, indent=1), encoding="utf-8")  # JSON is YAML
    lp_path = folder / f"geomodel_{label}.npz"
    exported = _child("geomodel", str(path), str(lp_path), highs_json)
    kinds: list[tuple[str, tuple[str, ...], Path | None]] = [
        ("geomodel", (str(path), "", highs_json), None),
        ("floor", (str(lp_path),), None),
    ]
    if reference is not None:
        reference_lp = folder / f"reference_{label}.npz"
        run_fresh(__file__, "geomodel", str(path), str(reference_lp), highs_json, tree=reference)
        kinds += [
            ("reference", (str(path), "", highs_json), reference),
            ("reference_floor", (str(reference_lp),), None),
        ]
    if linopy:
        shared = {k: v for k, v in exported["options"].items() if k in SHARED_OPTIONS}
        linopy_json = json.dumps({**shared, **highs})  # geomodel's method, for linopy too
        columns = linopy_columns or exported["columns"]
        sizes = (str(params["sites"]), str(params["hours"]), str(columns))
        linopy_lp = folder / f"linopy_{label}.npz"
        _child("linopy", *sizes, str(linopy_lp), linopy_json)
        kinds += [
            ("linopy", (*sizes, "", linopy_json), None),
            ("linopy_floor", (str(linopy_lp),), None),
        ]
    out: dict[str, Any] = {"size": label, "params": params, "highs_options": highs}
    out.update({f"{kind}_runs": [] for kind, _, _ in kinds})
    for repeat in range(repeats):
        for kind, args, tree in kinds:
            child = "floor" if kind.endswith("floor") else kind.replace("reference", "geomodel")
            run = run_fresh(__file__, child, *args, tree=tree)
            out[f"{kind}_runs"].append(run)
            _save_partial(folder, out)
            log(
                f"  {label} {kind} {repeat + 1}/{repeats}: total {run['total']:.2f} s, "
                f"solve {run['solve']:.2f} s ({run['solve_cpu']:.2f} s CPU), "
                f"peak {run['peak_mb']:.0f} MB"
            )
    for key in [k for k in out if k.endswith("_runs")]:
        out[key.removesuffix("_runs")] = median_run(out[key])
    return out


def _save_partial(folder: Path, out: dict[str, Any]) -> None:
    """Every run so far, for a long benchmark stopped early (``--partial``)."""
    if PARTIAL is not None:
        PARTIAL.write_text(json.dumps(out, indent=1, default=str), encoding="utf-8")


PARTIAL: Path | None = None


def _against(g: dict[str, Any], other: dict[str, Any], name: str) -> dict[str, Any]:
    """Another kind's size, and geomodel's seconds and memory as ratios to its."""
    return {
        f"{name}_columns": other["columns"],
        f"{name}_rows": other["rows"],
        f"total_over_{name}": g["total"] / other["total"],
        f"total_cpu_over_{name}": g["total_cpu"] / other["total_cpu"],
        f"end_to_end_cpu_over_{name}": g["end_to_end_cpu"]
        / other.get("end_to_end_cpu", other["total_cpu"]),
        f"solve_cpu_over_{name}": g["solve_cpu"] / other["solve_cpu"],
        f"peak_over_{name}": g["peak_mb"] / other["peak_mb"],
    }


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    """Ratios and goals of one size."""
    g, f = result["geomodel"], result["floor"]
    difference = abs(g["objective_highs"] - f["objective_highs"])
    objective_error = difference / max(1e-12, abs(f["objective_highs"]))
    summary = {
        "columns": g["columns"],
        "rows": g["rows"],
        "nonzeros": g["nonzeros"],
        "total_over_floor": g["total"] / f["total"],
        "build_over_solve": g["build"] / g["solve"],
        "memory_over_floor": g["peak_mb"] / f["peak_mb"],
        # memory the model needs beyond the imported libraries, against the floor's beyond numpy+highspy
        "memory_above_baseline_over_floor": (g["peak_mb"] - g["baseline_mb"])
        / max(1.0, f["peak_mb"] - f["baseline_mb"]),
        "kb_per_column": g["peak_mb"] * 1024 / g["columns"],
        "objective_relative_error": objective_error,
        "objectives_agree": objective_error <= OBJECTIVE_TOLERANCE,
    }
    goal = TOTAL_GOAL[result["size"]]
    summary["total_goal"] = goal
    summary["total_goal_met"] = None if goal is None else summary["total_over_floor"] <= goal
    summary["memory_goal_met"] = summary["memory_over_floor"] <= MEMORY_GOAL
    if "reference" in result:
        ref = result["reference"]
        reference_error = abs(ref["objective_highs"] - g["objective_highs"]) / max(
            1e-12, abs(ref["objective_highs"])
        )
        summary.update(_against(g, ref, "reference"))
        summary["end_to_end_over_reference"] = g["end_to_end"] / ref["end_to_end"]
        summary["reference_kb_per_column"] = ref["peak_mb"] * 1024 / ref["columns"]
        summary["reference_objective_relative_error"] = reference_error
        summary["objectives_agree"] &= reference_error <= OBJECTIVE_TOLERANCE
    if "linopy" in result:
        lp, lf = result["linopy"], result["linopy_floor"]
        summary.update(_against(g, lp, "linopy"))
        summary["linopy_total"] = lp["total"]
        summary["linopy_total_over_floor"] = lp["total"] / lf["total"]
        summary["linopy_memory_over_floor"] = lp["peak_mb"] / lf["peak_mb"]
        summary["faster_than_linopy_seconds"] = g["total"] < lp["total"]
        summary["faster_than_linopy_ratio"] = (
            summary["total_over_floor"] < summary["linopy_total_over_floor"]
        )
    return summary


def iterations_text(run: dict[str, Any]) -> str:
    """A run's simplex / interior-point / crossover iterations, e.g. ``0/47/8274``."""
    keys = ("simplex_iterations", "ipm_iterations", "crossover_iterations")
    return "/".join(str(run.get(key, "")) for key in keys)


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, for the report (the machine may be shared)."""
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def print_report(results: list[dict[str, Any]], load_before: str) -> None:
    print()
    loads = f"{load_before} / {load_average()}"
    print(f"machine: {os.cpu_count()} cores; load average before / after: {loads}")
    print("seconds, median of each measurement's processes (alternating within each repeat); peak")
    print("RSS in MB (in brackets: RSS after imports, before the run); threads=1. total = build +")
    print("hand-over + solve + read-back; end-to-end adds load and inputs. solve CPU: the HiGHS")
    print("run's process time; iterations: simplex / interior point / crossover.")
    cols = ("load", "inputs", "build", "handover", "solve", "readback", "total", "end_to_end")
    print(
        f"{'':>15} {'columns':>9} {'rows':>8} "
        + " ".join(f"{c[:10]:>10}" for c in cols)
        + f" {'solve CPU':>10} {'iterations':>18} {'peak MB':>12}"
    )

    def line(name: str, run: dict[str, Any]) -> None:
        cells = " ".join(
            f"{run[c]:10.2f}" if isinstance(run.get(c), int | float) else f"{'':>10}" for c in cols
        )
        its = iterations_text(run)
        memory = f"{run['peak_mb']:.0f} ({run['baseline_mb']:.0f})"
        print(
            f"{name:>15} {run.get('columns', ''):>9} {run.get('rows', ''):>8} {cells} "
            f"{run['solve_cpu']:10.2f} {its:>18} {memory:>12}"
        )

    for r in results:
        for kind in ("geomodel", "floor", "reference", "reference_floor", "linopy", "linopy_floor"):
            if kind in r:
                line(f"{r['size']} {kind}" if kind == "geomodel" else kind.replace("_", " "), r[kind])
    print()
    for r in results:
        s = r["summary"]
        goal = s["total_goal"]
        total = f"total/floor {s['total_over_floor']:.2f}x" + (
            f" (goal <= {goal}x: {'met' if s['total_goal_met'] else 'MISSED'})" if goal else ""
        )
        memory = (
            f"memory/floor {s['memory_over_floor']:.2f}x (goal <= {MEMORY_GOAL}x: "
            + ("met" if s["memory_goal_met"] else "MISSED")
            + f"; above import baselines {s['memory_above_baseline_over_floor']:.2f}x)"
        )
        print(
            f"{r['size']}: {total}; build/solve {s['build_over_solve']:.2f}; {memory}; "
            f"objectives {'agree' if s['objectives_agree'] else 'DIFFER'} "
            f"(rel. diff {s['objective_relative_error']:.1e}); "
            f"peak {s['kb_per_column']:.1f} KB/column"
        )
        if "total_over_reference" in s:
            print(
                f"      against the reference tree: total {s['total_over_reference']:.2f}x, "
                f"end-to-end {s['end_to_end_over_reference']:.2f}x, CPU seconds: total "
                f"{s['total_cpu_over_reference']:.2f}x, end-to-end "
                f"{s['end_to_end_cpu_over_reference']:.2f}x, solve CPU "
                f"{s['solve_cpu_over_reference']:.2f}x, peak {s['peak_over_reference']:.2f}x "
                f"({s['reference_kb_per_column']:.1f} KB/column on "
                f"{s['reference_columns']:,} columns, {s['reference_rows']:,} rows); objectives "
                f"agree to {s['reference_objective_relative_error']:.1e}"
            )
        if "linopy_total" in s:
            faster = "geomodel faster" if s["faster_than_linopy_seconds"] else "linopy faster"
            print(
                f"      linopy: total {s['linopy_total']:.2f} s vs geomodel "
                f"{r['geomodel']['total']:.2f} s ({faster}; geomodel/linopy total "
                f"{s['total_over_linopy']:.2f}x, CPU seconds: total {s['total_cpu_over_linopy']:.2f}x, "
                f"geomodel's end-to-end / linopy's total {s['end_to_end_cpu_over_linopy']:.2f}x, "
                f"solve CPU {s['solve_cpu_over_linopy']:.2f}x, "
                f"peak {s['peak_over_linopy']:.2f}x); total/floor linopy "
                f"{s['linopy_total_over_floor']:.2f}x vs geomodel {s['total_over_floor']:.2f}x; "
                f"linopy memory/floor {s['linopy_memory_over_floor']:.2f}x"
            )
            print(
                f"      linopy's LP is issue 7's placement LP, not geomodel's: "
                f"{s['linopy_rows']:,} rows against {s['rows']:,}, objective "
                f"{r['linopy']['objective_highs']:.6g} against {r['geomodel']['objective_highs']:.6g}"
            )


def profile(label: str, folder: Path, top: int) -> None:
    """cProfile of build and hand-over (``solve_inputs`` stopped at ``Highs.run``)."""
    path = folder / f"synthetic_{label}.yaml"
    path.write_text(json.dumps(synthetic_scenario(**SIZES[label])), encoding="utf-8")
    profile_build(path, label, top)


def profile_build(path: Path, label: str, top: int) -> None:
    """cProfile of build and hand-over of the scenario file ``path`` (stopped at ``Highs.run``)."""
    import cProfile
    import pstats

    import highspy

    from geomodel.api import solve_inputs
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario

    catalog = build_catalog()
    inputs = build_inputs(load_scenario(path, catalog=catalog), catalog)

    def stop(self, *args, **kwargs):
        raise _ExportedError

    highspy.Highs.run = stop
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    with contextlib.suppress(_ExportedError):
        solve_inputs(inputs, host=catalog.host)
    profiler.disable()
    print(f"build + hand-over of {label} under cProfile: {time.perf_counter() - started:.1f} s")
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


def parse_highs(pairs: list[str]) -> dict[str, Any]:
    """``name=value`` pairs, values as int, float or string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        value: Any = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                continue
        options[name] = value
    return options


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        kind, args = argv[1], argv[2:]
        if kind == "geomodel":
            out = child_geomodel(args[0], args[1] or None, json.loads(args[2]))
        elif kind == "floor":
            out = child_floor(args[0])
        else:
            out = child_linopy(
                int(args[0]), int(args[1]), int(args[2]), args[3] or None, json.loads(args[4])
            )
        print(json.dumps(out, default=str))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=list(SIZES), choices=list(SIZES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-linopy", action="store_true")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    parser.add_argument("--profile", choices=list(SIZES), help="only profile build + hand-over")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--partial", type=Path, help="write the current size's runs here as they end")
    parser.add_argument(
        "--highs",
        nargs="*",
        metavar="NAME=VALUE",
        help="HiGHS options set on top of geomodel's for every size (e.g. solver=ipm)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        metavar="TREE",
        help="also measure geomodel from this source tree (e.g. the code before a change)",
    )
    parser.add_argument(
        "--linopy-columns",
        type=int,
        metavar="N",
        help="size linopy's LP to N columns, not geomodel's (e.g. geomodel's count before a "
        "change that left columns out: the problem, not its LP, is what stays the same)",
    )
    options = parser.parse_args(argv)
    load_before = load_average()
    global PARTIAL
    PARTIAL = options.partial
    with tempfile.TemporaryDirectory(prefix="geomodel-bench-") as tmp:
        folder = Path(tmp)
        if options.profile:
            profile(options.profile, folder, options.top)
            return 0
        results = []
        for label in options.sizes:
            print(f"size {label}: {SIZES[label]}", flush=True)
            result = measure_size(
                label,
                folder,
                options.repeats,
                not options.no_linopy,
                parse_highs(options.highs or []),
                lambda line: print(line, flush=True),
                options.reference,
                options.linopy_columns,
            )
            result["summary"] = summarise(result)
            results.append(result)
            if options.json:
                options.json.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    print_report(results, load_before)
    return 0 if all(r["summary"]["objectives_agree"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
