"""Background runs: solver processes that solve scenarios one at a time, a queue in front
of them, and cancelling a run, queued or solving.

The solve never runs in a Streamlit script thread. :class:`Runner` keeps a few
long-lived solver processes (spawned, each importing the model stack once, ``ui.worker``)
and one entry per scenario hash; the app keeps one runner per cache folder for the life of
the server (``st.cache_resource``), so a widget change or a page reload finds the run still
going instead of killing it or starting it twice. A run waits in the queue until a solver
process is free; each run knows the session that asked for it, so the queue can say who
waits for what. Cancelling a queued run takes it out of the queue; cancelling a run being
solved ends its process (HiGHS cannot be interrupted from outside otherwise) and starts a
fresh one in its place, leaving the other processes' runs alone. Finished runs land in
:class:`~geomodel.ui.run_store.RunStore`.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from geomodel.ui.run_store import RunStore

#: phase -> words, in the order a run goes through them
PHASES: dict[str, str] = {
    "queued": "waiting for a solver process",
    "load": "loading the scenario",
    "build": "building the model",
    "solve": "solving (HiGHS)",
    "results": "reading the results",
    "write": "saving the results",
}
State = Literal["idle", "running", "done", "failed", "cancelled"]
CANCELLED = "cancelled by the user"
DIED = "the solver process stopped unexpectedly (out of memory?); run again"


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
    session: str = ""  #: the session that asked for the run
    #: while queued: the runs ahead of it (solving or waiting), oldest first
    ahead: list[str] = field(default_factory=list)

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
    recipe: dict[str, Any]
    label: str
    session: str
    submitted: float
    time_limit_s: float | None
    state: State = "running"
    started: float | None = None  #: when a solver process took it (None: queued)
    error: str = ""
    cancelled: bool = False
    #: set once the run has ended (done, failed or cancelled), its record written if done
    ended: threading.Event = field(default_factory=threading.Event)


class _SolverProcess:
    """One spawned solver process (``ui.worker.serve``) and the pipe to it."""

    def __init__(self) -> None:
        from geomodel.ui.worker import serve

        # spawn, not fork: the server has threads, and a forked child could inherit a
        # held lock; spawned processes import geomodel afresh
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.busy: str | None = None  #: the hash it is solving


class Runner:
    """Solver processes, the queue in front of them and the runs, one per scenario hash."""

    def __init__(self, store: RunStore, workers: int) -> None:
        self.store = store
        self.workers = workers
        self._lock = threading.RLock()
        self._runs: dict[str, _Run] = {}
        self._queue: deque[str] = deque()
        self._processes: list[_SolverProcess] = []
        self._warm = False
        self._timer: threading.Timer | None = None
        self._closed = False

    def warm_up(self) -> None:
        """Start a solver process now, so the first run does not wait for its imports."""
        with self._lock:
            if self._warm or self._closed:
                return
            self._warm = True
            if not self._processes:
                self._processes.append(_SolverProcess())

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
        session: str = "",
    ) -> Literal["cached", "running", "started"]:
        """Queue a solve unless the result is cached or the same hash is queued or running."""
        with self._lock:
            if self.store.record(scenario_hash) is not None:
                return "cached"
            run = self._runs.get(scenario_hash)
            if run is not None and run.state == "running":
                return "running"
            self._warm = True  # a solver process starts now; no warm-up needed any more
            self._runs[scenario_hash] = _Run(recipe, label, session, time.time(), time_limit_s)
            self._queue.append(scenario_hash)
            self.store.write_progress(scenario_hash, "queued", label=label)
            self._dispatch()
            return "started"

    def cancel(self, scenario_hash: str) -> bool:
        """Take a queued run out of the queue, or end the process solving it; False when the
        hash is not queued or running."""
        with self._lock:
            run = self._runs.get(scenario_hash)
            if run is None or run.state != "running":
                return False
            run.cancelled = True
            if scenario_hash in self._queue:
                self._queue.remove(scenario_hash)
                self._finish(scenario_hash, "cancelled", CANCELLED)
                return True
            for process in self._processes:
                if process.busy == scenario_hash:
                    process.process.terminate()  # its waiter sees the pipe close
            return True

    def _dispatch(self) -> None:
        """Hand queued runs to idle solver processes, starting processes up to the limit."""
        self._processes = [p for p in self._processes if p.process.is_alive() or p.busy]
        while self._queue and not self._closed:
            idle = next((p for p in self._processes if p.busy is None and p.process.is_alive()), None)
            if idle is None:
                if len(self._processes) >= self.workers:
                    return
                idle = _SolverProcess()
                self._processes.append(idle)
            scenario_hash = self._queue.popleft()
            run = self._runs[scenario_hash]
            try:
                idle.conn.send((run.recipe, scenario_hash, str(self.store.folder)))
            except OSError:  # the process died while idle: drop it, try again
                self._processes.remove(idle)
                self._queue.appendleft(scenario_hash)
                continue
            idle.busy, run.started = scenario_hash, time.time()
            threading.Thread(target=self._wait, args=(idle, scenario_hash), daemon=True).start()

    def _wait(self, process: _SolverProcess, scenario_hash: str) -> None:
        """Wait for a solver process's answer; a closed pipe means it died or was ended."""
        try:
            outcome, error = process.conn.recv()
        except (EOFError, OSError):
            outcome, error = "died", ""
        with self._lock:
            run = self._runs[scenario_hash]
            if outcome == "died":
                process.busy = None
                if process in self._processes:
                    self._processes.remove(process)
                process.process.join(timeout=5)
                self._finish(scenario_hash, "cancelled" if run.cancelled else "failed", DIED)
                if not self._processes and not self._closed:  # a warm one for the next run
                    self._processes.append(_SolverProcess())
            else:
                process.busy = None
                self._finish(scenario_hash, "done" if outcome == "done" else "failed", error)
            self._dispatch()

    def _finish(self, scenario_hash: str, state: State, error: str) -> None:
        run = self._runs[scenario_hash]
        run.state = state
        run.error = CANCELLED if state == "cancelled" else error
        self.store.clear_progress(scenario_hash)
        run.ended.set()

    def wait_for_end(self, scenario_hash: str, timeout_s: float) -> bool:
        """Wait at most ``timeout_s`` for a queued or running run to end; whether it has
        (False for a hash that is not a run of this server). A page following a run wakes
        as the solver process answers, not at its next poll."""
        with self._lock:
            run = self._runs.get(scenario_hash)
        return run is not None and run.ended.wait(timeout_s)

    def status(self, scenario_hash: str) -> RunStatus:
        record = self.store.record(scenario_hash)
        if record is not None:
            return RunStatus(scenario_hash, "done", label=record.get("label", ""), record=record)
        with self._lock:
            run = self._runs.get(scenario_hash)
            if run is None:
                return RunStatus(scenario_hash, "idle")
            if run.state != "running":
                return RunStatus(
                    scenario_hash,
                    "failed" if run.state == "done" else run.state,
                    label=run.label,
                    error=run.error or "the run ended without a result",
                    session=run.session,
                )
            ahead = self._ahead(scenario_hash)
        if run.started is None:
            phase, started = "queued", run.submitted
        else:
            progress = self.store.progress(scenario_hash)
            phase = progress.get("phase", "load")
            started = progress.get("started", run.started) if phase != "queued" else run.started
        return RunStatus(
            scenario_hash,
            "running",
            phase=phase,
            elapsed_s=max(0.0, time.time() - started),
            time_limit_s=run.time_limit_s,
            label=run.label,
            session=run.session,
            ahead=ahead,
        )

    def _ahead(self, scenario_hash: str) -> list[str]:
        """The runs a queued run waits behind: those being solved, then those queued first."""
        if scenario_hash not in self._queue:
            return []
        solving = [p.busy for p in self._processes if p.busy]
        queued = list(self._queue)
        return [*solving, *queued[: queued.index(scenario_hash)]]

    def active(self) -> list[RunStatus]:
        """Runs being solved, then those waiting in the queue in order, of every session."""
        with self._lock:
            solving = [p.busy for p in self._processes if p.busy]
            hashes = [*solving, *self._queue]
        return [s for s in (self.status(h) for h in hashes) if s.state == "running"]

    def shutdown(self) -> None:
        """Stop the warm-up timer and every solver process (their runs end as cancelled)."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            for process in self._processes:
                if process.busy:
                    self._runs[process.busy].cancelled = True
                process.process.terminate()
            self._queue.clear()
