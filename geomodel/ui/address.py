"""The scenario page's address: ``?scenario=FILE&variant=V&set=PATH=VALUE``.

The address carries a bundled scenario, its variants and the knobs' ``--set``
overrides, so a reload or a shared link opens the same scenario with the same
edits; an uploaded scenario by its digest (``?upload=...``) and an uploaded job table
by its workspace (``&table=...``), both kept on the server (``ui.uploads``), so a
reload opens them again, or says plainly that they are gone. It is read once per
browser session, on the first visit of the scenario page (a page switch drops the
parameters; the session keeps the edits), and rewritten whenever the page shows
another recipe.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from geomodel.scenario import Scenario
from geomodel.ui import knobs, state
from geomodel.ui.components.problems import plain
from geomodel.ui.knobs import KnobValues
from geomodel.ui.paths import bundled_scenarios, cache_dir
from geomodel.ui.recipe import Recipe, address_params, from_address
from geomodel.ui.uploads import UploadStore, digest_of

PARAMS = (
    state.SCENARIO_PARAM,
    state.VARIANT_PARAM,
    state.SET_PARAM,
    state.UPLOAD_PARAM,
    state.TABLE_PARAM,
)


def read_once(folder: Path, bundled_choice: str, upload_choice: str) -> None:
    """Take the scenario, variants and overrides in the address into the session."""
    if state.get(state.ADDRESS_READ):
        return
    state.put(state.ADDRESS_READ, True)
    store = UploadStore(cache_dir())
    uploaded = st.query_params.get(state.UPLOAD_PARAM)
    if uploaded:
        state.kept(state.PICKED).update(source=upload_choice)
        found_upload = store.load(uploaded)
        if found_upload is None:
            st.warning(
                "The upload this address names is no longer on the server: upload the file again.",
                icon=":material/upload_file:",
            )
        else:
            state.put(state.UPLOADED, Recipe("upload", *found_upload))
    recipe, found, unread = from_address({k: st.query_params.get_all(k) for k in PARAMS})
    if recipe is None:
        return
    table = st.query_params.get(state.TABLE_PARAM)
    files = {k: v for k, v in found.items() if k.startswith("job_tables.") and k.endswith(".file")}
    if table and files and store.table_workspace(table) is not None:
        path, file_name = next(iter(files.items()))
        state.kept(state.TABLES)[recipe.name] = (table, path.split(".")[1], file_name)
    elif table:
        st.warning("The job table this address names is no longer on the server: upload it again.")
    found = {k: v for k, v in found.items() if k not in files}
    if recipe.name not in bundled_scenarios(folder):
        st.warning(f"The address names no bundled scenario {plain(recipe.name)!r}; showing another.")
        return
    state.kept(state.PICKED).update(source=bundled_choice, bundled=recipe.name)
    state.kept(state.PICKED_VARIANTS)[recipe.name] = list(recipe.variants)
    if found:
        state.kept(state.ADDRESS_SETS)[(recipe.name, recipe.variants)] = found
    if unread:
        st.warning("Could not read these `set` parameters of the address: " + plain(", ".join(unread)))


def knobs_from_address(recipe: Recipe, scenario: Scenario, cap: float) -> KnobValues | None:
    """The knob values the address set for this file and variants (once), or None."""
    found = state.kept(state.ADDRESS_SETS).pop((recipe.name, recipe.variants), None)
    if not found:
        return None
    values, ignored = knobs.values_from_overrides(scenario, found, cap)
    if ignored:
        left_out = plain(", ".join(ignored))
        st.warning(f"No knob sets these fields of the address, so they are left out: {left_out}")
    return values


def write(recipe: Recipe | None) -> None:
    """Show ``recipe`` in the address (an upload by its digest; nothing: no parameters)."""
    wanted = address_params(recipe) if recipe is not None else {}
    if recipe is not None and recipe.source == "upload":
        wanted = {state.UPLOAD_PARAM: [digest_of(recipe.text.encode("utf-8"))]}
    if recipe is not None and recipe.workspace:
        wanted[state.TABLE_PARAM] = [recipe.workspace]
    for key in PARAMS:
        values = wanted.get(key, [])
        if st.query_params.get_all(key) == values:
            continue
        if values:
            st.query_params[key] = values
        elif key in st.query_params:
            del st.query_params[key]
