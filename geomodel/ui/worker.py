"""What a background solver process runs (no streamlit here: solver processes import this only).

:func:`serve` is the process's life: import the model stack and load the plugins once,
then solve the runs the app sends down its pipe, one at a time, answering each with
"done" or "failed" and the error in words. Each run loads the scenario again from its
recipe, checks it is the scenario the app validated (same hash), solves it through the
library API, and writes the result and its record into the run cache.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import Any

from geomodel.batch.store import write_json_atomic
from geomodel.catalog import Catalog, build_catalog
from geomodel.ui.paths import scenarios_dir
from geomodel.ui.recipe import Recipe, load_recipe
from geomodel.ui.run_store import RunStore


@lru_cache(maxsize=1)
def _catalog() -> Catalog:
    return build_catalog()


def warm_up() -> None:
    """Import the model stack and load the plugins before the first run needs them."""
    import geomodel.api  # noqa: F401  (Pyomo, HiGHS, xarray)

    _catalog()


def serve(conn) -> None:
    """Warm up, then solve each ``(recipe, hash, folder)`` received until the pipe closes."""
    warm_up()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            solve_recipe(*task)
            answer = ("done", "")
        except Exception as error:  # reported to the page in words, the process lives on
            answer = ("failed", f"{type(error).__name__}: {error}")
        try:
            conn.send(answer)
        except OSError:
            return


def solve_recipe(recipe_data: dict[str, Any], scenario_hash: str, folder: str) -> dict[str, Any]:
    """Solve one scenario and cache its result under ``scenario_hash``; returns the record."""
    from geomodel import __version__
    from geomodel.api import solve_inputs
    from geomodel.inputs.build import build_inputs
    from geomodel.inputs.dataset import is_planning
    from geomodel.ui.solution import plan_kind

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
            # a plan: its build and costs are shown (a pathway has its own view)
            "planning": inputs is not None and is_planning(inputs),
            "kpis": result.kpis,
            "messages": result.messages,
            "started_at": started,
            "finished_at": time.time(),
            "wall_seconds": time.time() - started,
            "geomodel_version": __version__,
        }
        if record["planning"] and result.has_solution:  # whole or relaxed, said beside its KPIs
            record["plan_kind"] = plan_kind(result.dataset, inputs).to_dict()
        write_json_atomic(store.record_path(scenario_hash), record)
        return record
    finally:
        store.clear_progress(scenario_hash)
