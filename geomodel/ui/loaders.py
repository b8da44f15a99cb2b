"""The app's cached loaders: the only functions wrapped in ``st.cache_*``.

Each wraps one library call (catalogue, scenario, inputs, result, batch) or
holds the background runner. Keys are plain values: a recipe, a folder, a
file's modification time, a scenario hash.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
import xarray as xr

from geomodel.catalog import Catalog, build_catalog
from geomodel.results.result import Result, open_result
from geomodel.scenario import Scenario
from geomodel.ui.paths import scenarios_dir, worker_count
from geomodel.ui.recipe import Recipe, load_recipe
from geomodel.ui.run_store import RunStore
from geomodel.ui.runs import Runner


@st.cache_resource(show_spinner="Loading plugins…")
def catalog() -> Catalog:
    """The catalogue of every installed plugin, built once per server."""
    return build_catalog()


@st.cache_resource(show_spinner=False)
def runner(folder: str) -> Runner:
    """The process pool and its runs for one cache folder, for the life of the server
    (its first solver process starts after the first page is drawn: ``app.main``)."""
    store = RunStore(folder)
    store.ensure()
    return Runner(store, worker_count())


def file_stamp(recipe: Recipe) -> int:
    """The bundled file's modification time (uploads: 0), so an edited file reloads."""
    if recipe.source != "bundled":
        return 0
    try:
        return (scenarios_dir() / recipe.name).stat().st_mtime_ns
    except OSError:
        return 0


@st.cache_resource(max_entries=64, show_spinner="Checking the scenario…")
def _scenario(recipe: Recipe, folder: str, stamp: int) -> Scenario:
    return load_recipe(recipe, catalog(), Path(folder))


def scenario(recipe: Recipe) -> Scenario:
    """The validated scenario; raises ``ScenarioError`` (never cached) with every problem."""
    return _scenario(recipe, str(scenarios_dir()), file_stamp(recipe))


@st.cache_resource(max_entries=16, show_spinner="Building the inputs…")
def _inputs(recipe: Recipe, folder: str, stamp: int) -> xr.Dataset:
    from geomodel.inputs.build import build_inputs

    return build_inputs(_scenario(recipe, folder, stamp), catalog())


def inputs(recipe: Recipe) -> xr.Dataset:
    """The inputs Dataset of a valid recipe (what the map draws)."""
    return _inputs(recipe, str(scenarios_dir()), file_stamp(recipe))


@st.cache_resource(max_entries=8, show_spinner="Opening the result…")
def result(folder: str, scenario_hash: str) -> Result:
    """A finished run's result, read from the run cache."""
    return open_result(RunStore(folder).result_path(scenario_hash))


@st.cache_resource(max_entries=4, show_spinner="Reading the batch folder…")
def batch(outdir: str, stamp: int) -> tuple[xr.Dataset, object]:
    """``open_batch``: the combined Dataset and the KPI table of a batch folder."""
    from geomodel.batch.store import open_batch

    return open_batch(outdir)
