"""An existing Dask cluster: `dask scheduler` and two `dask worker` processes on loopback.

The test starts them once per module (on a free port it picks) and always ends
them, whole process groups, in teardown. The workers run in a folder of their
own, so a result written relative to a worker's working folder would be missed.
The Pareto sweep runs here too, its points in parallel on the two workers.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time

import pytest
from sweep_files import DASK, comparable, stop_group, write_sweep

from geomodel.batch import engine
from geomodel.batch.engine import SCHEDULER_ENV, _cluster_threads, _cores, run_batch
from geomodel.batch.store import open_batch, read_record, result_path
from geomodel.batch.sweep import load_sweep
from geomodel.catalog import build_catalog
from geomodel.cli import main
from geomodel.errors import UsageError
from geomodel.inputs.build import build_inputs
from geomodel.pareto import pareto_front
from geomodel.results.result import open_result
from geomodel.scenario import load_scenario

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _log_tails(folder) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(folder.glob("*.log")))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(scheduler address, process ids of the two workers, the workers' working folder)."""
    from dask.distributed import Client

    folder = tmp_path_factory.mktemp("dask")
    elsewhere = folder / "workers-cwd"
    elsewhere.mkdir()
    address = f"tcp://127.0.0.1:{_free_port()}"
    processes: list[subprocess.Popen] = []

    def start(name: str, *args: str) -> None:
        with (folder / f"{name}.log").open("w") as log:
            processes.append(
                subprocess.Popen(
                    [str(DASK), *args],
                    cwd=elsewhere,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group, ended whole in teardown
                )
            )

    try:
        host, port = address.removeprefix("tcp://").split(":")
        # --idle-timeout and --death-timeout: nothing outlives a test run killed before teardown
        start("scheduler", "scheduler", "--host", host, "--port", port, "--no-dashboard",
              "--idle-timeout", "600s")  # fmt: skip
        for index in range(2):
            start(f"worker{index}", "worker", address, "--nthreads", "1", "--nworkers", "1",
                  "--name", f"w{index}", "--no-dashboard", "--death-timeout", "60",
                  "--local-directory", str(folder / f"w{index}"))  # fmt: skip
        try:
            with Client(address, timeout="60s") as client:
                client.wait_for_workers(2, timeout=90)
                pids = set(client.run(os.getpid).values())
        except Exception as error:
            pytest.fail(f"the Dask cluster did not start: {error}\n{_log_tails(folder)}")
        yield address, pids, elsewhere
    finally:
        for process in reversed(processes):
            stop_group(process)


@pytest.fixture
def no_local_cluster(monkeypatch):
    """Fail if the engine starts a LocalCluster instead of using the given scheduler."""
    import dask.distributed

    def refuse(*args, **kwargs):
        raise AssertionError("a LocalCluster was started although a scheduler was given")

    monkeypatch.setattr(dask.distributed, "LocalCluster", refuse)
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)


def _solved_remotely(outdir, rows, pids) -> None:
    for row in rows:
        assert row["status"] == "optimal", row
        assert result_path(outdir, row["hash"]).is_file()
        record = read_record(outdir, row["hash"])
        assert int(record["worker"].rsplit(":", 1)[1]) in pids


def test_run_batch_on_a_running_scheduler(cluster, tmp_path, monkeypatch, no_local_cluster):
    address, pids, elsewhere = cluster
    monkeypatch.chdir(tmp_path)
    sweep = write_sweep(tmp_path, grid={"objective.carbon_price": [0, 50, 100]})
    started = time.perf_counter()
    summary = run_batch(sweep.name, "out", scheduler=address)  # paths relative to our folder
    assert summary.outdir == tmp_path / "out"
    _solved_remotely(tmp_path / "out", summary.rows, pids)
    assert len(summary.rows) == 3
    assert list(elsewhere.iterdir()) == [], "the workers wrote into their own working folder"
    dataset, table = open_batch(tmp_path / "out")
    assert dataset.sizes["scenario"] == 3
    assert dataset["objective.carbon_price"].values.tolist() == [0, 50, 100]
    assert len(table) == 3
    assert time.perf_counter() - started < 120


