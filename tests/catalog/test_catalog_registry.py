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
            "entry 1 ('fixture_negative_power') is invalid: active_power_kw_per_chip: "
            "Input should be greater than or equal to 0.05 (got -1.0)",
        ),
        (
            "register_hardware_systems",
            "entry 2 ('fixture_wrong_type') is invalid: chips_per_system: "
            "Input should be a valid integer, unable to parse string as an integer (got 'eight')",
        ),
        (
            "register_hardware_systems",
            "entry 3 ('fixture_link_in_hardware_hook') is invalid: "
            "expected HardwareSystem, got LinkTechnology",
        ),
        (
            "register_link_technologies",
            "entry 0 ('fixture_slow_link') is invalid: latency_us_per_km: "
            "Input should be less than or equal to 6 (got 10.0)",
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
    (failure,) = catalog.failures
    both = {"good_catalog", "duplicate_entry"}
    assert failure.name in both
    (other,) = both - {failure.name}
    assert f"hardware system 'fixture_hgx_8' is also defined by plugin {other!r}" in failure.reason
    assert "(distribution local)" in failure.reason
    assert len(catalog.hardware) == 1  # one of them is kept, never both


def test_the_first_loaded_plugin_keeps_a_duplicated_name():
    catalog = catalog_of("good_catalog", "duplicate_entry")
    assert catalog.hardware_system("fixture_hgx_8").vendor == "Test"
    assert [f.name for f in catalog.failures] == ["duplicate_entry"]


def test_strict_mode_makes_a_duplicate_fatal(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(PluginError, match="'fixture_hgx_8' is also defined by plugin"):
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
