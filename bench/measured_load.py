"""What loading the measured grid series adds to ``geomodel run scenarios/quickstart.yaml``.

    python bench/measured_load.py [--repeats 7]

Side by side, alternating, in fresh processes: the quickstart as shipped (measured
ERCOT and PJM series) and with ``--set signals.grid_series=shaped`` (no measured
series read). Two measurements:

* the whole command, ``geomodel run scenarios/quickstart.yaml`` (wall clock,
  process start to exit, output written to a temporary file);
* inside one process, loading the scenario and building the inputs Dataset, the
  stage that reads the archive (``_child`` mode);
* inside one process under cProfile, the time spent in the code that reads, fills and
  aligns the measured year (``MEASURED_CODE``: the archive's arrays inflated, the
  catalogue's annual means taken from them, the series put on the horizon), counted
  once per call from outside that code (``_profile`` mode). The shaped run pays part of
  it too (the built-in catalogue's annual figures and basis labels come from the
  archive), which the difference measured - shaped cannot see; this column can, and it
  is far less exposed to the machine's load than a difference of wall clocks.

Prints medians and minima and the differences measured - shaped, with the machine load
(``os.getloadavg``) before and after. The target of issue #14: measured series add
at most 0.3 s to the run. Not a timed test: the lead re-runs it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402

QUICKSTART = REPO / "scenarios" / "quickstart.yaml"
GEOMODEL = Path(sys.executable).with_name("geomodel")
MODES = ("shaped", "measured")
#: source files of the measured-data path (archive, fill, weekday rule, per-site series)
MEASURED_CODE = ("plugins/measured.py", "plugins/power/grid_measured.py", "plugins/weather.py")
MEASURED_CODE += ("geomodel/inputs/grid_signals.py",)


def _child(series: str) -> None:
    started = time.perf_counter()
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario

    imported = time.perf_counter()
    scenario = load_scenario(QUICKSTART, overrides={"signals.grid_series": series})
    loaded = time.perf_counter()
    build_inputs(scenario)
    built = time.perf_counter()
    print(
        json.dumps(
            {"import_s": imported - started, "load_s": loaded - imported, "inputs_s": built - loaded}
        )
    )


def _profile(series: str) -> None:
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.enable()
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario

    build_inputs(load_scenario(QUICKSTART, overrides={"signals.grid_series": series}))
    profile.disable()
    stats = pstats.Stats(profile).stats

    def inside(function: tuple) -> bool:
        return any(function[0].replace(os.sep, "/").endswith(code) for code in MEASURED_CODE)

    # cumulative time of each call into the measured-data code from outside it
    seconds = sum(
        cumulative
        for function, (*_, callers) in stats.items()
        if inside(function)
        for caller, (_, _, _, cumulative) in callers.items()
        if not inside(caller)
    )
    print(json.dumps({"measured_code_s": seconds}))


def run_command(series: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        command = [str(GEOMODEL), "run", str(QUICKSTART), "-o", str(Path(folder) / "out.nc")]
        if series == "shaped":
            command += ["--set", "signals.grid_series=shaped"]
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env, cwd=REPO)
        return time.perf_counter() - started


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    runs = {mode: [] for mode in MODES}
    stages = {mode: [] for mode in MODES}
    inside = {mode: [] for mode in MODES}
    for _ in range(args.repeats):
        for mode in MODES:  # alternate, so drifting load hits both alike
            runs[mode].append(run_command(mode))
            child = run_fresh(__file__, mode)
            stages[mode].append(child["load_s"] + child["inputs_s"])
            inside[mode].append(run_fresh(__file__, mode, "_profile")["measured_code_s"])
    load_after = os.getloadavg()[0]
    print(f"geomodel run scenarios/quickstart.yaml, {args.repeats} alternating repeats, medians")
    print(
        f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after; {os.cpu_count()} cores"
    )
    print()
    print(
        "| grid series | whole run s, median (min) | load + build inputs s, median (min) "
        "| in measured-data code s, median (min) |"
    )
    print("|---|---|---|---|")
    stats = {
        mode: [(statistics.median(x), min(x)) for x in (runs[mode], stages[mode], inside[mode])]
        for mode in MODES
    }
    for mode in MODES:
        cells = [f"{median:.3f} ({low:.3f})" for median, low in stats[mode]]
        print(f"| {mode} | {' | '.join(cells)} |")
    added = [
        f"{stats['measured'][i][0] - stats['shaped'][i][0]:+.3f} "
        f"({stats['measured'][i][1] - stats['shaped'][i][1]:+.3f})"
        for i in range(3)
    ]
    print(f"| measured - shaped | {' | '.join(added)} |")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_child":
        (_profile if sys.argv[3:] == ["_profile"] else _child)(sys.argv[2])
    else:
        main(sys.argv[1:])
