"""Runs derived from the one on screen (the same file with a few ``--set`` changes): the
local-only reference of a trace, the re-solve at one more ms of SLA. Each is an ordinary
run of the app (queued, cached by its scenario hash, listed in this session); the view
that needs one shows its button, follows it while it solves and reads its record."""

from __future__ import annotations

import streamlit as st

from geomodel.scenario import ScenarioError
from geomodel.ui import loaders, sessions, state
from geomodel.ui.components.problems import plain
from geomodel.ui.components.run_panel import follow
from geomodel.ui.recipe import Recipe
from geomodel.ui.run_store import RunStore


def recipe_of(record: dict) -> Recipe | None:
    """The recipe a run was solved from, if the app can solve it again: a bundled file, or
    the upload this session holds."""
    data = record.get("recipe") or {}
    if data.get("source") == "bundled":
        return Recipe.from_dict(data)
    kept = state.get(state.UPLOADED)
    if kept is not None and kept.name == data.get("name"):
        return Recipe.from_dict({**data, "text": kept.text})
    return None


def derived_hash(recipe: Recipe) -> str | None:
    """The scenario hash of a derived recipe (None, with the reason on the page, when it
    does not load)."""
    try:
        return loaders.scenario(recipe).origin.scenario_hash
    except ScenarioError as error:
        st.warning(plain(f"{recipe.label()} cannot be loaded: {error}"), icon=":material/warning:")
        return None


def derived_run(folder: str, recipe: Recipe, button: str, key: str) -> dict | None:
    """The record of ``recipe``'s run when it is solved; else its progress while it solves,
    or a button that starts it (None meanwhile)."""
    scenario_hash = derived_hash(recipe)
    if scenario_hash is None:
        return None
    record = RunStore(folder).record(scenario_hash)
    if record is not None:
        sessions.remember(scenario_hash)
        return record
    runner = loaders.runner(folder)
    if runner.status(scenario_hash).state == "running":
        follow(folder, scenario_hash)
        return None
    if st.button(button, icon=":material/play_arrow:", key=f"derived.{key}.{scenario_hash[:12]}"):
        limit = float(loaders.scenario(recipe).solver.time_limit)
        runner.submit(recipe.as_dict(), scenario_hash, recipe.label(), limit, session=sessions.me())
        sessions.remember(scenario_hash)
        st.rerun()
    return None
