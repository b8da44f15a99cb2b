"""Loading plugins: each on its own, failures reported by name and distribution.

Every plugin here is a real module under tests/plugin_fixtures/ registered with
real pluggy, either directly (``extra_plugins``) or through a distribution
installed on sys.path with entry points in the ``geomodel`` group.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys

import pytest
from plugin_fixtures import TESTS_DIR, installed_plugin_distributions, write_distribution

from geomodel import hookimpl, hookspecs
from geomodel.catalog import build_catalog
from geomodel.errors import GeomodelError, PluginError
from geomodel.hookspecs import PLUGIN_API_VERSION
from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV, PluginHost, load_plugins


@pytest.fixture(autouse=True)
def _no_plugin_environment(monkeypatch):
    """Each test starts without the strict and disable switches of the caller's shell."""
    monkeypatch.delenv(STRICT_ENV, raising=False)
    monkeypatch.delenv(DISABLE_ENV, raising=False)


def fixture_plugins(*names: str) -> list[tuple[str, object]]:
    return [(name, importlib.import_module(f"plugin_fixtures.{name}")) for name in names]


def load(*names: str, strict: bool | None = None) -> PluginHost:
    return load_plugins(use_entry_points=False, extra_plugins=fixture_plugins(*names), strict=strict)


def failures_of(host: PluginHost, name: str):
    return [f for f in host.failures if f.name == name]


# --- a good plugin -------------------------------------------------------------


def test_a_good_plugin_is_loaded_with_where_it_came_from():
    host = load("good_catalog")
    assert host.failures == []
    info = host.plugins["good_catalog"]
    assert (info.name, info.distribution, info.module) == (
        "good_catalog",
        "local",
        "plugin_fixtures.good_catalog",
    )
    assert info.api_version == "1"
    assert "good_catalog" in info.label and "local" in info.label


def test_each_call_builds_a_fresh_manager():
    first, second = load("good_catalog"), load("good_catalog")
    assert first.manager is not second.manager
    assert first.plugins is not second.plugins


