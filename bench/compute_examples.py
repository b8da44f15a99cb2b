"""Every example's fleet, cost and emissions in this tree against a reference tree.

    python bench/compute_examples.py --reference /path/to/reference/tree [--markdown]

Solves each example scenario the two trees share (each with its own example files,
catalogue and code: the reference with ``REFERENCE/.venv/bin/python``) and prints, per
example, the chips that worked at peak (operational examples) or were built (plans), the
energy cost (or the total yearly cost of a plan), emissions and unserved demand, before
and after. docs/compute.md quotes its table for the performance model's change.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: Runs in a fresh process of a tree; prints the figures as JSON.
PROGRAM = """
import json, sys
import numpy as np
from geomodel import load_scenario, solve
result = solve(load_scenario(sys.argv[1]))
k, ds = result.kpis, result.dataset
plan = "built_chips" in ds
working = ds["training_chips"].sum(["job", "site", "system"]) + ds["inference_chips"].sum(
    ["service", "site", "system"]
)
chips = float(ds["built_chips"].sum()) if plan else float(working.max())
print(json.dumps({
    "plan": bool(plan),
    "chips": chips,
    "cost": float(k["total_cost_usd_per_year"] if plan else k["cost_usd"]),
    "emissions": float(k["emissions_tco2"]),
    "unserved": float(k["unserved_fraction"]) if np.isfinite(k["unserved_fraction"]) else 0.0,
}))
"""


def figures(python: str, tree: Path, scenario: str) -> dict:
    done = subprocess.run(
        [python, "-c", PROGRAM, str(tree / "scenarios" / scenario)],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True, help="reference tree (a checkout)")
    parser.add_argument("--reference-python", help="its Python (default: REFERENCE/.venv/bin/python)")
    args = parser.parse_args(argv)
    reference_python = args.reference_python or str(args.reference / ".venv" / "bin" / "python")
    examples = sorted(
        p.name
        for p in (HERE / "scenarios").glob("*.yaml")
        if (args.reference / "scenarios" / p.name).exists()
    )
    print(
        "| example | chips (peak working, or built) | cost (USD; a plan's a year) | emissions (tCO2e) "
        "| unserved |\n|---|---|---|---|---|"
    )
    for example in examples:
        before = figures(reference_python, args.reference, example)
        after = figures(sys.executable, HERE, example)
        cost = after["cost"] / before["cost"] - 1
        emissions = after["emissions"] / before["emissions"] - 1
        print(
            f"| {example.removesuffix('.yaml')} | {before['chips']:,.0f} -> {after['chips']:,.0f} "
            f"| {before['cost']:,.0f} -> {after['cost']:,.0f} ({cost:+.0%}) "
            f"| {before['emissions']:,.0f} -> {after['emissions']:,.0f} ({emissions:+.0%}) "
            f"| {before['unserved']:.1%} -> {after['unserved']:.1%} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
