"""The app's frame: page set-up, navigation and the runs in progress (``app.py`` calls :func:`main`)."""

from __future__ import annotations

import streamlit as st

from geomodel.ui import loaders, sessions
from geomodel.ui.components.problems import plain
from geomodel.ui.paths import cache_dir, page_file

#: seconds after the first page run before the first solver process starts
WARM_UP_DELAY_S = 8.0

#: navigation: section -> (page script, title, icon)
PAGES = {
    "Plan": [
        ("scenario", "Scenario", ":material/tune:"),
        ("results", "Results", ":material/insights:"),
        ("compare", "Compare", ":material/compare_arrows:"),
    ],
    "Tools": [
        ("tools", "Tools", ":material/calculate:"),
        ("plugins", "Plugins", ":material/extension:"),
    ],
}


def main() -> None:
    st.set_page_config(page_title="geomodel", page_icon="🌍", layout="wide")
    pages = {
        section: [
            st.Page(page_file(name), title=title, icon=icon, default=name == "scenario")
            for name, title, icon in entries
        ]
        for section, entries in PAGES.items()
    }
    page = st.navigation(pages)
    page.run()
    _runs_in_progress()
    # the first solver process imports the model stack (seconds of CPU): start it a
    # little after the page is drawn, not while the first visitor's browser draws it
    loaders.runner(str(cache_dir())).warm_up_later(WARM_UP_DELAY_S)


#: seconds between two looks at the queue while runs wait or solve
QUEUE_POLL_S = 2.0


def _runs_in_progress() -> None:
    """The queue of every session of this server (others' runs without their names), kept
    up to date while anything waits or solves, and who sees which runs."""
    active = loaders.runner(str(cache_dir())).active()
    with st.sidebar:
        st.fragment(_queue, run_every=QUEUE_POLL_S if active else None)()
        st.caption(sessions.statement())


def _queue() -> None:
    active = loaders.runner(str(cache_dir())).active()
    if not active:
        return
    me = sessions.me()
    st.markdown("**Solver queue**")
    for position, status in enumerate(active, start=1):
        who = (
            plain(status.label)
            if status.session == me or sessions.shared()
            else "a run of another session"
        )
        st.caption(f"{position}. {who}: {status.phase_text}, {status.elapsed_s:.0f} s")
