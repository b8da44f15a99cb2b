"""What the performance model costs in building the examples' inputs: this tree against a
reference tree, in one run.

    python bench/compute_inputs.py --reference /path/to/reference/tree [--repeats 5]

For every example scenario the two trees share, loading the scenario and building its
inputs Dataset (the checks, the serving rates and job MFUs included) runs in fresh
processes, alternating between the trees; the CPU seconds of each (less sensitive to the
machine's load than wall seconds) are compared as medians and their ratio printed. The
reference runs with its own virtual environment's Python (``--reference-python``,
default ``REFERENCE/.venv/bin/python``) and its own example files.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: Runs in a fresh process of the tree under test; prints CPU seconds and wall seconds.
PROGRAM = """
import sys, time
from geomodel.scenario import load_scenario
from geomodel.inputs.build import build_inputs
wall, cpu = time.perf_counter(), time.process_time()
build_inputs(load_scenario(sys.argv[1]))
print(time.process_time() - cpu, time.perf_counter() - wall)
"""


def measure(python: str, tree: Path, scenario: str) -> tuple[float, float]:
    done = subprocess.run(
        [python, "-c", PROGRAM, str(tree / "scenarios" / scenario)],
        capture_output=True,
        text=True,
        cwd=tree,
        check=True,
    )
    cpu, wall = (float(x) for x in done.stdout.split()[-2:])
    return cpu, wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True, help="reference tree (a checkout)")
    parser.add_argument("--reference-python", help="its Python (default: REFERENCE/.venv/bin/python)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    reference_python = args.reference_python or str(args.reference / ".venv" / "bin" / "python")
    examples = sorted(
        p.name
        for p in (HERE / "scenarios").glob("*.yaml")
        if (args.reference / "scenarios" / p.name).exists()
    )
    print(f"{'example':<26} {'reference CPU s':>15} {'this tree CPU s':>15} {'ratio':>7}")
    totals = [0.0, 0.0]
    for example in examples:
        runs: dict[str, list[float]] = {"reference": [], "this": []}
        for _ in range(args.repeats):
            runs["reference"].append(measure(reference_python, args.reference, example)[0])
            runs["this"].append(measure(sys.executable, HERE, example)[0])
        before, after = statistics.median(runs["reference"]), statistics.median(runs["this"])
        totals[0] += before
        totals[1] += after
        print(f"{example:<26} {before:>15.3f} {after:>15.3f} {after / before:>7.3f}")
    print(f"{'all examples':<26} {totals[0]:>15.3f} {totals[1]:>15.3f} {totals[1] / totals[0]:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
