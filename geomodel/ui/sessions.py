"""Whose runs a page shows: the runs of this browser session, and those shared with it by link.

Every session of the server shares one run cache (a run is solved once per scenario hash,
whoever asks), but a session lists only the runs it started or opened and the ones whose
link (``?run=<hash>``, or Compare's ``?a=...&b=...``) it was given. A server started with
``GEOMODEL_APP_SHARED_RUNS=1`` is a shared one: every session lists every run, and the
sidebar says so.
"""

from __future__ import annotations

import os
import uuid

import streamlit as st

from geomodel.ui import state
from geomodel.ui.run_store import RunStore

#: set to 1 to list every run of the server in every session (a team's shared server)
SHARED_ENV = "GEOMODEL_APP_SHARED_RUNS"


def shared() -> bool:
    """True when the server lists every run to everyone (``GEOMODEL_APP_SHARED_RUNS``)."""
    return os.environ.get(SHARED_ENV, "").strip().lower() in ("1", "true", "yes")


def me() -> str:
    """This session's name in the queue: a short random word, the same for its life."""
    return st.session_state.setdefault(state.SESSION_NAME, uuid.uuid4().hex[:6])


def remember(scenario_hash: str) -> None:
    """Add a run to this session's list (started here, opened here, or shared by link)."""
    mine = st.session_state.setdefault(state.MY_RUNS, [])
    if scenario_hash not in mine:
        mine.append(scenario_hash)


def records(folder: str) -> list[dict]:
    """The finished runs this session lists, newest first."""
    store = RunStore(folder)
    return store.records() if shared() else store.records(st.session_state.get(state.MY_RUNS, []))


def statement() -> str:
    """What the sidebar says about who sees which runs."""
    if shared():
        return f"This server is shared: every run is listed to everyone using it ({SHARED_ENV} is set)."
    return (
        "Your runs are private to this browser tab: the pages list only the runs you started or "
        "opened. Share one with its link (the Results page's address)."
    )