def test_importing_geomodel_loads_no_plugin():
    """No work at import time: plugins load only when load_plugins() is called."""
    code = (
        "import sys, geomodel, geomodel.catalog, geomodel.cli\n"
        "from importlib.metadata import entry_points\n"
        "modules = {ep.value.split(':')[0] for ep in entry_points(group='geomodel')}\n"
        "print(sorted(m for m in modules if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_call_each_follows_load_order():
    host = load("dict_entries", "good_catalog")
    order = [plugin.name for plugin, _ in host.call_each("register_hardware_systems")]
    assert order == ["dict_entries", "good_catalog"]


def test_a_hookimpl_with_fewer_arguments_than_its_spec_works():
    host = load("fewer_args")
    assert host.failures == []
    problems = [r for _, r in host.call_each("validate_scenario", scenario={"sites": []}, catalog=None)]
    assert problems == [["sites: a scenario needs at least one site"]]
    model: dict[str, float] = {}
    list(host.call_each("extend_model", model=model, inputs=None))
    assert model == {"fixture_battery_mwh": 10.0}


# --- failures: reported, the good plugin still loads, fatal in strict mode ------

#: (fixture module, stage recorded, text the reason must contain)
FAILURES = [
    ("raising_hook", "register_hardware_systems", "RuntimeError: vendor table fixture_missing.csv"),
    ("invalid_entries", "register_hardware_systems", "active_power_kw_per_chip"),
    ("invalid_in_constructor", "register_hardware_systems", "active_power_kw_per_chip"),
    ("api_v2", "load", "plugin API 2"),
    ("unknown_hook", "load", "register_cooling_systems"),
    ("bad_signature", "load", "catalog"),
]


@pytest.mark.parametrize(("broken", "stage", "reason"), FAILURES, ids=[f[0] for f in FAILURES])
def test_a_failing_plugin_is_reported_and_the_good_one_still_loads(broken, stage, reason):
    catalog = build_catalog(load("good_catalog", broken))
    failures = [f for f in catalog.failures if f.name == broken]
    assert failures, catalog.failures
    assert any(f.stage == stage and reason in f.reason for f in failures), failures
    assert all(f.distribution == "local" for f in failures)
    assert all(f"plugin {broken!r} (distribution local)" in str(f) for f in failures)
    # the good plugin is untouched
    assert "good_catalog" in catalog.plugins
    assert catalog.contributions("good_catalog") == {
        "hardware systems": ["fixture_hgx_8"],
        "link technologies": ["fixture_smf"],
        "power sources": ["fixture_grid"],
        "build costs": [],
        "weather points": [],
        "language models": [],
    }
    assert not [f for f in catalog.failures if f.name == "good_catalog"]


@pytest.mark.parametrize(("broken", "stage", "reason"), FAILURES, ids=[f[0] for f in FAILURES])
def test_strict_mode_makes_each_failure_fatal(monkeypatch, broken, stage, reason):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(PluginError) as raised:
        build_catalog(load("good_catalog", broken))
    message = str(raised.value)
    assert f"plugin {broken!r} (distribution local) {stage}" in message
    assert reason in message
    assert STRICT_ENV in message
    assert isinstance(raised.value, GeomodelError)  # printed as one line by the CLI


@pytest.mark.parametrize(
    ("value", "strict"),
    [("1", True), ("true", True), ("YES", True), ("on", True), ("0", False), ("", False)],
)
def test_strict_switch_values(monkeypatch, value, strict):
    monkeypatch.setenv(STRICT_ENV, value)
    assert load("good_catalog").strict is strict


def test_the_strict_argument_overrides_the_environment(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    host = load("good_catalog", "api_v2", strict=False)
    assert [f.name for f in host.failures] == ["api_v2"]


def test_a_raising_hook_does_not_hide_the_plugins_other_hooks():
    catalog = build_catalog(load("raising_hook"))
    assert [f.stage for f in catalog.failures] == ["register_hardware_systems"]
    assert catalog.contributions("raising_hook")["link technologies"] == ["fixture_raising_plugin_link"]


def test_an_invalid_entry_built_inside_a_hook_is_reported_on_one_line():
    catalog = build_catalog(load("invalid_in_constructor"))
    (failure,) = catalog.failures
    assert "active_power_kw_per_chip" in failure.reason
    assert "\n" not in failure.reason


# --- plugin API version --------------------------------------------------------


def versioned_plugin(api_version: object) -> object:
    class Plugin:
        GEOMODEL_PLUGIN_API = api_version

        @hookimpl
        def register_hardware_systems(self):
            return []

    return Plugin()


@pytest.mark.parametrize("version", ["1", "1.0", "1.9", 1])
def test_a_plugin_for_the_same_major_api_version_loads(version):
    """A minor version only adds: a plugin of a later minor loads while it uses only
    what this geomodel has."""
    host = load_plugins(use_entry_points=False, extra_plugins=[("versioned", versioned_plugin(version))])
    assert host.failures == []
    assert host.plugins["versioned"].api_version == str(version)


@pytest.mark.parametrize("version", ["2", "2.0", "0.9"])
def test_a_plugin_for_another_major_api_version_is_refused_with_both_versions(version):
    host = load_plugins(use_entry_points=False, extra_plugins=[("versioned", versioned_plugin(version))])
    assert "versioned" not in host.plugins
    (failure,) = host.failures
    assert f"plugin API {version}" in failure.reason
    assert f"plugin API {PLUGIN_API_VERSION}" in failure.reason
    assert list(host.call_each("register_hardware_systems")) == []


def test_a_plugin_without_a_declared_api_version_is_taken_as_current():
    host = load("dict_entries")
    assert host.plugins["dict_entries"].api_version == PLUGIN_API_VERSION


def test_a_plugin_for_api_2_contributes_nothing():
    catalog = build_catalog(load("api_v2"))
    assert "fixture_from_api_2" not in catalog.hardware
    assert "api_v2" not in catalog.plugins


# --- hooks that do not fit the contract -----------------------------------------


def test_a_plugin_implementing_an_unknown_hook_is_refused_as_a_whole():
    catalog = build_catalog(load("unknown_hook"))
    (failure,) = catalog.failures
    assert failure.stage == "load"
    assert "implements unknown hooks ['register_cooling_systems']" in failure.reason
    assert "unknown_hook" not in catalog.plugins
    assert "fixture_with_unknown_hook" not in catalog.hardware


_MAJOR, _MINOR = (int(part) for part in PLUGIN_API_VERSION.split("."))
#: the next minor version, mapped below to a future release; one further on, mapped to none
NEXT_MINOR_API = f"{_MAJOR}.{_MINOR + 1}"
UNMAPPED_MINOR_API = f"{_MAJOR}.{_MINOR + 5}"


@pytest.mark.parametrize(
    ("declared", "needs"),
    [
        (f"{_MAJOR}.0", ""),
        (PLUGIN_API_VERSION, ""),
        (NEXT_MINOR_API, "geomodel 9.9.0 or later"),
        (UNMAPPED_MINOR_API, "a later geomodel"),
    ],
)
def test_a_plugin_of_a_later_minor_api_using_a_hook_it_added_names_the_upgrade(
    declared, needs, monkeypatch
):
    """Issue 24, item 7: a plugin written for a later minor version failed with 'unknown
    hooks' alone; the failure now says which geomodel provides its version."""
    module = importlib.import_module("plugin_fixtures.unknown_hook")
    monkeypatch.setattr(module, "GEOMODEL_PLUGIN_API", declared, raising=False)
    monkeypatch.setitem(hookspecs.PLUGIN_API_HISTORY, NEXT_MINOR_API, "9.9.0")  # a future release
    host = load_plugins(use_entry_points=False, extra_plugins=[("later", module)])
    (failure,) = host.failures
    assert "implements unknown hooks ['register_cooling_systems']" in failure.reason
    if not needs:  # written for this geomodel's version or an earlier one: a typo, no upgrade
        assert "upgrade" not in failure.reason
    else:
        assert f"built for plugin API {declared}, which {needs} provides" in failure.reason
        assert f"(this geomodel provides {PLUGIN_API_VERSION}): upgrade geomodel" in failure.reason


def test_a_hookimpl_asking_for_an_argument_the_spec_lacks_is_refused():
    host = load("bad_signature")
    (failure,) = host.failures
    assert failure.stage == "load"
    assert "PluginValidationError" in failure.reason and "catalog" in failure.reason
    assert "bad_signature" not in host.plugins


def test_an_optional_hookimpl_for_a_hook_this_version_lacks_is_allowed():
    catalog = build_catalog(load("optional_future_hook"))
    assert catalog.failures == []
    assert "fixture_with_optional_hook" in catalog.hardware


# --- disabling -------------------------------------------------------------------


def test_disabled_plugins_are_not_loaded(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, " raising_hook , api_v2")
    host = load("good_catalog", "raising_hook", "api_v2")
    assert list(host.plugins) == ["good_catalog"]
    assert host.failures == []


# --- through installed distributions and entry points ---------------------------

FIXTURE_DIST = "geomodel-fixture-plugins"


def ours(plugins: dict) -> dict:
    """The plugins of the test distribution only: a plugin installed into the shared
    environment while a test runs (by a concurrent test run, say) must not fail it."""
    return {name: info for name, info in plugins.items() if info.distribution == FIXTURE_DIST}


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A distribution with three entry points installed on sys.path; every other
    plugin distribution (the built-ins among them) is blocked so tests see only it."""
    others = installed_plugin_distributions()
    write_distribution(
        tmp_path,
        FIXTURE_DIST,
        "1.2.3",
        {
            "good": "plugin_fixtures.good_catalog",
            "broken": "plugin_fixtures.broken_import",
            "raising": "plugin_fixtures.raising_hook",
        },
    )
    monkeypatch.syspath_prepend(str(TESTS_DIR))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(DISABLE_ENV, ",".join(sorted(others)))
    return tmp_path


def test_entry_point_plugins_carry_their_distribution(installed):
    host = load_plugins()
    info = host.plugins["good"]
    assert (info.distribution, info.version, info.module) == (
        FIXTURE_DIST,
        "1.2.3",
        "plugin_fixtures.good_catalog",
    )


def test_a_plugin_that_fails_to_import_is_reported_with_its_distribution(installed):
    catalog = build_catalog(load_plugins())
    (failure,) = [f for f in catalog.failures if f.name == "broken"]
    assert failure.distribution == FIXTURE_DIST
    assert failure.stage == "load"
    assert failure.reason == (
        "ModuleNotFoundError: No module named 'geomodel_fixture_missing_dependency'"
    )
    assert "broken" not in catalog.plugins
    assert sorted(ours(catalog.plugins)) == ["good", "raising"]
    assert "fixture_hgx_8" in catalog.hardware
    (raised,) = [f for f in catalog.failures if f.name == "raising"]
    assert raised.distribution == FIXTURE_DIST


def test_an_invalid_entry_of_an_installed_plugin_names_plugin_distribution_and_field(installed):
    write_distribution(
        installed, "geomodel-fixture-invalid", "0.1", {"invalid": "plugin_fixtures.invalid_entries"}
    )
    catalog = build_catalog(load_plugins())
    (slow,) = [f for f in catalog.failures if "fixture_slow_link" in f.reason]
    assert str(slow) == (
        "plugin 'invalid' (distribution geomodel-fixture-invalid) register_link_technologies: "
        "entry 0 ('fixture_slow_link') is invalid: latency_us_per_km = 10.0 us/km is outside "
        "the physical range [3, 6] us/km"
    )
    assert "fixture_valid_among_invalid" in catalog.hardware


def test_strict_mode_fails_on_a_plugin_that_cannot_be_imported(installed, monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(PluginError, match=rf"plugin 'broken' \(distribution {FIXTURE_DIST}\) load: "):
        load_plugins()


def test_plugins_are_disabled_by_entry_point_name(installed, monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, f"{os.environ[DISABLE_ENV]},broken,raising")
    catalog = build_catalog(load_plugins())
    assert list(ours(catalog.plugins)) == ["good"]
    assert [f for f in catalog.failures if f.distribution == FIXTURE_DIST] == []


def test_plugins_are_disabled_by_distribution_name(installed, monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, f"{os.environ[DISABLE_ENV]},{FIXTURE_DIST}")
    host = load_plugins()
    assert ours(host.plugins) == {}
    assert [f for f in host.failures if f.distribution == FIXTURE_DIST] == []


def test_distribution_names_are_matched_as_normalised_names(installed, monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, f"{os.environ[DISABLE_ENV]},Geomodel_Fixture.Plugins")
    assert ours(load_plugins().plugins) == {}


def test_two_distributions_using_one_plugin_name_are_an_error_naming_both(installed, monkeypatch):
    """Issue 24, item 2: the distribution that sorted first kept the name; now neither
    loads, whatever the order, and each failure names the other distribution."""
    write_distribution(
        installed, "geomodel-fixture-rival", "0.5", {"good": "plugin_fixtures.dict_entries"}
    )
    host = load_plugins()
    assert "good" not in host.plugins
    clashes = {f.distribution: f for f in host.failures if f.name == "good"}
    assert set(clashes) == {FIXTURE_DIST, "geomodel-fixture-rival"}
    assert "is also claimed by distribution geomodel-fixture-rival" in clashes[FIXTURE_DIST].reason
    assert f"is also claimed by distribution {FIXTURE_DIST}" in str(clashes["geomodel-fixture-rival"])
    assert "must not depend on install order" in clashes[FIXTURE_DIST].reason


def test_disabling_one_of_two_distributions_using_one_plugin_name_loads_the_other(
    installed, monkeypatch
):
    write_distribution(
        installed, "geomodel-fixture-rival", "0.5", {"good": "plugin_fixtures.dict_entries"}
    )
    monkeypatch.setenv(DISABLE_ENV, f"{os.environ[DISABLE_ENV]},geomodel-fixture-rival")
    host = load_plugins()
    assert host.plugins["good"].distribution == FIXTURE_DIST
    assert host.disabled["good"] == "geomodel-fixture-rival"
    assert [f for f in host.failures if f.name == "good"] == []
