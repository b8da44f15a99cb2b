"""Start a run and follow it: the Run button, a progress bar polled by a fragment,
and the KPIs once the result is in the cache."""

from __future__ import annotations

import time

import streamlit as st

from geomodel.ui import loaders, state
from geomodel.ui.components.kpis import show_kpis
from geomodel.ui.components.problems import plain, show_messages
from geomodel.ui.paths import cache_dir, page_file
from geomodel.ui.recipe import Recipe
from geomodel.ui.runs import RunStatus

POLL_SECONDS = 1.0
#: KPI metrics per row beside the knobs (four per row cut values off at 1280 px)
KPI_COLUMNS = 3


def cache_folder() -> str:
    return str(cache_dir())


def run_label(record: dict) -> str:
    """How a finished run is named in pickers: recipe, outcome, when."""
    finished = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.get("finished_at", 0)))
    name = record.get("label") or record.get("hash", "?")[:12]
    return f"{name} · {record.get('status')} · {finished}"


def run_panel(recipe: Recipe, scenario_hash: str, time_limit_s: float) -> None:
    """The Run button for the scenario on screen and where its run stands."""
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
        runner.submit(recipe.as_dict(), scenario_hash, recipe.label(), time_limit_s)
        state.put(state.LAST_RUN, scenario_hash)
        status = runner.status(scenario_hash)
    show_status(status)


def show_status(status: RunStatus) -> None:
    """Progress while running, the error if it failed, the KPIs once done."""
    if status.state == "running":
        _progress(cache_folder(), status.scenario_hash)
    elif status.state == "failed":
        st.error(f"The run failed: {plain(status.error)}", icon=":material/error:")
    elif status.state == "done":
        record = status.record or {}
        outcome = record.get("status", "?")
        seconds = record.get("wall_seconds")
        timing = f" in {seconds:.1f} s" if isinstance(seconds, int | float) else ""
        if outcome in ("optimal", "time_limit"):
            st.success(f"Solved: {outcome}{timing}.", icon=":material/check_circle:")
            show_kpis(
                record.get("kpis", {}), columns=KPI_COLUMNS, planning=record.get("planning", False)
            )
        else:
            st.error(f"No solution ({outcome}).", icon=":material/block:")
            show_messages(record.get("messages", []))
        state.put(state.LAST_RUN, status.scenario_hash)
        state.put(state.OPEN_RUN, status.scenario_hash)
        st.page_link(page_file("results"), label="Open the results", icon=":material/insights:")


@st.fragment(run_every=POLL_SECONDS)
def _progress(folder: str, scenario_hash: str) -> None:
    """Polls the run once a second; a full rerun shows the result when it is in."""
    status = loaders.runner(folder).status(scenario_hash)
    if status.state != "running":
        st.rerun()
    limit = f" (time limit {status.time_limit_s:g} s)" if status.time_limit_s else ""
    st.progress(
        status.fraction,
        text=plain(f"{status.label}: {status.phase_text}, {status.elapsed_s:.0f} s{limit}"),
    )
