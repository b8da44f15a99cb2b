"""Loading job tables: 100,000 rows, CSV and Parquet, read and checked (issue 17 item 1).

Run by hand (not part of the test suite):

    python bench/job_table.py                 # 100,000 rows, 3 fresh loads of each format
    python bench/job_table.py --rows 10000 --repeats 5

Writes a trace-like table (the trace-week generator's statistics, its row drawn
``rows / 2500`` times over) as CSV and Parquet into a temporary folder, with a
five-site scenario that references it, then times ``geomodel.load_scenario`` in
fresh processes: reading, checking every column, the catalogue checks of every
job (windows, chips, gradients) and the scenario hash over the table's bytes.
The catalogue and pint's unit registry are built before the clock starts (once
per process for any scenario). Prints one row per format: median and slowest
wall-clock seconds, the median CPU seconds of the loading process (less
sensitive to a shared machine), rows per second, and the machine's load average
(1, 5, 15 min) beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scenarios" / "data"))

#: five sites on real grid zones, large enough for any of the jobs
SITES = {
    "ashburn": (39.04, -77.49, "grid_us_va_pjm"),
    "abilene": (32.45, -99.73, "grid_us_tx_ercot"),
    "santa_clara": (37.35, -121.95, "grid_us_ca_caiso"),
    "frankfurt": (50.11, 8.68, "grid_de"),
    "lulea": (65.58, 22.15, "grid_se"),
}


def scenario_text(table: str) -> str:
    """A week over the five sites with the job table (JSON is YAML)."""
    sites = {
        name: {
            "lat": lat,
            "lon": lon,
            "grid": grid,
            "power_envelope": "500 MW",
            "pue": 1.2,
            "systems": {"hgx_h100_8": 20000},
        }
        for name, (lat, lon, grid) in SITES.items()
    }
    return json.dumps(
        {
            "time": {"start": "2023-04-03T00:00:00+00:00", "hours": 168},
            "sites": sites,
            "job_tables": {"trace": {"file": table, "system": "hgx_h100_8", "slack": "24 h"}},
        }
    )


LOAD = textwrap.dedent(
    """
    import json, sys, time
    from geomodel.catalog import build_catalog
    from geomodel.scenario import load_scenario
    from geomodel.scenario.units import registry
    catalog = build_catalog()
    registry()  # pint's unit registry: once per process for any scenario, not the table's
    started, cpu = time.perf_counter(), time.process_time()
    scenario = load_scenario(sys.argv[1], catalog=catalog)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    jobs = len(scenario.origin.job_tables["trace"])
    print(json.dumps({"seconds": seconds, "cpu": cpu, "jobs": jobs}))
    """
)


def write_table(folder: Path, rows: int) -> dict[str, Path]:
    """The trace-week statistics drawn for ``rows`` jobs, as CSV and Parquet."""
    from make_trace_week import draw_jobs

    jobs = draw_jobs(n=rows)
    paths = {}
    for fmt in ("csv", "parquet"):
        table = folder / f"jobs.{fmt}"
        if fmt == "csv":
            jobs.to_csv(table, index=False)
        else:
            jobs.to_parquet(table, engine="pyarrow")
        scenario = folder / f"scenario-{fmt}.yaml"
        scenario.write_text(scenario_text(table.name))
        paths[fmt] = scenario
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_table(Path(tmp), args.rows)
        print("| format | rows | median s | slowest s | median CPU s | rows/s | load average |")
        print("|---|---|---|---|---|---|---|")
        for fmt, scenario in paths.items():
            runs = []
            for _ in range(args.repeats):
                out = subprocess.run(
                    [sys.executable, "-c", LOAD, str(scenario)],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
            seconds = [r["seconds"] for r in runs]
            median = statistics.median(seconds)
            cpu = statistics.median(r["cpu"] for r in runs)
            load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
            print(
                f"| {fmt} | {runs[0]['jobs']:,} | {median:.2f} | {max(seconds):.2f} | {cpu:.2f} | "
                f"{runs[0]['jobs'] / median:,.0f} | {load} |"
            )


if __name__ == "__main__":
    main()
