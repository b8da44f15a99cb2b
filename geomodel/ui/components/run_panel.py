"""Start a run and follow it: the Run button, a progress bar polled by a fragment with a
Cancel button and the run's place in the queue, and once the result is in the cache what
it is (proven optimal or stopped short; a plan whole or relaxed) and its KPIs."""

from __future__ import annotations

import time

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from geomodel.ui import loaders, sessions, state
from geomodel.ui.components.kpis import show_kpis
from geomodel.ui.components.problems import hide_server_paths, plain, show_messages
from geomodel.ui.paths import cache_dir, page_file
from geomodel.ui.recipe import Recipe
from geomodel.ui.runs import RunStatus
from geomodel.ui.solution import PlanKind, SolveQuality, plan_kind

#: seconds between two redraws of a run in progress (a fragment rerun: a file read)
POLL_SECONDS = 0.5
#: how long each redraw then waits for the run to end, s: the page reruns for the result
#: as the solver process answers instead of at the next poll (up to 0.5 s later, a third
#: of a quickstart's solve). A click meanwhile (Cancel, a knob) waits at most this long.
WAIT_FOR_END_S = 0.4
#: KPI metrics per row beside the knobs (four per row cut values off at 1280 px)
KPI_COLUMNS = 3
_NOTICE = {"success": st.success, "warning": st.warning, "error": st.error}
_ICON = {
    "success": ":material/check_circle:",
    "warning": ":material/warning:",
    "error": ":material/block:",
}


def cache_folder() -> str:
    return str(cache_dir())


def run_label(record: dict) -> str:
    """How a finished run is named in pickers: recipe, outcome, when."""
    finished = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.get("finished_at", 0)))
    name = record.get("label") or record.get("hash", "?")[:12]
    return f"{name} · {record.get('status')} · {finished}"


def run_panel(recipe: Recipe, scenario_hash: str, time_limit_s: float) -> None:
    """The Run button for the scenario on screen and where its run stands, all in one
    container: what follows on the page keeps its place in the element tree whatever the
    run shows (nothing, progress, KPIs), so the browser keeps the map below as drawn. A map
    that moves is sent again and built afresh: in software WebGL that stalled the page for
    6 s, twice per run (docs/app.md, "First load")."""
    with st.container():
        runner = loaders.runner(cache_folder())
        status = runner.status(scenario_hash)
        left, right = st.columns([2, 3], vertical_alignment="center")
        clicked = left.button(
            "Run" if status.state != "done" else "Run (cached)",
            type="primary",
            icon=":material/play_arrow:",
            disabled=status.state == "running",
            help="Solve in a background process; the result is cached by scenario hash.",
            width="stretch",
        )
        right.caption(
            f"Scenario hash {scenario_hash[:12]} · time limit {time_limit_s:g} s · "
            "the run goes on if you change a widget or reload the page."
        )
        if clicked:
            runner.submit(
                recipe.as_dict(), scenario_hash, recipe.label(), time_limit_s, session=sessions.me()
            )
            sessions.remember(scenario_hash)
            state.put(state.LAST_RUN, scenario_hash)
            status = runner.status(scenario_hash)
        show_status(status)


def show_status(status: RunStatus) -> None:
    """Progress while running, the error if it failed, what it is and its KPIs once done."""
    if status.state == "running":
        follow(cache_folder(), status.scenario_hash)
    elif status.state == "cancelled":
        st.info(f"The run was cancelled ({plain(status.label)}).", icon=":material/cancel:")
    elif status.state == "failed":
        st.error(f"The run failed: {plain(hide_server_paths(status.error))}", icon=":material/error:")
    elif status.state == "done":
        record = status.record or {}
        quality = show_quality(record)
        if quality.solved:
            if record.get("planning"):
                show_plan_kind(record_plan_kind(record))
            show_kpis(
                record.get("kpis", {}), columns=KPI_COLUMNS, planning=record.get("planning", False)
            )
        else:
            show_messages(record.get("messages", []))
        sessions.remember(status.scenario_hash)
        state.put(state.LAST_RUN, status.scenario_hash)
        state.put(state.OPEN_RUN, status.scenario_hash)
        st.page_link(page_file("results"), label="Open the results", icon=":material/insights:")


def show_quality(record: dict) -> SolveQuality:
    """What the solve achieved, green only when proven optimal (amber: stopped at the time
    limit or within the MIP gap, with the gap)."""
    quality = SolveQuality.of_record(record)
    _NOTICE[quality.level](quality.text(), icon=_ICON[quality.level])
    return quality


def record_plan_kind(record: dict) -> PlanKind:
    """A plan's kind as its solver process wrote it into the record, else from its result."""
    if "plan_kind" in record:
        return PlanKind.from_dict(record["plan_kind"])
    result = loaders.result(cache_folder(), record["hash"])
    return plan_kind(result.dataset, result.inputs)


def show_plan_kind(kind: PlanKind) -> None:
    """A plan says what it is: a banner when a whole-unit decision came out fractional."""
    if kind.fractional:
        st.warning(plain(kind.headline()), icon=":material/construction:")
    else:
        st.caption(plain(kind.headline()))


def _cancel(scenario_hash: str) -> None:
    loaders.runner(cache_folder()).cancel(scenario_hash)


def queue_text(status: RunStatus, runner) -> str:
    """Where a queued run waits: how many runs are ahead and whose."""
    if status.phase != "queued" or not status.ahead:
        return ""
    me = sessions.me()
    ahead = [runner.status(h) for h in status.ahead]
    mine = [plain(s.label) for s in ahead if s.session == me]
    others = len(ahead) - len(mine)
    parts = ([f"yours: {', '.join(mine)}"] if mine else []) + (
        [f"{others} of other sessions" if others != 1 else "1 of another session"] if others else []
    )
    runs = f"{len(ahead)} run{'s' * (len(ahead) != 1)}"
    return f"Waiting for a solver process behind {runs} ({'; '.join(parts)})."


@st.fragment(run_every=POLL_SECONDS)
def follow(folder: str, scenario_hash: str) -> None:
    """Draws the run's progress, then waits for its end a moment; a full rerun shows the
    result as soon as it is in."""
    runner = loaders.runner(folder)
    status = runner.status(scenario_hash)
    if status.state != "running":
        st.rerun()
    limit = f" (time limit {status.time_limit_s:g} s)" if status.time_limit_s else ""
    bar, stop = st.columns([5, 1], vertical_alignment="bottom")
    bar.progress(
        status.fraction,
        text=plain(f"{status.label}: {status.phase_text}, {status.elapsed_s:.0f} s{limit}"),
    )
    stop.button(
        "Cancel",
        icon=":material/cancel:",
        key=f"cancel.{scenario_hash[:16]}",
        on_click=_cancel,
        args=(scenario_hash,),
        help="Stop this run: a queued run leaves the queue, a run being solved ends its process.",
    )
    waiting = queue_text(status, runner)
    if waiting:
        st.caption(waiting)
    if _fragment_run() and runner.wait_for_end(scenario_hash, WAIT_FOR_END_S):
        st.rerun()


def _fragment_run() -> bool:
    """Whether this script run is the fragment's own (its poll), not the page's: a page run
    must not wait, or everything drawn after the progress bar would come that much later."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)
