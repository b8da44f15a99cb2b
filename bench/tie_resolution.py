"""What deciding near-ties by cost costs in solve time (issue 13, item 13).

    python bench/tie_resolution.py                      # examples + sizes 1e4 1e5, 3 repeats
    python bench/tie_resolution.py --sizes 1e4 1e5 1e6 --repeats 1

HiGHS calls a plan optimal when no reduced cost is below minus its dual feasibility
tolerance, 1e-7 by default, in the objective's units (geomodel's model: kUSD), so
options 1e-4 USD per chip-hour apart were a tie. Two fixes, each measured against
HiGHS's default ("before") on the very same LP (built once per process, every option
geomodel sets, its ``auto`` method), each variant in a fresh process, alternating:

* ``tolerance`` (what geomodel does): ``dual_feasibility_tolerance`` 1e-9
  (``geomodel.solver.highs.DUAL_FEASIBILITY_TOLERANCE``);
* ``USD objective`` (measured, not adopted): every cost x 1000, the default tolerance.

The table gives the median CPU seconds of HiGHS ``run`` (threads=1: the process's CPU
time, less inflated than wall time on a shared machine), the iterations (simplex, or
IPM + crossover + simplex clean-up: independent of load), the objective, and the
ratios to "before". Cases: the issue's near-tie scenario, the bundled example
scenarios, and bench/scenarios.py's synthetic sizes (as bench/solve_path.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402

#: variant -> (cost factor, dual feasibility tolerance)
VARIANTS = {"before": (1.0, 1e-7), "tolerance": (1.0, None), "USD objective": (1000.0, 1e-7)}
NEAR_TIE = """
name: near-tie
time: {start: "2025-01-01T00:00:00+00:00", hours: 4}
sites:
  a: {lat: 50.0, lon: 10.0, pue: 1.2, availability: 1.0, power_envelope: 10 MW,
      systems: {hgx_h100_8: 10},
      power_sources: {nuclear: {capacity: 5 MW, price: 50.03 USD/MWh, carbon: 0 kgCO2/MWh}}}
  b: {lat: 50.2, lon: 10.0, pue: 1.2, availability: 1.0, power_envelope: 10 MW,
      systems: {hgx_h100_8: 10},
      power_sources: {nuclear: {capacity: 5 MW, price: 50.0 USD/MWh, carbon: 0 kgCO2/MWh}}}
regions: {r: {lat: 50.1, lon: 10.0, demand: {chat: 10e6 token/s}}}
inference: {chat: {flop_per_token: 2e9 FLOP, sla: 50 ms, efficiency: 0.5, precision: fp8}}
solver: {threads: 1}
"""
EXAMPLES = ("quickstart", "us-100k-gpu", "europe-nordics", "east-data-west-compute")


def _inputs(case: str):
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario, load_scenario_text

    catalog = build_catalog()
    if case == "near-tie":
        scenario = load_scenario_text(NEAR_TIE, ROOT, catalog=catalog)
    elif case in EXAMPLES:
        scenario = load_scenario(ROOT / "scenarios" / f"{case}.yaml", catalog=catalog)
    else:
        import tempfile

        import yaml
        from solve_path import SIZES

        from scenarios import synthetic_scenario

        data = synthetic_scenario(**SIZES[case])
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"{case}.yaml"
            path.write_text(yaml.safe_dump(data, sort_keys=False))
            scenario = load_scenario(path, catalog=catalog)
    return build_inputs(scenario, catalog)


def _child(case: str, variant: str) -> dict:
    import highspy

    from geomodel.api import _integer_choices, solver_settings
    from geomodel.model.build import build_model
    from geomodel.solver.highs import (
        DUAL_FEASIBILITY_TOLERANCE,
        METHOD_OPTIONS,
        chosen_method,
        to_highs_lp,
    )

    scale, tolerance = VARIANTS[variant]
    inputs = _inputs(case)
    settings = solver_settings(inputs, threads=1)
    form = to_highs_lp(build_model(inputs, _integer_choices(inputs)))
    form.lp.col_cost_ = form.lp.col_cost_ * scale
    form.lp.offset_ = form.lp.offset_ * scale
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("mip_rel_gap", float(settings.mip_gap))
    highs.setOptionValue("threads", 1)
    highs.setOptionValue(
        "dual_feasibility_tolerance", DUAL_FEASIBILITY_TOLERANCE if tolerance is None else tolerance
    )
    method = chosen_method(settings.method, form)
    for name, value in METHOD_OPTIONS.get(method, {}).items():
        highs.setOptionValue(name, value)
    highs.passModel(form.lp)
    started, cpu_started = time.perf_counter(), time.process_time()
    highs.run()
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    info = highs.getInfo()
    return {
        "columns": len(form.columns),
        "method": method,
        "status": highs.modelStatusToString(highs.getModelStatus()),
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "simplex": int(info.simplex_iteration_count),
        "ipm": int(info.ipm_iteration_count),
        "crossover": int(info.crossover_iteration_count),
        "objective_usd": info.objective_function_value / scale * 1000.0,
    }


def measure(cases: list[str], repeats: int) -> list[dict]:
    rows = []
    for case in cases:
        runs: dict[str, list[dict]] = {label: [] for label in VARIANTS}
        for _ in range(repeats):
            for label in VARIANTS:  # alternate, so load drifts hit every variant
                runs[label].append(run_fresh(__file__, case, label))
        first = runs["before"][0]
        row = {"case": case, "columns": first["columns"], "method": first["method"]}
        for label in VARIANTS:
            one = runs[label][0]
            row[label] = {
                "cpu_seconds": statistics.median(r["cpu_seconds"] for r in runs[label]),
                "seconds": statistics.median(r["seconds"] for r in runs[label]),
                "iterations": _iterations(one),
                "objective_usd": one["objective_usd"],
                "status": one["status"],
            }
        rows.append(row)
        print(_line(row), flush=True)
    return rows


def _iterations(run: dict) -> str:
    """Simplex iterations, or IPM + crossover + simplex clean-up, as HiGHS counts them."""
    if run["ipm"]:
        return f"{run['ipm']}+{run['crossover']}+{run['simplex']}"
    return f"{run['simplex']:,}"


def _line(row: dict) -> str:
    before = row["before"]
    cells = [f"{row['case']:<24} {row['columns']:>9,} {row['method']:<15}"]
    for label in VARIANTS:
        side = row[label]
        ratio = side["cpu_seconds"] / max(before["cpu_seconds"], 1e-9)
        cells.append(
            f"{side['cpu_seconds']:>8.3f} {ratio:>5.2f}x {side['iterations']:>12} "
            f"{side['objective_usd']:>17,.6f}"
        )
    return " | ".join(cells)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_child":
        print(json.dumps(_child(*sys.argv[2:])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["1e4", "1e5"], choices=["1e4", "1e5", "1e6"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    head = " | ".join(f"{label + ': cpu s, ratio, iterations, objective USD':<48}" for label in VARIANTS)
    print(f"{'case':<24} {'columns':>9} {'method':<15} | {head}")
    rows = measure(["near-tie", *EXAMPLES, *args.sizes], args.repeats)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
