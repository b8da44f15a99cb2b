"""Kill the driver mid-sweep with SIGKILL, then rerun the same command.

`geomodel batch` runs as a subprocess in a session of its own, so that killing
its process group also kills the LocalCluster's scheduler, nanny and worker
processes (nothing may be left running). Every result finished before the kill
must be intact, and the rerun must complete the sweep without touching them.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import time

import pandas as pd
import pytest
from sweep_files import GEOMODEL, comparable, stop_group, write_sweep

from geomodel.batch.store import FINAL_STATUSES, MANIFEST
from geomodel.results.result import open_result

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

#: three cases on one worker: the kill lands after the first record and before the last
#: (each case is a build and solve of seconds, the poll 0.05 s), and the rerun solves the
#: other two on its own worker
PRICES = [0, 35, 70]


def _finished(results) -> dict[str, dict]:
    """hash -> record of every record on disk."""
    return {p.stem: json.loads(p.read_text()) for p in results.glob("*.json")}


def _check_intact(results, records: dict[str, dict]) -> None:
    for scenario_hash, record in records.items():
        assert record["hash"] == scenario_hash
        assert record["status"] in FINAL_STATUSES
        result = open_result(results / f"{scenario_hash}.nc")
        assert result.dataset.attrs["scenario_hash"] == scenario_hash
        assert result.kpis["solver_status"] == record["status"]
        assert comparable(result.kpis) == pytest.approx(comparable(record["kpis"]), nan_ok=True)


def test_a_killed_sweep_loses_no_finished_result_and_the_rerun_completes_it(tmp_path):
    sweep = write_sweep(tmp_path, grid={"objective.carbon_price": PRICES})
    outdir = tmp_path / "out"
    results = outdir / "results"
    command = [str(GEOMODEL), "batch", str(sweep), "-o", str(outdir), "--workers", "1"]

    with (tmp_path / "first.log").open("w") as log:
        driver = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 150
        while not any(results.glob("*.json")):
            assert driver.poll() is None, (tmp_path / "first.log").read_text()
            assert time.monotonic() < deadline, "no case finished in time"
            time.sleep(0.05)
        os.killpg(driver.pid, signal.SIGKILL)  # the driver and its whole local cluster
        assert driver.wait(timeout=30) == -signal.SIGKILL
    finally:
        stop_group(driver)

    done_before = _finished(results)
    assert 1 <= len(done_before) < len(PRICES), "the kill must land mid-sweep"
    _check_intact(results, done_before)
    # a result without its record is an unfinished write: allowed, and redone on the rerun
    assert set(done_before) <= {p.stem for p in results.glob("*.nc")}
    mtimes = {
        name: (results / name).stat().st_mtime_ns
        for h in done_before
        for name in (f"{h}.json", f"{h}.nc")
    }

    rerun = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=200)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    cases = json.loads(rerun.stdout)["cases"]
    assert [c["param:objective.carbon_price"] for c in cases] == PRICES
    assert {c["status"] for c in cases} == {"optimal"}

    done_after = _finished(results)
    assert len(done_after) == len(PRICES)
    assert done_before.items() <= done_after.items()  # the finished records are unchanged
    assert {name: (results / name).stat().st_mtime_ns for name in mtimes} == mtimes
    _check_intact(results, done_after)
    manifest = pd.read_csv(outdir / MANIFEST)
    assert len(manifest) == len(PRICES)
    assert set(manifest["hash"]) == set(done_after)
    # the rerun's own worker solved the rest, not the killed one
    rerun_workers = {done_after[h]["worker"] for h in set(done_after) - set(done_before)}
    assert rerun_workers.isdisjoint({r["worker"] for r in done_before.values()})
    assert not math.isnan(manifest["seconds"].max())
