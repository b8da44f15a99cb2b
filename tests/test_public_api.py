"""The names the README promises on the geomodel package."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import geomodel


def test_every_public_name_resolves():
    for name in geomodel.__all__:
        assert getattr(geomodel, name) is not None, name


def test_solve_stays_the_function_after_the_whole_package_is_imported():
    # A subpackage named like a public function would replace it on first import.
    for module in (
        "geomodel.api",
        "geomodel.solver.highs",
        "geomodel.results.result",
        "geomodel.batch.engine",
        "geomodel.pareto",
    ):
        importlib.import_module(module)
    assert callable(geomodel.solve) and geomodel.solve.__module__ == "geomodel.api"
    assert callable(geomodel.open_result) and callable(geomodel.load_scenario)


def test_importing_geomodel_does_not_import_the_model_stack():
    code = "import sys, geomodel; print('pyomo' in sys.modules, 'highspy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("module", ["geomodel.results.result", "geomodel.ui.app"])
def test_reading_results_and_the_app_do_not_import_the_model_stack(module):
    """The app's server and `report` read results; Pyomo (and the scipy.stats its import
    hooks pull in, 0.5 s of the app's first load) belongs to the solver process only."""
    code = f"import sys, {module}; print('pyomo' in sys.modules, 'highspy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_dir_lists_every_public_name_also_the_lazy_ones():
    """Issue 13, item 17: load_scenario, solve and open_result load on first use, and
    dir(geomodel) (and so tab completion) did not show them."""
    assert set(geomodel.__all__) <= set(dir(geomodel))
    assert {"load_scenario", "solve", "open_result", "run_batch"} <= set(dir(geomodel))
