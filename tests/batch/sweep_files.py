"""Helpers of the batch tests: tiny sweeps over the quickstart, and process clean-up."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from geomodel.results.kpis import KPI_SPECS

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "scenarios" / "quickstart.yaml"
GEOMODEL = Path(sys.executable).with_name("geomodel")
DASK = Path(sys.executable).with_name("dask")

#: The quickstart cut to 6 hours, with a training job small enough to finish in them
#: (its 2e24 FLOP need the full 48 hours), and HiGHS on one thread.
TINY: dict[str, Any] = {
    "time.hours": 6,
    "solver.threads": 1,
    "training.pretrain.compute": "1e22 FLOP",
}
#: What the KPI comparisons leave out: every KPI in seconds is a wall-clock time (build,
#: solve, relaxation), which differs from run to run.
TIMINGS = frozenset(name for name, (unit, _) in KPI_SPECS.items() if unit == "s")


def write_sweep(folder: Path, name: str = "sweep.yaml", **fields: Any) -> Path:
    """A sweep file over the quickstart with TINY applied to every case (JSON is YAML)."""
    document = {"name": Path(name).stem, "base": str(QUICKSTART), "set": dict(TINY)}
    extra_set = fields.pop("set", {})
    document["set"].update(extra_set)
    document.update(fields)
    path = folder / name
    path.write_text(json.dumps(document, indent=1), encoding="utf-8")
    return path


def comparable(kpis: dict) -> dict:
    """The numeric KPIs without the timings, for pytest.approx."""
    return {
        k: v
        for k, v in kpis.items()
        if k not in TIMINGS and isinstance(v, int | float) and not isinstance(v, bool)
    }


def stop_group(process: subprocess.Popen, timeout: float = 10) -> None:
    """End a process started with start_new_session=True and everything it started."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):  # children may outlive their leader
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=timeout)
