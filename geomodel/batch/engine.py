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
    NO_SOLUTION,
    PARAM,
    check_writable,
    combine,
    finished,
    read_record,
    record_path,
    result_path,
    write_json_atomic,
    write_manifest,
)
from geomodel.batch.sweep import Case, load_sweep
from geomodel.catalog import Catalog, build_catalog
from geomodel.errors import GeomodelError, UsageError
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
    #: how many cases of the sweep resolve to this scenario (identical ones are solved once)
    cases: int = 1


@lru_cache(maxsize=1)
def _worker_catalog() -> Catalog:
    """One catalogue per worker process."""
    return build_catalog()


def solve_case(base: str, task: dict, outdir: str, threads: int) -> dict:
    """Solve one case on a worker and write its result and record; returns the record."""
    import dask

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
        # Inside a Dask worker xarray guards each variable it writes with a distributed.Lock,
        # two round trips to the scheduler per variable (some 0.15 s per case, and load on
        # the scheduler). Each task writes a file of its own: a thread lock is enough, and
        # xarray takes one when the scheduler in effect is not a distributed Client.
        with dask.config.set(scheduler="synchronous"):
            result.to_netcdf(result_path(out, task["hash"]))
        status = result.status
        if status == "time_limit" and not result.has_solution:
            status = NO_SOLUTION  # stopped before HiGHS found a feasible plan: nothing to show
        record.update(status=status, message="; ".join(result.messages), kpis=result.kpis)
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
    # absolute, because the workers of a remote cluster do not share our working folder
    outdir = Path(outdir).resolve()
    check_writable(outdir)
    sweep, base = load_sweep(sweep_path)
    report = progress or (lambda state: None)
    catalog = build_catalog()
    cases = sweep.expand()
    rows, tasks = _plan(cases, base, catalog, outdir)
    state = BatchProgress(total=len(rows))
    state.failed = sum(1 for r in rows if r["status"] == "invalid")
    state.done = state.skipped = sum(1 for r in rows if r["status"] not in ("invalid", "pending"))
    pareto = sweep.pareto if sweep.pareto and rows[0]["status"] != "invalid" else None
    records: dict[str, dict] = {}
    points_to_plan = pareto is not None
    if pareto:
        tasks = _pareto_plan(pareto, cases[0], rows, outdir, state)
        if not tasks:  # both ends were solved before: the bounds of the points are known
            tasks = _pareto_points(pareto, cases[0], rows, outdir, state, records)
            points_to_plan = False
    report(state)
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV)
    if tasks:
        with _client(scheduler, workers) as (client, threads):
            records = _run(client, tasks, base, outdir, threads, state, report)
            if points_to_plan:  # the ends are solved now; run the points in parallel
                points = _pareto_points(pareto, cases[0], rows, outdir, state, records)
                records.update(_run(client, points, base, outdir, threads, state, report))
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
    rows: list[dict] = []
    tasks: dict[str, _Task] = {}
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
            if scenario_hash in tasks:
                tasks[scenario_hash].cases += 1
            else:
                tasks[scenario_hash] = _Task(scenario_hash, case)
        rows.append(row)
    return rows, list(tasks.values())


