"""Job classes: model size, build and solve of trace workloads before and after merging.

Run by hand (not part of the test suite); each run is a fresh process, one at a time:

    python bench/job_classes.py                          # 2,500 and 10,000 jobs, slack 0 and 24 h
    python bench/job_classes.py --jobs 2500 --slack 24 --main /work/main
    python bench/job_classes.py --jobs 10000 --slack 0 24 --json classes.json

The workload is issue 17's setting: trace-like jobs (the trace-week generator,
scenarios/data/make_trace_week.py, drawn for ``--jobs`` jobs) over five sites
on real grid zones for 192 h, every job free to run at any site (geographic
shifting), from its arrival to its earliest finish + ``--slack`` hours, each
site with the trace-week's servers scaled to the number of jobs. Data movement
and idle shedding are left out so that every model below solves the same LP:

* ``main``: geomodel without job tables (``--main PATH``, a checkout of the
  code before issue 17): every job written out in YAML (compute in EFLOP,
  restart 0 so goodput is 1 as for a measured trace, a gradient size it
  demanded), through its own ``build_inputs``, ``_build`` and ``solve_model``;
* ``alone``: this code, the job table, ``solver.merge_jobs: false``;
* ``merged``: this code, the job table, job classes (the default).

Per run: the model's columns and rows (Pyomo variables and constraints), the
classes the model sees, build seconds (inputs + model, as ``solve`` times it
plus ``build_inputs``), solve seconds (hand-over + HiGHS) and the objective,
which must agree across the three to 1e-6. Prints a Markdown table with the
ratios to ``alone`` and the load average beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scenarios" / "data"))

HOURS = 192
START = "2023-04-03T00:00:00+00:00"
#: trace-week's sites and servers for its 2,500 jobs (scenarios/trace-week.yaml)
SITES = {
    "ashburn": (39.04, -77.49, "grid_us_va_pjm", 1.3, 25),
    "abilene": (32.45, -99.73, "grid_us_tx_ercot", 1.14, 12),
    "santa_clara": (37.35, -121.95, "grid_us_ca_caiso", 1.3, 16),
    "frankfurt": (50.11, 8.68, "grid_de", 1.3, 11),
    "lulea": (65.58, 22.15, "grid_se", 1.1, 11),
}
EFLOP_PER_GPU_HOUR = 0.989 * 0.4 * 3.6  # H100 dense BF16 x MFU 0.4 x 3.6

RUN = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path
    import pyomo.environ as pyo
    from geomodel import api
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario
    from geomodel.solver.highs import solve_model
    catalog = build_catalog()
    scenario = load_scenario(sys.argv[1], catalog=catalog)
    started = time.perf_counter()
    inputs = build_inputs(scenario, catalog)
    inputs_s = time.perf_counter() - started
    model, _, build_s = api._build(inputs, catalog.host, None, "weighted")
    outcome = solve_model(model, api.solver_settings(inputs))
    print(json.dumps({
        "status": outcome.status,
        "objective": outcome.objective,
        "columns": model.nvariables(),
        "rows": model.nconstraints(),
        "jobs": inputs.sizes["job"],
        "build_s": inputs_s + build_s,
        "solve_s": outcome.handover_seconds + outcome.solve_seconds,
    }))
    """
)


def workload(n_jobs: int) -> tuple[pd.DataFrame, dict]:
    """The jobs (table rows) and the sites scaled to them."""
    from make_trace_week import draw_jobs

    jobs = draw_jobs(n=n_jobs)[["name", "arrival", "duration_h", "chips"]]
    scale = n_jobs / 2500
    sites = {
        name: {
            "lat": lat,
            "lon": lon,
            "grid": grid,
            "power_envelope": "100 MW",
            "pue": pue,
            "systems": {"hgx_h100_8": round(servers * scale)},
        }
        for name, (lat, lon, grid, pue, servers) in SITES.items()
    }
    return jobs, sites


def scenario_text(sites: dict, body: dict, **solver) -> str:
    data = {
        "time": {"start": START, "hours": HOURS},
        "sites": sites,
        "solver": {"threads": 1, "time_limit": "3600 s", **solver},
        **body,
    }
    return json.dumps(data)  # JSON is YAML


def yaml_jobs(jobs: pd.DataFrame, slack_h: float) -> dict:
    """The table's jobs written out as the pre-table YAML needs them (windows widened to
    whole hours as job tables widen them)."""
    import numpy as np

    arrival = (pd.to_datetime(jobs["arrival"]) - pd.Timestamp(START)).dt.total_seconds() / 3600
    start = np.floor(arrival.to_numpy() + 1e-9)
    end = np.minimum(np.ceil(arrival.to_numpy() + jobs["duration_h"].to_numpy() + slack_h - 1e-9), HOURS)
    base = pd.Timestamp(START)
    training = {}
    for row, a, b in zip(jobs.itertuples(), start, end, strict=True):
        training[row.name] = {
            "compute": float(row.duration_h * row.chips * EFLOP_PER_GPU_HOUR),
            "max_chips": int(row.chips),
            "gradient_size": "1 GB",
            "restart": 0,
            "window": {
                "start": (base + pd.Timedelta(hours=float(a))).isoformat(),
                "end": (base + pd.Timedelta(hours=float(b))).isoformat(),
            },
        }
    return training


def run(scenario: Path, pythonpath: str | None) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run(  # from the scenario's folder: "-c" puts the current folder first on the path
        [sys.executable, "-c", RUN, str(scenario)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=scenario.parent,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[2500, 10000])
    parser.add_argument("--slack", type=float, nargs="+", default=[0.0, 24.0])
    parser.add_argument("--main", type=Path, help="a checkout of geomodel before job tables")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows = []
    print(
        "| jobs | slack h | run | classes | columns | rows | build s | solve s | objective USD | "
        "columns / alone | build / alone | solve / alone | load average |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for n_jobs in args.jobs:
            for slack in args.slack:
                jobs, sites = workload(n_jobs)
                jobs.to_csv(folder / "jobs.csv", index=False)
                table = {"file": "jobs.csv", "system": "hgx_h100_8", "slack": f"{slack} h"}
                runs = {}
                if args.main:
                    path = folder / "main.yaml"
                    path.write_text(scenario_text(sites, {"training": yaml_jobs(jobs, slack)}))
                    runs["main"] = run(path, str(args.main))
                for label, merge in (("alone", False), ("merged", True)):
                    path = folder / f"{label}.yaml"
                    body = {"job_tables": {"trace": table}}
                    path.write_text(scenario_text(sites, body, merge_jobs=merge))
                    runs[label] = run(path, None)
                alone = runs["alone"]
                for label, r in runs.items():
                    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
                    figures = [
                        f"{n_jobs:,}",
                        f"{slack:g}",
                        label,
                        f"{r['jobs']:,}",
                        f"{r['columns']:,}",
                        f"{r['rows']:,}",
                        f"{r['build_s']:.1f}",
                        f"{r['solve_s']:.1f}",
                        f"{r['objective'] * 1000:,.2f}",
                        f"{r['columns'] / alone['columns']:.3f}",
                        f"{r['build_s'] / alone['build_s']:.2f}",
                        f"{r['solve_s'] / alone['solve_s']:.2f}",
                        load,
                    ]
                    print("| " + " | ".join(figures) + " |", flush=True)
                    rows.append({"jobs": n_jobs, "slack_h": slack, "run": label, **r})
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
