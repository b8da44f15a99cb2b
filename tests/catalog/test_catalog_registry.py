"""build_catalog: entries re-validated like user data, duplicates, lookups."""

from __future__ import annotations

import importlib

import pytest

from geomodel.catalog import Catalog, HardwareSystem, LinkTechnology, PowerSource, build_catalog
from geomodel.errors import GeomodelError, PluginError, UnknownNameError
from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV, load_plugins


@pytest.fixture(autouse=True)
def _no_plugin_environment(monkeypatch):
    monkeypatch.delenv(STRICT_ENV, raising=False)
    monkeypatch.delenv(DISABLE_ENV, raising=False)


def catalog_of(*names: str) -> Catalog:
    plugins = [(n, importlib.import_module(f"plugin_fixtures.{n}")) for n in names]
    return build_catalog(load_plugins(use_entry_points=False, extra_plugins=plugins))


def reasons(catalog: Catalog, plugin: str) -> list[str]:
    return [f.reason for f in catalog.failures if f.name == plugin]


def test_an_empty_catalogue():
    catalog = build_catalog(load_plugins(use_entry_points=False))
    assert (catalog.hardware, catalog.links, catalog.power_sources) == ({}, {}, {})
    assert catalog.plugins == {} and catalog.failures == []


def test_entries_are_filed_by_kind_with_their_provider():
    catalog = catalog_of("good_catalog")
    assert isinstance(catalog.hardware_system("fixture_hgx_8"), HardwareSystem)
    assert isinstance(catalog.link_technology("fixture_smf"), LinkTechnology)
    assert isinstance(catalog.power_source("fixture_grid"), PowerSource)
    assert catalog.provider == {
        ("hardware systems", "fixture_hgx_8"): "good_catalog",
        ("link technologies", "fixture_smf"): "good_catalog",
        ("power sources", "fixture_grid"): "good_catalog",
    }
    assert catalog.entries("link technologies") is catalog.links
    assert catalog.versions() == {"local": "0"}


def test_entries_given_as_dicts_are_validated_into_typed_entries():
    catalog = catalog_of("dict_entries")
    assert catalog.failures == []
    hardware = catalog.hardware_system("fixture_dict_hgx")
    assert isinstance(hardware, HardwareSystem)
    assert hardware.chips_per_system == 8  # "8" in the dict, coerced like user data
    assert isinstance(catalog.link_technology("fixture_dict_link"), LinkTechnology)
    solar = catalog.power_source("fixture_dict_solar")
    assert (type(solar), solar.kind, solar.capacity_factor) == (PowerSource, "solar", 0.2)


# --- invalid entries: each reported with plugin, distribution, entry and field ---


@pytest.fixture(scope="module")
def invalid() -> Catalog:
    return catalog_of("good_catalog", "invalid_entries")


def test_valid_entries_survive_beside_invalid_ones(invalid):
    assert invalid.contributions("invalid_entries") == {
        "hardware systems": ["fixture_valid_among_invalid"],
        "link technologies": [],
        "power sources": [],
        "build costs": [],
        "weather points": [],
        "language models": [],
    }
    assert set(invalid.hardware) == {"fixture_hgx_8", "fixture_valid_among_invalid"}
    assert "invalid_entries" in invalid.plugins  # the plugin loaded; its bad entries did not


@pytest.mark.parametrize(
    ("hook", "expected"),
    [
        (
            "register_hardware_systems",
            "entry 1 ('fixture_negative_power') is invalid: active_power_kw_per_chip = -1.0 kW "
            "per chip is outside the physical range [0.05, 5] kW per chip",
        ),
        (
            "register_hardware_systems",
            "entry 2 ('fixture_wrong_type') is invalid: chips_per_system: "
            "should be a valid integer, unable to parse string as an integer (got 'eight')",
        ),
        (
            "register_hardware_systems",
            "entry 3 ('fixture_link_in_hardware_hook') is invalid: "
            "expected HardwareSystem, got LinkTechnology",
        ),
        (
            "register_link_technologies",
            "entry 0 ('fixture_slow_link') is invalid: latency_us_per_km = 10.0 us/km is outside "
            "the physical range [3, 6] us/km",
        ),
        ("register_power_sources", "returned PowerSource, expected a list"),
    ],
)
def test_each_invalid_entry_is_reported(invalid, hook, expected):
    (failure,) = [f for f in invalid.failures if f.stage == hook and expected in f.reason]
    assert (failure.name, failure.distribution) == ("invalid_entries", "local")
    assert str(failure).startswith(f"plugin 'invalid_entries' (distribution local) {hook}: ")


