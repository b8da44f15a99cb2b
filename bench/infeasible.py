"""How long geomodel takes to say why a scenario has no plan (issue 13, item 11).

    python bench/infeasible.py                                  # this checkout
    python bench/infeasible.py --reference /path/to/other/src   # side by side with another

Each case is an example scenario with one change that leaves no feasible plan. In a
fresh process per case, the scenario is loaded and its inputs built (not timed), then
``geomodel.api.solve_inputs`` runs: its time is what a user waits between the inputs
and the answer, build, solve and any search for an irreducible infeasible subset
included. The table gives that time, the status and the first line of the
explanation. With ``--reference SRC`` (a folder holding another version's
``geomodel`` package, e.g. ``git archive main geomodel | tar -x -C SRC``) every case
also runs on that version, alternating, and the ratio reference / this is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: case -> (scenario, --set overrides): each has no feasible plan
CASES: dict[str, tuple[str, list[str]]] = {
    # the issue's: 2e27 FLOP in the quickstart's 48 h (357x more than its chips give)
    "work-2e27-flop": ("quickstart", ["training.pretrain.compute=2e27 FLOP"]),
    # Abilene's 43,200 GB200 chips idle draw more than a 20 MW envelope
    "idle-over-envelope": ("quickstart", ["sites.abilene.power_envelope=20 MW"]),
    # a job the chips could do but a 30 MW Abilene envelope cannot power
    "work-over-envelope": (
        "quickstart",
        ["training.pretrain.compute=5e24 FLOP", "sites.abilene.power_envelope=30 MW"],
    ),
    # Abilene off the grid: solar and wind cannot carry its idle chips at night
    "idle-over-supply": ("quickstart", ["sites.abilene.grid_import_limit=0 MW"]),
    # a week-long run of the 100k-GPU example asked to do 100x its work
    "us-100k-work-x100": ("us-100k-gpu", ["training.frontier_pretrain.compute=4.0e27 FLOP"]),
    # east-data-west-compute asked for 10x its MoE pre-training in the week
    "edwc-work-x10": ("east-data-west-compute", ["training.moe_pretrain.compute=3.3e25 FLOP"]),
}


def _child(case: str) -> dict:
    from geomodel.api import solve_inputs
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario

    name, overrides = CASES[case]
    catalog = build_catalog()
    scenario = load_scenario(
        ROOT / "scenarios" / f"{name}.yaml", overrides=list(overrides), catalog=catalog
    )
    inputs = build_inputs(scenario, catalog)
    started = time.perf_counter()
    result = solve_inputs(inputs, host=catalog.host)
    seconds = time.perf_counter() - started
    reasons = [m for m in result.messages if not m.startswith("no solution")]
    return {
        "seconds": seconds,
        "status": result.status,
        "why": reasons[0] if reasons else "",
    }


def run(case: str, source: Path | None) -> dict:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(source), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "_child", case],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(Path.home()) if source is not None else None,  # not this checkout's geomodel
        timeout=900,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{case} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_child":
        print(json.dumps(_child(sys.argv[2])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, help="folder holding another geomodel package")
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    args = parser.parse_args()
    print(
        f"{'case':<20} {'this s':>8} {'status':<11} "
        + (f"{'ref s':>8} {'ref/this':>8} " if args.reference else "")
        + "why (this)"
    )
    for case in args.cases:
        this = run(case, None)
        line = f"{case:<20} {this['seconds']:>8.3f} {this['status']:<11} "
        if args.reference:
            ref = run(case, args.reference.resolve())
            ratio = ref["seconds"] / max(this["seconds"], 1e-9)
            line += f"{ref['seconds']:>8.3f} {ratio:>7.0f}x "
        print(line + this["why"][:110], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
