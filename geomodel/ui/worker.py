"""What a background solver process runs (no streamlit here: workers import this only).

The worker loads the scenario again from its recipe, checks it is the scenario
the app validated (same hash), solves it through the library API, and writes
the result and its record into the run cache.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from geomodel.batch.store import write_json_atomic
from geomodel.catalog import Catalog, build_catalog
from geomodel.ui.paths import scenarios_dir
from geomodel.ui.recipe import Recipe, load_recipe
from geomodel.ui.runs import RunStore


@lru_cache(maxsize=1)
def _catalog() -> Catalog:
    return build_catalog()


def warm_up() -> None:
    """Import the model stack and load the plugins before the first run needs them."""
    import geomodel.api  # noqa: F401  (Pyomo, HiGHS, xarray)

    _catalog()


def solve_recipe(recipe_data: dict[str, Any], scenario_hash: str, folder: str) -> dict[str, Any]:
    """Solve one scenario and cache its result under ``scenario_hash``; returns the record."""
    from geomodel import __version__
    from geomodel.api import solve_inputs
    from geomodel.inputs.build import build_inputs
    from geomodel.inputs.dataset import is_planning

    store = RunStore(folder)
    recipe = Recipe.from_dict(recipe_data)
    started = time.time()

    def progress(phase: str) -> None:
        store.write_progress(scenario_hash, phase, started=started, label=recipe.label())

    try:
        progress("load")
        catalog = _catalog()
        scenario = load_recipe(recipe, catalog, scenarios_dir())
        if scenario.origin.scenario_hash != scenario_hash:
            raise RuntimeError("the scenario changed on disk since the app checked it; run it again")
        if scenario.periods is not None:  # a pathway: one inputs Dataset per period
            from geomodel.pathway import solve_pathway

            inputs = None
            result = solve_pathway(scenario, catalog=catalog, progress=progress)
        else:
            inputs = build_inputs(scenario, catalog)
            result = solve_inputs(inputs, host=catalog.host, progress=progress)
        progress("write")
        result.to_netcdf(store.result_path(scenario_hash))
        record = {
            "hash": scenario_hash,
            "label": recipe.label(),
            "scenario_name": scenario.name,
            "recipe": {k: v for k, v in recipe.as_dict().items() if k != "text"},
            "command": recipe.command(),
            "status": result.status,
            "planning": inputs is None or is_planning(inputs),  # a plan (or pathway): builds shown
            "kpis": result.kpis,
            "messages": result.messages,
            "started_at": started,
            "finished_at": time.time(),
            "wall_seconds": time.time() - started,
            "geomodel_version": __version__,
        }
        write_json_atomic(store.record_path(scenario_hash), record)
        return record
    finally:
        store.clear_progress(scenario_hash)
