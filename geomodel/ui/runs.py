"""Background runs: a process pool that solves scenarios, and their on-disk cache.

The solve never runs in a Streamlit script thread. :class:`Runner` holds a
``ProcessPoolExecutor`` and one future per scenario hash; the app keeps one
runner per cache folder for the life of the server (``st.cache_resource``), so
a widget change or a page reload finds the run still going instead of
killing it or starting it twice. Finished runs land in :class:`RunStore`:

    <cache>/runs/<hash>.nc             results and inputs (``Result.to_netcdf``)
    <cache>/runs/<hash>.json           the record: status, KPIs, messages, recipe, times
    <cache>/runs/<hash>.progress.json  the phase of a run in progress

A record is written after its NetCDF file, so a record means a complete
result; a run is looked up by hash before anything is solved.
"""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from geomodel.batch.store import write_json_atomic

RUNS = "runs"
#: phase -> words, in the order a run goes through them
PHASES: dict[str, str] = {
    "queued": "waiting for a solver process",
    "load": "loading the scenario",
    "build": "building the model",
    "solve": "solving (HiGHS)",
    "results": "reading the results",
    "write": "saving the results",
}
State = Literal["idle", "running", "done", "failed"]


class RunStore:
    """The cache folder of finished runs, by scenario hash."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.runs = self.folder / RUNS

    def ensure(self) -> None:
        self.runs.mkdir(parents=True, exist_ok=True)

    def result_path(self, scenario_hash: str) -> Path:
        return self.runs / f"{scenario_hash}.nc"

    def record_path(self, scenario_hash: str) -> Path:
        return self.runs / f"{scenario_hash}.json"

    def progress_path(self, scenario_hash: str) -> Path:
        return self.runs / f"{scenario_hash}.progress.json"

    def record(self, scenario_hash: str) -> dict[str, Any] | None:
        """The record of a finished run whose result file exists, or None."""
        try:
            record = json.loads(self.record_path(scenario_hash).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if self.result_path(scenario_hash).exists() else None

    def records(self) -> list[dict[str, Any]]:
        """Every finished run, newest first."""
        if not self.runs.is_dir():
            return []
        found = []
        for path in self.runs.glob("*.json"):
            if path.name.endswith(".progress.json"):
                continue
            record = self.record(path.stem)
            if record is not None:
                found.append(record)
        return sorted(found, key=lambda r: r.get("finished_at", 0.0), reverse=True)

    def write_progress(self, scenario_hash: str, phase: str, **extra: Any) -> None:
        self.ensure()
        write_json_atomic(
            self.progress_path(scenario_hash), {"phase": phase, "at": time.time(), **extra}
        )

    def progress(self, scenario_hash: str) -> dict[str, Any]:
        try:
            return json.loads(self.progress_path(scenario_hash).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def clear_progress(self, scenario_hash: str) -> None:
        self.progress_path(scenario_hash).unlink(missing_ok=True)


@dataclass
class RunStatus:
    """Where one scenario hash stands."""

    scenario_hash: str
    state: State
    phase: str = ""
    elapsed_s: float = 0.0
    time_limit_s: float | None = None
    label: str = ""
    record: dict[str, Any] | None = None
    error: str = ""

    @property
    def phase_text(self) -> str:
        return PHASES.get(self.phase, self.phase)

    @property
    def fraction(self) -> float:
        """A rough completion fraction for a progress bar (phases, then solve time)."""
        order = list(PHASES)
        if self.state == "done":
            return 1.0
        if self.phase not in order:
            return 0.0
        step = order.index(self.phase) / len(order)
        if self.phase == "solve" and self.time_limit_s:
            step += min(self.elapsed_s / self.time_limit_s, 1.0) / len(order)
        return min(step, 0.99)


@dataclass
class _Run:
    future: Future
    label: str
    submitted: float
    time_limit_s: float | None
    meta: dict[str, Any] = field(default_factory=dict)


class Runner:
    """A process pool and the runs it holds, one per scenario hash."""

    def __init__(self, store: RunStore, workers: int) -> None:
        self.store = store
        self.workers = workers
        self._lock = threading.Lock()
        self._runs: dict[str, _Run] = {}
        self._executor: ProcessPoolExecutor | None = None
        self._warm = False
        self._timer: threading.Timer | None = None

    def _pool(self, fresh: bool = False) -> ProcessPoolExecutor:
        if self._executor is None or fresh:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            # spawn, not fork: the server has threads, and a forked child could
            # inherit a held lock; spawned workers import geomodel afresh
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        return self._executor

    def warm_up(self) -> None:
        """Start a worker now, so the first run does not wait for its imports (once)."""
        from geomodel.ui.worker import warm_up

        with self._lock:
            if self._warm:
                return
            self._warm = True
            try:
                self._pool().submit(warm_up)
            except BrokenProcessPool:
                self._pool(fresh=True).submit(warm_up)

    def warm_up_later(self, delay_s: float) -> None:
        """:meth:`warm_up` in ``delay_s`` seconds (once), so the first solver process
        (seconds of CPU for its imports) does not compete with the first page load."""
        with self._lock:
            if self._warm or self._timer is not None:
                return
            self._timer = threading.Timer(delay_s, self.warm_up)
            self._timer.daemon = True
            self._timer.start()

    def submit(
        self,
        recipe: dict[str, Any],
        scenario_hash: str,
        label: str = "",
        time_limit_s: float | None = None,
    ) -> Literal["cached", "running", "started"]:
        """Start solving unless the result is cached or the same hash is running."""
        from geomodel.ui.worker import solve_recipe

        with self._lock:
            if self.store.record(scenario_hash) is not None:
                return "cached"
            run = self._runs.get(scenario_hash)
            if run is not None and not run.future.done():
                return "running"
            self._warm = True  # the pool starts now; no warm-up needed any more
            self.store.write_progress(scenario_hash, "queued", label=label)
            args = (solve_recipe, recipe, scenario_hash, str(self.store.folder))
            try:
                future = self._pool().submit(*args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start over
                future = self._pool(fresh=True).submit(*args)
            self._runs[scenario_hash] = _Run(future, label, time.time(), time_limit_s)
            return "started"

    def status(self, scenario_hash: str) -> RunStatus:
        record = self.store.record(scenario_hash)
        if record is not None:
            return RunStatus(scenario_hash, "done", label=record.get("label", ""), record=record)
        with self._lock:
            run = self._runs.get(scenario_hash)
        if run is None:
            return RunStatus(scenario_hash, "idle")
        if run.future.done():
            error = run.future.exception()
            if isinstance(error, BrokenProcessPool):
                text = "the solver process stopped unexpectedly (out of memory?); run again"
            else:
                text = f"{type(error).__name__}: {error}" if error else "the run ended without a result"
            return RunStatus(scenario_hash, "failed", label=run.label, error=text)
        progress = self.store.progress(scenario_hash)
        phase = progress.get("phase", "queued")
        started = progress.get("started", run.submitted) if phase != "queued" else run.submitted
        return RunStatus(
            scenario_hash,
            "running",
            phase=phase,
            elapsed_s=max(0.0, time.time() - started),
            time_limit_s=run.time_limit_s,
            label=run.label,
        )

    def active(self) -> list[RunStatus]:
        """Runs in progress, of every session of this server."""
        with self._lock:
            hashes = [h for h, run in self._runs.items() if not run.future.done()]
        return [s for s in (self.status(h) for h in hashes) if s.state == "running"]

    def shutdown(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
