"""A plugin hook that raises while a scenario is checked or solved is never silent
(issue 13, items 2 and 3).

The plugins are real modules under tests/plugin_fixtures/, loaded beside the
built-ins the minimal scenario of ``geomodel.testing`` needs.
"""

from __future__ import annotations

import importlib

import pytest

from geomodel.api import solve
from geomodel.catalog import build_catalog
from geomodel.errors import ExtensionError
from geomodel.plugin_loader import ALLOW_BROKEN_EXTENSIONS_ENV
from geomodel.scenario import ScenarioError
from geomodel.testing import MINIMAL_PLUGINS, load_minimal_scenario, plugin_host


@pytest.fixture(autouse=True)
def _clean(geomodel_clean_environment, monkeypatch):
    monkeypatch.delenv(ALLOW_BROKEN_EXTENSIONS_ENV, raising=False)


def catalog_with(name: str):
    module = importlib.import_module(f"plugin_fixtures.{name}")
    return build_catalog(plugin_host(*MINIMAL_PLUGINS, (name, module)))


def test_a_scenario_check_that_raises_is_a_problem_of_the_scenario():
    catalog = catalog_with("raising_validator")
    with pytest.raises(ScenarioError) as raised:
        load_minimal_scenario(catalog)
    (problem,) = raised.value.problems
    assert problem.severity == "error"
    assert problem.message == (
        "the scenario checks of plugin 'raising_validator' (distribution local) could not run: "
        "RuntimeError: water table fixture_aquifers.csv not found; fix or disable the plugin"
    )


def test_an_extension_that_raises_fails_the_solve_naming_the_plugin():
    catalog = catalog_with("raising_extension")
    scenario = load_minimal_scenario(catalog)
    with pytest.raises(ExtensionError) as raised:
        solve(scenario, catalog=catalog)
    first, hint = str(raised.value).splitlines()
    assert first == (
        "plugin 'raising_extension' (distribution local) extend_model: KeyError: 'site_cap_mw' "
        "(the model would lack what it adds)"
    )
    assert "--allow-broken-extensions" in hint and ALLOW_BROKEN_EXTENSIONS_ENV in hint


@pytest.mark.parametrize("how", ["argument", "environment"])
def test_broken_extensions_are_skipped_only_when_allowed_and_the_result_says_so(how, monkeypatch):
    catalog = catalog_with("raising_extension")
    scenario = load_minimal_scenario(catalog)
    if how == "environment":
        monkeypatch.setenv(ALLOW_BROKEN_EXTENSIONS_ENV, "1")
        result = solve(scenario, catalog=catalog)
    else:
        result = solve(scenario, catalog=catalog, allow_broken_extensions=True)
    assert result.status == "optimal"
    assert result.dataset.attrs["extensions_failed"] == "raising_extension"
    (message,) = [m for m in result.messages if "raising_extension" in m]
    assert "solved WITHOUT this extension" in message
    assert "the plan lacks its variables and constraints" in message


def test_strict_mode_never_skips_a_broken_extension(monkeypatch):
    catalog = catalog_with("raising_extension")
    scenario = load_minimal_scenario(catalog)
    catalog.host.strict = True
    with pytest.raises(ExtensionError):
        solve(scenario, catalog=catalog, allow_broken_extensions=True)
