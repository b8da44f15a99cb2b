"""What handing HiGHS the objective in USD instead of kUSD costs (issue 13, item 13).

    python bench/tie_resolution.py                      # examples + sizes 1e4 1e5, 3 repeats
    python bench/tie_resolution.py --sizes 1e4 1e5 1e6 --repeats 1

HiGHS calls a plan optimal when no reduced cost is below -1e-7 in the units it is given.
geomodel's model keeps costs in kUSD; ``geomodel.solver.highs.OBJECTIVE_SCALE`` (1000)
hands them to HiGHS in USD, so options 1e-4 USD per chip-hour apart are no longer a tie.
For each case the very same LP (built once per process, every option geomodel sets,
its ``auto`` method) is solved with the objective in kUSD ("before") and in USD ("after"),
each in a fresh process, alternating, and the table gives the median HiGHS ``run``
seconds, the iterations (simplex, IPM, crossover: load-independent), the objective, and
the ratios after / before. Cases: the issue's near-tie scenario, the bundled example
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

SCALES = {"before (kUSD)": 1.0, "after (USD)": 1000.0}
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


def _child(case: str, scale: str) -> dict:
    import highspy

    from geomodel.api import _integer_choices, solver_settings
    from geomodel.model.build import build_model
    from geomodel.solver.highs import METHOD_OPTIONS, OBJECTIVE_SCALE, chosen_method, to_highs_lp

    inputs = _inputs(case)
    settings = solver_settings(inputs, threads=1)
    form = to_highs_lp(build_model(inputs, _integer_choices(inputs)))
    factor = float(scale) / OBJECTIVE_SCALE  # to_highs_lp hands over in OBJECTIVE_SCALE units
    form.lp.col_cost_ = form.lp.col_cost_ * factor
    form.lp.offset_ = form.lp.offset_ * factor
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("mip_rel_gap", float(settings.mip_gap))
    highs.setOptionValue("threads", 1)
    method = chosen_method(settings.method, form)
    for name, value in METHOD_OPTIONS.get(method, {}).items():
        highs.setOptionValue(name, value)
    highs.passModel(form.lp)
    started = time.perf_counter()
    highs.run()
    seconds = time.perf_counter() - started
    info = highs.getInfo()
    return {
        "columns": len(form.columns),
        "method": method,
        "status": highs.modelStatusToString(highs.getModelStatus()),
        "seconds": seconds,
        "simplex": int(info.simplex_iteration_count),
        "ipm": int(info.ipm_iteration_count),
        "crossover": int(info.crossover_iteration_count),
        "objective_kusd": info.objective_function_value / float(scale),
    }


def measure(cases: list[str], repeats: int) -> list[dict]:
    rows = []
    for case in cases:
        runs: dict[str, list[dict]] = {label: [] for label in SCALES}
        for _ in range(repeats):
            for label, scale in SCALES.items():  # alternate, so load drifts hit both
                runs[label].append(run_fresh(__file__, case, str(scale)))
        row = {"case": case, "columns": runs["after (USD)"][0]["columns"]}
        row["method"] = runs["after (USD)"][0]["method"]
        for label in SCALES:
            first = runs[label][0]
            row[label] = {
                "seconds": statistics.median(r["seconds"] for r in runs[label]),
                "iterations": first["simplex"] + first["ipm"] + first["crossover"],
                "objective_usd": first["objective_kusd"] * 1000.0,
                "status": first["status"],
            }
        before, after = row["before (kUSD)"], row["after (USD)"]
        row["time_ratio"] = after["seconds"] / max(before["seconds"], 1e-9)
        row["iteration_ratio"] = after["iterations"] / max(before["iterations"], 1)
        row["objective_change"] = (after["objective_usd"] - before["objective_usd"]) / max(
            abs(before["objective_usd"]), 1e-12
        )
        rows.append(row)
        print(_line(row), flush=True)
    return rows


def _line(row: dict) -> str:
    b, a = row["before (kUSD)"], row["after (USD)"]
    return (
        f"{row['case']:<24} {row['columns']:>9,} {row['method']:<15} "
        f"{b['seconds']:>9.3f} {a['seconds']:>9.3f} {row['time_ratio']:>6.2f}x "
        f"{b['iterations']:>8,} {a['iterations']:>8,} {row['iteration_ratio']:>6.2f}x "
        f"{b['objective_usd']:>16,.6f} {a['objective_usd']:>16,.6f} {row['objective_change']:>+9.1e}"
    )


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_child":
        print(json.dumps(_child(*sys.argv[2:])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", default=["1e4", "1e5"], choices=["1e4", "1e5", "1e6"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    print(
        f"{'case':<24} {'columns':>9} {'method':<15} {'s before':>9} {'s after':>9} {'ratio':>7} "
        f"{'it before':>8} {'it after':>8} {'ratio':>7} {'objective before':>16} "
        f"{'objective after':>16} {'change':>9}"
    )
    rows = measure(["near-tie", *EXAMPLES, *args.sizes], args.repeats)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
