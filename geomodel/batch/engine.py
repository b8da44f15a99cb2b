"""Run a sweep on Dask: a local cluster by default, or an existing scheduler.

Each case is loaded on the driver first (to validate it and compute its hash),
identical scenarios are solved once, finished ones are skipped, and the rest
are submitted as Dask tasks. A worker writes its case's result and record the
moment it finishes, so killing the driver or a worker loses no finished result:
rerunning the same command completes what is left.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from geomodel.batch.store import (
    COMBINED,
    PARAM,
    check_writable,
    combine,
    finished,
    record_path,
    result_path,
    write_json_atomic,
    write_manifest,
)
from geomodel.batch.sweep import Case, load_sweep
from geomodel.catalog import Catalog, build_catalog
from geomodel.errors import GeomodelError
from geomodel.scenario import load_scenario

SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"


@dataclass
class BatchProgress:
    """Counts shown while a sweep runs."""

    total: int
    done: int = 0
    failed: int = 0
    skipped: int = 0
    running: int = 0
    started: float = field(default_factory=time.perf_counter)

    @property
    def remaining(self) -> int:
        return self.total - self.done - self.failed

    @property
    def eta_seconds(self) -> float | None:
        computed = self.done + self.failed - self.skipped
        if computed <= 0 or self.remaining == 0:
            return None
        return (time.perf_counter() - self.started) / computed * self.remaining


@dataclass
class BatchSummary:
    outdir: Path
    rows: list[dict]

    @property
    def failed(self) -> list[dict]:
        return [r for r in self.rows if r["status"] not in ("optimal", "time_limit")]


@dataclass
class _Task:
    """A unique scenario to solve, and the cases that share it."""

    scenario_hash: str
    case: Case
    epsilon: tuple[str, float] | None = None
    minimise: str = "weighted"


@lru_cache(maxsize=1)
def _worker_catalog() -> Catalog:
    """One catalogue per worker process."""
    return build_catalog()


def solve_case(base: str, task: dict, outdir: str, threads: int) -> dict:
    """Solve one case on a worker and write its result and record; returns the record."""
    from geomodel.api import solve_inputs
    from geomodel.inputs.build import build_inputs

    started = time.perf_counter()
    case = Case.model_validate(task["case"])
    out = Path(outdir)
    record: dict[str, Any] = {
        "hash": task["hash"],
        "case": case.name,
        "worker": f"{socket.gethostname()}:{os.getpid()}",
    }
    try:
        catalog = _worker_catalog()
        scenario = load_scenario(base, variants=case.variants, overrides=case.set, catalog=catalog)
        inputs = build_inputs(scenario, catalog)
        epsilon = tuple(task["epsilon"]) if task.get("epsilon") else None
        result = solve_inputs(
            inputs,
            host=catalog.host,
            epsilon=epsilon,
            minimise=task.get("minimise", "weighted"),
            threads=threads,
        )
        result.to_netcdf(result_path(out, task["hash"]))
        record.update(status=result.status, message="; ".join(result.messages), kpis=result.kpis)
    except GeomodelError as error:
        record.update(status="error", message=str(error), kpis={})
    except Exception as error:  # recorded, so one broken case does not stop the sweep
        record.update(status="error", message=f"{type(error).__name__}: {error}", kpis={})
    record["seconds"] = time.perf_counter() - started
    write_json_atomic(record_path(out, task["hash"]), record)
    return record


def run_batch(
    sweep_path: str | Path,
    outdir: str | Path,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[[BatchProgress], None] | None = None,
) -> BatchSummary:
    """Run every case of a sweep; results land in ``outdir`` as they finish."""
    outdir = Path(outdir)
    check_writable(outdir)
    sweep, base = load_sweep(sweep_path)
    report = progress or (lambda state: None)
    catalog = build_catalog()
    rows, tasks = _plan(sweep.expand(), base, catalog, outdir)
    state = BatchProgress(total=len(rows))
    state.failed = sum(1 for r in rows if r["status"] == "invalid")
    state.done = state.skipped = sum(1 for r in rows if r["status"] not in ("invalid", "pending"))
    report(state)
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV)
    if tasks or sweep.pareto:
        with _client(scheduler, workers) as (client, threads):
            if sweep.pareto:
                tasks = _pareto_tasks(
                    client, sweep.pareto, rows, tasks, base, outdir, threads, state, report
                )
            records = _run(client, tasks, base, outdir, threads, state, report)
        _merge(rows, records)
    write_manifest(outdir, rows)
    combined = combine(outdir)
    if combined.sizes.get("scenario"):
        tmp = outdir / f".{COMBINED}.tmp"
        combined.to_netcdf(tmp, engine="h5netcdf")
        tmp.replace(outdir / COMBINED)
    return BatchSummary(outdir, rows)


def _plan(cases: list[Case], base: Path, catalog: Catalog, outdir: Path) -> tuple[list, list]:
    """Manifest rows for every case, and the unique unfinished scenarios to solve."""
    rows, tasks, seen = [], [], set()
    for case in cases:
        row: dict[str, Any] = {"case": case.name, "variants": ",".join(case.variants)}
        row.update({f"{PARAM}{path}": value for path, value in case.parameters.items()})
        try:
            scenario = load_scenario(base, variants=case.variants, overrides=case.set, catalog=catalog)
        except GeomodelError as error:
            rows.append({**row, "hash": "", "status": "invalid", "message": str(error)})
            continue
        scenario_hash = scenario.origin.scenario_hash
        row["hash"] = scenario_hash
        record = finished(outdir, scenario_hash)
        if record is not None:
            row.update(
                status=record["status"],
                message=record.get("message", ""),
                seconds=record.get("seconds"),
                worker=record.get("worker"),
            )
        else:
            row.update(status="pending", message="")
            if scenario_hash not in seen:
                tasks.append(_Task(scenario_hash, case))
        seen.add(scenario_hash)
        rows.append(row)
    return rows, tasks


class _client:  # noqa: N801 - a context manager used like a function
    """A Dask client on the given scheduler, or on a local cluster sized to the machine."""

    def __init__(self, scheduler: str | None, workers: int | None) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.cluster = None
        self.client = None

    def __enter__(self):
        from dask.distributed import Client, LocalCluster

        cores = os.cpu_count() or 1
        if self.scheduler:
            self.client = Client(self.scheduler, timeout="20s")
            count = len(self.client.scheduler_info().get("workers", {})) or 1
        else:
            count = max(1, self.workers or cores)
            self.cluster = LocalCluster(
                n_workers=count,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            )
            self.client = Client(self.cluster)
        threads = max(1, cores // count)  # HiGHS threads per worker: no oversubscription
        return self.client, threads

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _submit(client, task: _Task, base: Path, outdir: Path, threads: int):
    payload = {
        "hash": task.scenario_hash,
        "case": task.case.model_dump(),
        "epsilon": list(task.epsilon) if task.epsilon else None,
        "minimise": task.minimise,
    }
    return client.submit(
        solve_case,
        str(base),
        payload,
        str(outdir),
        threads,
        key=f"geomodel-{task.scenario_hash}",
        pure=False,
        retries=1,
    )


def _run(
    client, tasks: list[_Task], base: Path, outdir: Path, threads: int, state: BatchProgress, report
) -> dict[str, dict]:
    from dask.distributed import as_completed

    futures = [_submit(client, task, base, outdir, threads) for task in tasks]
    records: dict[str, dict] = {}
    state.running = min(len(futures), max(1, len(client.scheduler_info().get("workers", {}))))
    report(state)
    for future in as_completed(futures):
        task = tasks[futures.index(future)]
        try:
            record = future.result()
        except Exception as error:  # the worker died twice, or the task could not run
            record = {
                "hash": task.scenario_hash,
                "case": task.case.name,
                "status": "error",
                "message": f"{type(error).__name__}: {error}",
            }
        records[task.scenario_hash] = record
        if record["status"] in ("optimal", "time_limit"):
            state.done += 1
        else:
            state.failed += 1
        state.running = min(state.running, state.remaining)
        report(state)
    return records


def _pareto_tasks(client, spec, rows, tasks, base, outdir, threads, state, report) -> list[_Task]:
    """Solve the two ends of the front, then return the epsilon points to run in parallel."""
    import numpy as np

    from geomodel.pareto import PARETO_TERMS

    (row,) = rows
    base_hash = row["hash"]
    case = Case(name="loose")
    ends = [
        _Task(f"{base_hash}-loose", case),
        _Task(f"{base_hash}-tight", Case(name="tight"), minimise=spec.term),
    ]
    todo = [t for t in ends if finished(outdir, t.scenario_hash) is None]
    state.total = spec.points
    _run(client, todo, base, outdir, threads, state, report)
    kpi = PARETO_TERMS[spec.term][0]
    loose, tight = (finished(outdir, t.scenario_hash) or {} for t in ends)
    rows.clear()
    for end, record in zip(ends, (loose, tight), strict=True):
        rows.append(
            {
                "case": end.case.name,
                "hash": end.scenario_hash,
                f"{PARAM}epsilon": None,
                "status": record.get("status", "error"),
                "message": record.get("message", ""),
            }
        )
    if not (loose.get("kpis") and tight.get("kpis")):
        return []
    low, high = float(tight["kpis"][kpi]), float(loose["kpis"][kpi])
    points = []
    for index, bound in enumerate(np.linspace(low, high, spec.points)[:-1]):
        bound = float(bound) if index else low * (1 + 1e-7) + 1e-9
        name = f"point{index:03d}"
        task = _Task(f"{base_hash}-{spec.term}-{bound:.9g}", Case(name=name), (spec.term, bound))
        rows.append(
            {
                "case": name,
                "hash": task.scenario_hash,
                f"{PARAM}epsilon": bound,
                "status": "pending",
                "message": "",
            }
        )
        if finished(outdir, task.scenario_hash) is None:
            points.append(task)
    rows[0][f"{PARAM}epsilon"] = high
    return points


def _merge(rows: list[dict], records: dict[str, dict]) -> None:
    for row in rows:
        record = records.get(row.get("hash", ""))
        if record is not None:
            row.update(
                status=record["status"],
                message=record.get("message", ""),
                seconds=record.get("seconds"),
                worker=record.get("worker"),
            )
        elif row["status"] == "pending":
            row.update(status="error", message="not run")