def test_invalid_entries_are_the_only_failures(invalid):
    assert len(invalid.failures) == 5
    assert reasons(invalid, "good_catalog") == []


# --- the same name from two plugins ---------------------------------------------


def test_a_name_defined_by_two_plugins_is_an_error_naming_both():
    catalog = catalog_of("good_catalog", "duplicate_entry")
    assert {f.name for f in catalog.failures} == {"good_catalog", "duplicate_entry"}
    for failure in catalog.failures:
        assert failure.entry == "fixture_hgx_8" and failure.kind == "hardware systems"
        assert (
            "hardware system 'fixture_hgx_8' is defined by plugin 'good_catalog' (distribution "
            "local) and plugin 'duplicate_entry' (distribution local), so geomodel uses neither"
        ) in failure.reason


@pytest.mark.parametrize(
    "order", [("good_catalog", "duplicate_entry"), ("duplicate_entry", "good_catalog")]
)
def test_a_name_two_third_party_plugins_define_is_used_from_neither_in_any_order(order):
    """Issue 24, item 2: the plugin loaded first kept the name (and the plan changed with
    the install order); now the name is in neither, and a lookup says why."""
    catalog = catalog_of(*order)
    assert "fixture_hgx_8" not in catalog.hardware
    assert catalog.clashes == {("hardware systems", "fixture_hgx_8"): list(order)}
    with pytest.raises(UnknownNameError, match="so geomodel uses neither") as raised:
        catalog.hardware_system("fixture_hgx_8")
    assert f"plugin {order[0]!r} (distribution local) and plugin {order[1]!r}" in str(raised.value)
    assert "GEOMODEL_DISABLE_PLUGINS=local" in str(raised.value)
    assert "fixture_smf" in catalog.links  # the plugins' other entries load


def test_a_plugin_returning_one_name_twice_keeps_its_first():
    catalog = catalog_of("good_catalog", "twice_entry")
    assert catalog.hardware_system("fixture_twice_8").vendor == "First"
    (failure,) = catalog.failures
    assert (failure.name, failure.entry) == ("twice_entry", "fixture_twice_8")
    assert "is returned twice: the first is kept" in failure.reason


def test_strict_mode_makes_a_duplicate_fatal(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(PluginError, match="'fixture_hgx_8' is defined by plugin 'good_catalog'"):
        catalog_of("good_catalog", "duplicate_entry")


# --- lookups -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_plugins() -> Catalog:
    return catalog_of("good_catalog", "dict_entries")


@pytest.mark.parametrize(
    ("lookup", "name", "kind", "closest"),
    [
        ("hardware_system", "fixture_hgx8", "hardware system", "fixture_hgx_8"),
        ("hardware_system", "FIXTURE_DICT_HGX", "hardware system", "fixture_dict_hgx"),
        ("link_technology", "smf", "link technology", "fixture_smf"),
        ("power_source", "fixture_dict_sol", "power source", "fixture_dict_solar"),
    ],
)
def test_an_unknown_name_lists_the_closest_names(two_plugins, lookup, name, kind, closest):
    with pytest.raises(UnknownNameError) as raised:
        getattr(two_plugins, lookup)(name)
    error = raised.value
    assert closest in error.closest
    assert str(error).startswith(f"unknown {kind} {name!r}; did you mean ")
    assert closest in str(error)
    assert isinstance(error, KeyError) and isinstance(error, GeomodelError)


def test_an_unknown_name_with_nothing_close_says_how_many_are_known(two_plugins):
    with pytest.raises(UnknownNameError) as raised:
        two_plugins.power_source("zzz")
    assert str(raised.value) == "unknown power source 'zzz' (known: 2 names)"
    assert raised.value.known == ["fixture_dict_solar", "fixture_grid"]


def test_an_invalid_entry_at_run_time_reads_as_check_plugin_says_it():
    """Issue 24, item 6: a run printed pydantic's 'Extra inputs are not permitted' where
    check-plugin names the field meant, with its unit."""
    catalog = catalog_of("unit_in_field_name")
    (failure,) = catalog.failures
    assert failure.reason == (
        "entry 0 ('fixture_watts_8') is invalid: missing required field active_power_kw_per_chip "
        "(kW per chip); unknown field 'active_power_w_per_chip'; did you mean "
        "'active_power_kw_per_chip' (kW per chip)? Fields carry their unit in their name: "
        "convert the value to it"
    )
    assert "Input should" not in failure.reason and "Extra inputs" not in failure.reason
