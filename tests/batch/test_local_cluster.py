"""A real Dask LocalCluster (two worker processes) runs a small grid sweep end to end.

The sweep runs once per module; the tests read its output folder. The rerun
must not start a cluster at all: ``_client`` is replaced by one that fails.
"""

from __future__ import annotations

import dataclasses
import os

import pandas as pd
import pytest
import xarray as xr
from sweep_files import QUICKSTART, comparable, write_sweep

from geomodel.api import solve
from geomodel.batch import engine, open_batch, run_batch  # the public names
from geomodel.batch.store import MANIFEST, read_record, result_path
from geomodel.batch.sweep import load_sweep
from geomodel.catalog import build_catalog
from geomodel.results.result import open_result
from geomodel.scenario import load_scenario

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

GRID = {"objective.carbon_price": [0, 100], "inference.chat.sla": ["25 ms", "20 ms"]}


def _recorder(states: list):
    return lambda state: states.append(dataclasses.replace(state))


@pytest.fixture
def no_cluster(monkeypatch):
    """Fail if the engine tries to start or reach a cluster."""

    def refuse(*args, **kwargs):
        raise AssertionError("a rerun with every case finished must not start a cluster")

    monkeypatch.setattr(engine, "_client", refuse)


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grid")
    path = write_sweep(folder, grid=GRID)
    states: list = []
    summary = run_batch(path, folder / "out", workers=2, progress=_recorder(states))
    return path, folder / "out", summary, states


def _mtimes(outdir):
    return {p.name: p.stat().st_mtime_ns for p in (outdir / "results").iterdir()}


# ------------------------------------------------------------------------- grid


def test_every_case_is_solved_on_a_worker_and_written(grid_run):
    _, outdir, summary, _ = grid_run
    assert summary.failed == []
    assert [r["case"] for r in summary.rows] == ["case000", "case001", "case002", "case003"]
    assert len({r["hash"] for r in summary.rows}) == 4
    for row in summary.rows:
        assert row["status"] == "optimal"
        assert result_path(outdir, row["hash"]).is_file()
        record = read_record(outdir, row["hash"])
        assert record["hash"] == row["hash"]
        assert record["case"] == row["case"]
        assert record["status"] == "optimal"
        assert record["seconds"] > 0
        assert record["kpis"]["cost_usd"] > 0
        pid = int(record["worker"].rsplit(":", 1)[1])
        assert pid != os.getpid(), "solved on a worker process, not in the driver"
    # no temporary file is left behind
    assert sorted(p.suffix for p in (outdir / "results").iterdir()) == [".json"] * 4 + [".nc"] * 4


def test_the_manifest_has_one_row_per_case_with_its_parameters(grid_run):
    _, outdir, summary, _ = grid_run
    manifest = pd.read_csv(outdir / MANIFEST)
    assert len(manifest) == 4
    assert manifest["case"].tolist() == ["case000", "case001", "case002", "case003"]
    assert manifest["param:objective.carbon_price"].tolist() == [0, 0, 100, 100]
    assert manifest["param:inference.chat.sla"].tolist() == ["25 ms", "20 ms"] * 2
    assert manifest["hash"].tolist() == [r["hash"] for r in summary.rows]
    assert set(manifest["status"]) == {"optimal"}
    assert {"message", "seconds", "worker"} <= set(manifest.columns)


def test_open_batch_gives_a_scenario_dimension_and_a_kpi_table(grid_run):
    _, outdir, summary, _ = grid_run
    dataset, table = open_batch(outdir)
    assert dataset.sizes["scenario"] == 4
    assert dataset["scenario"].values.tolist() == ["case000", "case001", "case002", "case003"]
    assert dataset["objective.carbon_price"].dims == ("scenario",)
    assert dataset["objective.carbon_price"].values.tolist() == [0, 0, 100, 100]
    assert dataset["inference.chat.sla"].values.tolist() == ["25 ms", "20 ms"] * 2
    # one scenario's slice is that scenario's own result
    for index, row in enumerate(summary.rows):
        own = open_result(result_path(outdir, row["hash"])).dataset
        for name in ("facility_power_mw", "served_tokens_per_s"):
            if name in own:
                xr.testing.assert_allclose(dataset[name].isel(scenario=index, drop=True), own[name])
    assert len(table) == 4
    assert table["case"].tolist() == ["case000", "case001", "case002", "case003"]
    for index, row in enumerate(summary.rows):
        record = read_record(outdir, row["hash"])
        assert table["cost_usd"][index] == pytest.approx(record["kpis"]["cost_usd"])
        assert float(dataset["kpi_cost_usd"][index]) == pytest.approx(record["kpis"]["cost_usd"])
    # the same Dataset is on disk
    with xr.open_dataset(outdir / "combined.nc", engine="h5netcdf") as stored:
        assert stored.sizes["scenario"] == 4
        assert stored["objective.carbon_price"].values.tolist() == [0, 0, 100, 100]


def test_the_kpis_equal_an_independent_solve_of_each_case(grid_run):
    path, outdir, summary, _ = grid_run
    catalog = build_catalog()
    sweep, base = load_sweep(path)
    assert base == QUICKSTART
    for case, row in zip(sweep.expand(), summary.rows, strict=True):
        scenario = load_scenario(QUICKSTART, overrides=case.set, catalog=catalog)
        assert scenario.origin.scenario_hash == row["hash"]
        alone = solve(scenario, catalog=catalog)
        record = read_record(outdir, row["hash"])
        assert record["kpis"].keys() == alone.kpis.keys()
        assert record["kpis"]["solver_status"] == alone.kpis["solver_status"] == "optimal"
        assert comparable(record["kpis"]) == pytest.approx(comparable(alone.kpis), rel=1e-6)


def test_progress_reports_every_case(grid_run):
    *_, states = grid_run
    assert states[0].total == 4
    assert (states[0].done, states[0].failed) == (0, 0)
    last = states[-1]
    assert (last.done, last.failed, last.skipped, last.remaining, last.running) == (4, 0, 0, 0, 0)
    assert max(s.running for s in states) == 2


def test_a_rerun_skips_every_finished_case(grid_run, no_cluster):
    path, outdir, summary, _ = grid_run
    before = _mtimes(outdir)
    states: list = []
    again = run_batch(path, outdir, workers=2, progress=_recorder(states))
    assert [(r["case"], r["hash"], r["status"]) for r in again.rows] == [
        (r["case"], r["hash"], r["status"]) for r in summary.rows
    ]
    assert (states[-1].done, states[-1].skipped, states[-1].remaining) == (4, 4, 0)
    assert _mtimes(outdir) == before