def test_dask_scheduler_address_from_the_environment(
    cluster, tmp_path, monkeypatch, capsys, no_local_cluster
):
    address, pids, _ = cluster
    monkeypatch.setenv(SCHEDULER_ENV, address)
    sweep = write_sweep(tmp_path, zip={"objective.carbon_price": [0, 100], "time.hours": [4, 5]})
    code = main(["batch", str(sweep), "-o", str(tmp_path / "out"), "--json"])
    output = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [c["case"] for c in output["cases"]] == ["case000", "case001"]
    assert [c["param:time.hours"] for c in output["cases"]] == [4, 5]
    _solved_remotely(tmp_path / "out", output["cases"], pids)


def test_highs_threads_share_each_hosts_cores_among_its_task_slots(cluster):
    from dask.distributed import Client

    address, _, _ = cluster
    with Client(address, timeout="30s") as client:
        # both workers (one thread each) run on this machine
        assert _cluster_threads(client) == max(1, _cores() // 2)


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:9 after 20 s")

    import dask.distributed

    monkeypatch.setattr(dask.distributed, "Client", refuse)
    connect = engine._client("tcp://127.0.0.1:9", None)
    with pytest.raises(UsageError, match=r"--scheduler: cannot connect to the Dask scheduler at"):
        connect.__enter__()


# ----------------------------------------------------------------------- pareto


def test_a_pareto_sweep_runs_point_parallel_and_gives_one_row_per_point(cluster, tmp_path):
    address, pids, _ = cluster
    path = write_sweep(tmp_path, pareto={"term": "latency", "points": 3})
    states: list = []
    summary = run_batch(
        path, tmp_path / "out", scheduler=address, progress=lambda s: states.append((s.done, s.total))
    )
    outdir = tmp_path / "out"
    assert [r["case"] for r in summary.rows] == ["point000", "point001", "loose"]
    _solved_remotely(outdir, summary.rows, pids)
    bounds = [r["param:epsilon"] for r in summary.rows]
    assert bounds == sorted(bounds)
    # the two ends, then the two bounded points, each pair submitted together to two workers
    records = [read_record(outdir, p.stem) for p in (outdir / "results").glob("*.json")]
    assert len(records) == 4
    assert len({r["worker"] for r in records}) == 2
    assert states[-1] == (4, 4)
    dataset, table = open_batch(outdir)
    assert dataset.sizes["scenario"] == 3
    assert dataset["epsilon"].values.tolist() == pytest.approx(bounds)
    assert len(table) == 3

    # the same front as geomodel.pareto.pareto_front on the same scenario, solved here
    catalog = build_catalog()
    sweep, base = load_sweep(path)
    (case,) = sweep.expand()
    scenario = load_scenario(base, overrides=case.set, catalog=catalog)
    assert scenario.time.steps == 6  # the sweep's `set` reaches every point of the front
    front = pareto_front(build_inputs(scenario, catalog), "latency", 3, host=catalog.host)
    assert bounds == pytest.approx(front.bounds, rel=1e-9)
    for row, point in zip(summary.rows, front.points, strict=True):
        record = read_record(outdir, row["hash"])
        assert record["kpis"]["latency_ms_mean"] <= row["param:epsilon"] * (1 + 1e-6)
        assert comparable(record["kpis"]) == pytest.approx(comparable(point.kpis), rel=1e-6)
        stored = open_result(result_path(outdir, row["hash"]))
        assert stored.dataset.attrs["scenario_hash"] == scenario.origin.scenario_hash
        assert stored.inputs.sizes["time"] == 6

    # a rerun finds every point and the ends, and solves nothing
    before = {p.name: p.stat().st_mtime_ns for p in (outdir / "results").iterdir()}
    again = run_batch(path, outdir, scheduler="tcp://127.0.0.1:9")  # unreachable: unused
    assert again.rows == summary.rows
    assert {p.name: p.stat().st_mtime_ns for p in (outdir / "results").iterdir()} == before