class _client:  # noqa: N801 - a context manager used like a function
    """A Dask client on the given scheduler, or on a local cluster sized to the machine."""

    def __init__(self, scheduler: str | None, workers: int | None) -> None:
        self.scheduler = scheduler
        self.workers = workers
        self.cluster = None
        self.client = None

    def __enter__(self):
        from dask.distributed import Client, LocalCluster

        if self.scheduler:
            try:
                self.client = Client(self.scheduler, timeout="20s")
            except (OSError, ValueError) as error:  # unreachable, or not a scheduler address
                raise UsageError(
                    "--scheduler", f"cannot connect to the Dask scheduler at {self.scheduler}: {error}"
                ) from None
            return self.client, _cluster_threads(self.client)
        cores = _cores()
        count = max(1, self.workers or cores)
        self.cluster = LocalCluster(
            n_workers=count,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # no dashboard; the scheduler's HTTP endpoints on any free loopback port, not on
            # 8787, which another cluster or a second sweep may hold
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            silence_logs=40,
        )
        self.client = Client(self.cluster)
        return self.client, max(1, cores // count)  # HiGHS threads per worker: no oversubscription

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _cores() -> int:
    """The cores this process may run on (a container's or a job's share, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _cluster_threads(client) -> int:
    """HiGHS threads per task on a running cluster: each host's cores over its task slots.

    A host running two single-threaded workers on 8 cores gives 4; the smallest
    share over the hosts is used for every task, so no host is oversubscribed.
    """
    workers = client.scheduler_info().get("workers", {})
    if not workers:
        return 1
    cores = client.run(_cores)  # worker address -> cores of its host
    slots: dict[str, int] = {}
    host_cores: dict[str, int] = {}
    for address, info in workers.items():
        host = info.get("host", address)
        slots[host] = slots.get(host, 0) + int(info.get("nthreads") or 1)
        host_cores[host] = int(cores.get(address) or 1)
    return max(1, min(host_cores[host] // count for host, count in slots.items()))


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

    if not tasks:
        return {}
    futures = {_submit(client, task, base, outdir, threads): task for task in tasks}
    records: dict[str, dict] = {}
    state.running = min(len(futures), max(1, len(client.scheduler_info().get("workers", {}))))
    report(state)
    for future in as_completed(futures):
        task = futures[future]
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
            state.done += task.cases
        else:
            state.failed += task.cases
        state.running = min(state.running, state.remaining)
        report(state)
    return records


#: names of the two ends of a Pareto front; the loose end is the front's last point
_LOOSE, _TIGHT = "loose", "tight"


def _pareto_ends(spec, case: Case, base_hash: str) -> list[_Task]:
    """The weighted optimum (loose end) and the least the term can be (tight end)."""
    return [
        _Task(f"{base_hash}-{_LOOSE}", case.model_copy(update={"name": _LOOSE})),
        _Task(
            f"{base_hash}-{_TIGHT}",
            case.model_copy(update={"name": _TIGHT}),
            minimise=spec.term,
        ),
    ]


def _pareto_plan(spec, case: Case, rows: list[dict], outdir: Path, state: BatchProgress):
    """The ends of the front still to solve; the progress counts every solve of the front.

    The tight end only fixes the range of the bounds, as in :func:`geomodel.pareto.pareto_front`:
    the front is ``points - 1`` epsilon-bounded solves and the loose end.
    """
    ends = _pareto_ends(spec, case, rows[0]["hash"])
    todo = [t for t in ends if finished(outdir, t.scenario_hash) is None]
    state.total = spec.points + 1
    state.done = state.skipped = len(ends) - len(todo)
    state.failed = 0
    return todo


def _pareto_points(
    spec, case: Case, rows: list[dict], outdir: Path, state: BatchProgress, records: dict
) -> list[_Task]:
    """Replace the sweep's one row by the points of the front; return the points to solve."""
    import numpy as np

    from geomodel.pareto import PARETO_TERMS

    base_hash = rows[0]["hash"]
    own = ("case", "hash", "status", "message", "seconds", "worker")
    template = {k: v for k, v in rows[0].items() if k not in own}  # variants, parameters
    ends = _pareto_ends(spec, case, base_hash)
    loose, tight = (
        records.get(t.scenario_hash) or read_record(outdir, t.scenario_hash) or {} for t in ends
    )
    rows.clear()
    ok = ("optimal", "time_limit")
    if loose.get("status") not in ok or tight.get("status") not in ok:
        # as pareto_front: no front without both ends; the failed end is the one row
        failed = loose if loose.get("status") not in ok else tight
        name = _LOOSE if failed is loose else _TIGHT
        end = ends[0] if name == _LOOSE else ends[1]
        rows.append({**template, "case": name, "hash": end.scenario_hash, **_row_fields(failed)})
        state.total = state.done + state.failed
        return []
    kpi = PARETO_TERMS[spec.term][0]
    low, high = float(tight["kpis"][kpi]), float(loose["kpis"][kpi])
    points = []
    for index, bound in enumerate(np.linspace(low, high, spec.points)[:-1]):
        bound = float(bound) if index else low * (1 + 1e-7) + 1e-9
        name = f"point{index:03d}"
        task = _Task(
            f"{base_hash}-{spec.term}-{bound:.9g}",
            case.model_copy(update={"name": name}),
            (spec.term, bound),
        )
        row = {**template, "case": name, "hash": task.scenario_hash, f"{PARAM}epsilon": bound}
        record = finished(outdir, task.scenario_hash)
        if record is None:
            row.update(status="pending", message="")
            points.append(task)
        else:
            row.update(_row_fields(record))
            state.done += 1
            state.skipped += 1
        rows.append(row)
    rows.append(
        {**template, "case": _LOOSE, "hash": ends[0].scenario_hash, f"{PARAM}epsilon": high}
        | _row_fields(loose)
    )
    return points


def _row_fields(record: dict) -> dict:
    """The manifest fields a result record fills in."""
    return {
        "status": record.get("status", "error"),
        "message": record.get("message", "not run"),
        "seconds": record.get("seconds"),
        "worker": record.get("worker"),
    }


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
