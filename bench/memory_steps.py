"""Where geomodel's memory goes before HiGHS solves: RSS step by step, in fresh processes.

Run by hand (not part of the test suite):

    python bench/memory_steps.py            # the 1e6 size of bench/solve_path.py
    python bench/memory_steps.py --size 1e5

Three children, each a fresh Python process, report their resident set size
(MB, /proc/self/statm) after each step:

* ``floor``: numpy and highspy imported, as the floor of bench/solve_path.py has;
* ``variables``: geomodel imported, scenario and inputs built, the model's index
  sets built, then only its Pyomo variables declared (no constraints): what any
  Pyomo model of these columns holds, however its rows are built;
* ``model``: the whole model built (with the collector paused, as geomodel does),
  then handed over to HiGHS (``HighsSession``), not solved.

Issue 7's memory goal is peak RSS <= 1.3x the floor's peak; the floor's peak is
its imports plus HiGHS's copy of the LP and its solver's work, which geomodel's
run holds too. So geomodel's imports, inputs, sets and variables must fit in
0.3x the floor's peak plus the floor's own imports.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402
from solve_path import SIZES  # noqa: E402

from scenarios import synthetic_scenario  # noqa: E402


def _rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(mode: str, scenario_path: str) -> dict[str, float]:
    steps = {"start": _rss_mb()}
    if mode == "floor":
        import highspy  # noqa: F401
        import numpy  # noqa: F401

        steps["imports"] = _rss_mb()
        return steps
    import pyomo.environ as pyo
    from pyomo.common.gc_manager import PauseGC

    from geomodel.api import _build, solver_settings
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.model.basics import IntegerChoices
    from geomodel.model.sets import build_sets
    from geomodel.model.variables import define_variables
    from geomodel.scenario import load_scenario
    from geomodel.solver.highs import HighsSession

    steps["imports"] = _rss_mb()
    catalog = build_catalog()
    inputs = build_inputs(load_scenario(scenario_path, catalog=catalog), catalog)
    steps["inputs"] = _rss_mb()
    if mode == "variables":
        with PauseGC():
            sets = build_sets(inputs)
            steps["sets"] = _rss_mb()
            model = pyo.ConcreteModel()
            define_variables(model, sets, inputs, IntegerChoices())
            steps["variables"] = _rss_mb()
        steps["columns"] = sum(1 for _ in model.component_data_objects(pyo.Var))
        return steps
    model, _, _ = _build(inputs, None, None, "weighted")
    steps["model"] = _rss_mb()
    session = HighsSession(model, solver_settings(inputs, 1))
    steps["handover"] = _rss_mb()
    steps["columns"] = session.highs.getNumCol()
    return steps


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        print(json.dumps(child(argv[1], argv[2])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=list(SIZES), default="1e6")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="geomodel-memory-") as tmp:
        path = Path(tmp) / "scenario.yaml"
        path.write_text(json.dumps(synthetic_scenario(**SIZES[options.size])), encoding="utf-8")
        runs = {mode: run_fresh(__file__, mode, str(path)) for mode in ("floor", "variables", "model")}
    floor, variables, model = runs["floor"], runs["variables"], runs["model"]
    print(f"size {options.size}: {model['columns']:,} columns; RSS in MB after each step")
    print(f"  floor:     imports {floor['imports']:.0f}")
    print(
        f"  geomodel:  imports {variables['imports']:.0f}, inputs {variables['inputs']:.0f}, "
        f"sets {variables['sets']:.0f}, Pyomo variables {variables['variables']:.0f} "
        f"(+{variables['variables'] - variables['sets']:.0f} for {variables['columns']:,} Var, "
        f"{1e6 * (variables['variables'] - variables['sets']) / variables['columns']:.0f} B each)"
    )
    print(
        f"  geomodel:  whole model {model['model']:.0f}, handed over {model['handover']:.0f} "
        f"(+{model['handover'] - model['model']:.0f})"
    )
    before_rows = variables["variables"] - floor["imports"]
    print(
        f"beyond the floor's imports before a single row exists: {before_rows:.0f} MB; the goal "
        f"(1.3x the floor's peak P) allows 0.3 P, so it needs P >= {before_rows / 0.3:.0f} MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
