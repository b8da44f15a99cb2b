"""geomodel.testing's conformance checks: the built-ins pass, broken plugins fail.

Each broken plugin under ``broken_plugins/`` is wrong in one way an author gets it
wrong; every failure must name the plugin and the field, so the author knows
what to change.
"""

from __future__ import annotations

import importlib

import pandas as pd
import pytest

from geomodel.catalog import (
    BuildCost,
    HardwareSystem,
    LinkTechnology,
    PowerSource,
    WeatherPoint,
    build_catalog,
)
from geomodel.errors import PluginError, UnknownNameError
from geomodel.testing import (
    FIELD_UNITS,
    MINIMAL_PLUGINS,
    MINIMAL_SITE,
    CheckResult,
    ConformanceReport,
    builtin_plugin_names,
    check_installed_plugin,
    check_plugin,
    load_minimal_scenario,
    minimal_scenario,
    plugin_host,
)


def broken(name: str):
    return importlib.import_module(f"testing.broken_plugins.{name}")


def failures(report: ConformanceReport) -> dict[tuple[str, str, str], CheckResult]:
    """(check, entry, field) -> the failed result."""
    return {(r.check, r.entry, r.field): r for r in report.failures}


def assert_names_plugin_and_field(result: CheckResult, plugin: str) -> None:
    text = str(result)
    assert text.startswith(f"FAIL [{result.check}] plugin {plugin!r}")
    if result.field:
        assert f"field {result.field}" in text


@pytest.fixture(autouse=True)
def _clean(geomodel_clean_environment):
    """The caller's GEOMODEL_* switches must not change what the checks see."""


# --- the built-ins are the proof that the checks accept correct plugins ---------------


@pytest.mark.parametrize("name", builtin_plugin_names())
def test_every_built_in_plugin_passes(name):
    report = check_installed_plugin(name)
    assert report.passed, report.summary()
    assert report.distribution == "geomodel"
    assert {r.check for r in report.results} >= {"loads", "plugin-api", "hooks"}


def test_a_built_in_power_source_gets_every_profile_check():
    report = check_installed_plugin("firm")
    checks = {(r.check, r.field) for r in report.results if r.entry == "nuclear"}
    assert {
        ("fields", ""),
        ("sources", ""),
        ("unique-name", "name"),
        ("profile-columns", ""),
        ("profile-index", "index"),
        ("profile-range", "capacity_factor"),
        ("profile-mean", "carbon_kg_per_mwh"),
        ("profile-timezone", ""),
    } <= checks


def test_the_battery_extension_builds_and_solves_with_settings():
    settings = {"sites": {MINIMAL_SITE: {"energy": "0.2 MWh", "power": "0.1 MW"}}}
    report = check_installed_plugin("battery", settings=settings)
    assert report.passed, report.summary()
    by_check = {r.check: r for r in report.results}
    assert "battery_charge_mw" in by_check["extension-names"].message
    assert by_check["model-solves"].message.startswith("builds and solves to optimality")


# --- broken plugins fail, naming plugin and field ---------------------------------------


def test_wrong_units_fail_with_the_unit_they_look_like():
    report = check_plugin(broken("wrong_units"))
    found = failures(report)
    watts = found[("field-range", "kilowatts_as_watts", "active_power_kw_per_chip")]
    assert "1275 looks like W per chip: that is 1.275 kW per chip" in watts.message
    unit_name = found[("unknown-field", "watts_server", "active_power_w_per_chip")]
    assert "did you mean 'active_power_kw_per_chip' (kW per chip)" in unit_name.message
    assert ("required-field", "watts_server", "active_power_kw_per_chip") in found
    latency = found[("field-range", "ms_per_km", "latency_us_per_km")]
    assert "looks like ms/km: that is 4.9 us/km" in latency.message
    assert "link technology 'ms_per_km'" in str(latency)
    percent = found[("field-range", "percent_grid", "capacity_factor")]
    assert "looks like percent: that is 0.95" in percent.message
    for result in found.values():
        assert_names_plugin_and_field(result, "wrong_units")
    passing = {r.entry for r in report.results if r.check == "fields" and r.passed}
    assert passing == {"right_units", "fine_link"}


def test_a_negative_power_fails_even_when_construction_was_skipped():
    report = check_plugin(broken("negative_power"))
    (result,) = report.failures
    assert (result.check, result.entry, result.field) == (
        "field-range",
        "negative_server",
        "active_power_kw_per_chip",
    )
    assert "-1.0 kW per chip is outside the physical range [0.05, 5] kW per chip" in result.message
    assert_names_plugin_and_field(result, "negative_power")


def test_profiles_with_gaps_wall_clock_values_or_wrong_columns_fail():
    found = failures(check_plugin(broken("bad_profiles")))
    missing = found[("profile-index", "missing_hours", "index")]
    assert "profile has a gap: 24 of 8760 requested hours missing, first at 2025-02-01 00:00" in (
        missing.message
    )
    empty = found[("profile-gaps", "empty_hours", "carbon_kg_per_mwh")]
    assert "24 empty or infinite hours in carbon_kg_per_mwh, first at 2025-01-05 04:00" in empty.message
    clock = found[("profile-timezone", "wall_clock", "price_usd_per_mwh")]
    assert "values depend on the time zone of the index" in clock.message
    columns = found[("profile-columns", "unitless_columns", "price_usd_per_mwh")]
    assert "got 'price': columns carry their unit in their name" in columns.message
    kwh = found[("profile-mean", "kwh_prices", "price_usd_per_mwh")]
    assert "1/1000 of the entry's figure" in kwh.message
    assert len(found) == 5
    for result in found.values():
        assert_names_plugin_and_field(result, "bad_profiles")
        assert str(result).startswith("FAIL") and f"power source {result.entry!r}" in str(result)


def test_duplicate_and_shadowing_names_fail_and_a_declared_override_passes():
    report = check_plugin(broken("duplicate_names"))
    found = failures(report)
    twice = found[("unique-name", "twice_server", "name")]
    assert "hardware system 'twice_server' is defined 2 times by this plugin" in twice.message
    shadow = found[("no-shadowing", "hgx_h100_8", "name")]
    assert "shadows the built-in of plugin 'hardware' (distribution geomodel)" in shadow.message
    assert "GEOMODEL_OVERRIDES = ['hgx_h100_8']" in shadow.message
    unused = found[("overrides", "nuclear", "GEOMODEL_OVERRIDES")]
    assert "does not define over a built-in" in unused.message
    assert len(found) == 3
    (declared,) = [r for r in report.results if r.entry == "grid_de" and r.check == "no-shadowing"]
    assert declared.passed and "GEOMODEL_DISABLE_PLUGINS=grid" in declared.message


def test_a_name_another_third_party_plugin_uses_fails(tmp_path):
    good, clash = (
        importlib.import_module("plugin_fixtures.good_catalog"),
        importlib.import_module("plugin_fixtures.duplicate_entry"),
    )
    from geomodel.testing import run_checks

    host = plugin_host("hardware", ("good", good), ("clash", clash))
    report = run_checks(host, "clash", clash)
    (result,) = report.failures[-1:]
    assert result.check == "unique-name" and result.entry == "fixture_hgx_8"
    assert "also defined by plugin 'good' (distribution local)" in result.message


def test_an_extension_with_unprefixed_components_and_no_api_version_fails():
    found = failures(check_plugin(broken("bad_extension")))
    assert set(found) == {
        ("plugin-api", "", "GEOMODEL_PLUGIN_API"),
        ("extension-names", "", "site_cap"),
    }
    names = found[("extension-names", "", "site_cap")]
    assert "do not start with 'bad_extension_'" in names.message
    assert "plugin 'bad_extension', field site_cap" in str(names)


def test_an_extension_that_raises_fails_with_its_error():
    (result,) = check_plugin(broken("raising_extension")).failures
    assert result.check == "model-extension"
    assert result.message == "extend_model raised KeyError: 'cap'"


def test_a_scenario_check_that_complains_about_unused_plugins_fails():
    (result,) = check_plugin(broken("noisy_validator")).failures
    assert result.check == "validate-scenario"
    assert "reports problems for a scenario that does not use the plugin" in result.message


def test_a_plugin_that_cannot_load_fails_the_load_check():
    api_v2 = importlib.import_module("plugin_fixtures.api_v2")
    report = check_plugin(api_v2, name="api_v2")
    (result,) = report.results
    assert (result.check, result.passed) == ("loads", False)
    assert "built for plugin API 2" in result.message


def test_a_plugin_named_like_a_built_in_is_not_mistaken_for_it():
    report = check_plugin(importlib.import_module("plugin_fixtures.good_catalog"), name="grid")
    (result,) = report.results
    assert not result.passed and "plugin name 'grid' is already used by geomodel" in result.message


# --- the report and the kit's helpers -----------------------------------------------------


def test_the_report_is_structured_for_pytest_and_the_cli():
    report = check_plugin(broken("negative_power"))
    data = report.to_dict()
    assert data["plugin"] == "negative_power" and data["passed"] is False
    assert data["counts"]["failed"] == 1
    row = next(r for r in data["results"] if not r["passed"])
    assert set(row) == {"check", "plugin", "entry", "field", "passed", "message", "kind", "warning"}
    with pytest.raises(
        AssertionError, match=r"1 failed\n  FAIL \[field-range\] plugin 'negative_power'"
    ):
        report.assert_ok()


def test_every_numeric_entry_field_has_its_unit():
    for entry_class in (HardwareSystem, LinkTechnology, PowerSource, BuildCost, WeatherPoint):
        for name, info in entry_class.model_fields.items():
            if info.annotation in (int, float, float | None):
                assert name in FIELD_UNITS, f"{entry_class.__name__}.{name} has no unit in FIELD_UNITS"


def test_a_plugin_host_holds_only_the_plugins_named():
    module = importlib.import_module("plugin_fixtures.good_catalog")
    host = plugin_host("hardware", module)
    assert list(host.plugins) == ["hardware", "good_catalog"]
    assert host.plugins["hardware"].distribution == "geomodel"
    catalog = build_catalog(host)
    assert catalog.power_sources.keys() == {"fixture_grid"}
    with pytest.raises(UnknownNameError, match="unknown plugin 'hardwar'; did you mean hardware"):
        plugin_host("hardwar")
    with pytest.raises(PluginError):
        plugin_host(("broken", importlib.import_module("plugin_fixtures.api_v2")), strict=True)


def test_the_minimal_scenario_is_valid_and_changeable():
    data = minimal_scenario(hours=6, extensions={"battery": {"sites": {}}})
    assert data["time"]["hours"] == 6 and data["extensions"] == {"battery": {"sites": {}}}
    catalog = build_catalog(plugin_host(*MINIMAL_PLUGINS, "battery"))  # takes the settings
    scenario = load_minimal_scenario(catalog, data=data)
    assert list(scenario.sites) == [MINIMAL_SITE]
    assert len(scenario.time.hourly_index()) == 6
    assert scenario.time.hourly_index()[0] == pd.Timestamp("2025-01-01", tz="UTC")


def test_the_fixtures_come_from_the_pytest11_entry_point(
    geomodel_check_plugin, geomodel_plugin_host, geomodel_minimal_scenario
):
    assert geomodel_check_plugin is check_plugin and geomodel_plugin_host is plugin_host
    scenario = geomodel_minimal_scenario(objective={"carbon_price": 80})
    assert scenario.objective.carbon_price == 80


def test_an_extension_that_adds_no_rows_to_the_test_scenario_fails_model_solves():
    """Issue 13, item 5: 'model-solves' passed when the extension added nothing to solve."""
    found = failures(check_plugin(broken("vacuous_extension")))
    result = found[("model-solves", "", "extensions.vacuous_extension")]
    assert "adds no constraint rows or variables to the minimal scenario" in result.message
    assert "so solving it checks nothing" in result.message
    assert_names_plugin_and_field(result, "vacuous_extension")


def test_an_extension_without_settings_that_adds_nothing_fails_model_solves():
    (result,) = check_plugin(broken("silent_extension")).failures
    assert result.check == "model-solves"
    assert "declare GEOMODEL_EXAMPLE_SETTINGS that make it add its constraints" in result.message


def test_model_solves_counts_what_the_extension_solved():
    """The battery on the 4-hour minimal scenario (its GEOMODEL_EXAMPLE_SETTINGS, one
    site): a state-of-charge row per step (4) and the end-of-horizon row (1); charge,
    discharge and state of charge per step (3 x 4 = 12 variables)."""
    report = check_installed_plugin("battery")
    (solved,) = [r for r in report.results if r.check == "model-solves"]
    assert solved.passed
    assert "with its 5 constraint rows and 12 variables" in solved.message


def test_build_costs_fail_on_unit_slips_unknown_or_wrong_entries_and_double_prices():
    found = failures(check_plugin(broken("bad_costs"), name="bad_costs"))
    slip = found[("cost-magnitude", "kw_as_mw", "capex_usd_per_unit")]
    # 1100 USD per MW is outside [1e4, 1e8]; x 1000 (per kW -> per MW) is 1.1e6, inside
    assert "1100 looks like USD/kW: that is 1.1e+06 USD per MW" in slip.message
    unknown = found[("cost-applies-to", "nothing_here", "applies_to")]
    assert "applies_to names 'solar_pv_floating'" in unknown.message
    wrong = found[("cost-applies-to", "server_per_mw", "unit")]
    assert "a cost per MW cannot price 'hgx_h100_8' (hardware systems)" in wrong.message
    twice = found[("cost-applies-once", "cheaper_solar", "applies_to")]
    assert "'solar_pv' is also priced per MW by solar_pv_utility" in twice.message
    for result in found.values():
        assert_names_plugin_and_field(result, "bad_costs")
        assert "build cost" in str(result)


def test_weather_points_fail_on_unit_slips_gaps_and_raising():
    found = failures(check_plugin(broken("bad_weather"), name="bad_weather"))
    # (check, entry, field) -> what its message must say
    expected = {
        # 27 km/h is 7.5 m/s: a mean of 27 "m/s" is beyond the windiest places on Earth (20)
        ("weather-units", "wind_in_km_h", "wind_speed_10m_m_s"): [
            "averages 27 over 8760 hours",
            "looks like km/h, which is 7.5 m/s",
        ],
        # 283.15 is outside [-90, 60] degC; minus 273.15 it is 10 degC, inside
        ("weather-range", "kelvin", "temperature_c"): [
            "8760 hours of temperature_c outside [-90, 60] degC, first 283.15",
            "283.15 looks like kelvin: that is 10 degC",
        ],
        ("weather-units", "humidity_fraction", "relative_humidity_pct"): [
            "never passes 0.8 over 8760 hours: that looks like a fraction"
        ],
        ("weather-gaps", "gap", "relative_humidity_pct"): [
            "1 empty or infinite hours in relative_humidity_pct, first at 2025-01-01 05:00:00+00:00"
        ],
        ("weather-columns", "km_h_column", "wind_speed_10m_m_s"): [
            "weather lacks column 'wind_speed_10m_m_s' (m/s); got 'wind_speed_10m_km_h': columns "
            "carry their unit in their name, convert to m/s"
        ],
        # 2025-01-01 00:00 UTC is 05:30 in Kolkata: 5 + 0 degC asked in UTC, 5 + 5 asked there
        ("weather-timezone", "wall_clock", "temperature_c"): [
            "at 2025-01-01 00:00:00+00:00 temperature_c is 5 asked in UTC but 10 asked in Asia/Kolkata"
        ],
        ("weather-runs", "raises", ""): ["hourly_weather raised OSError: reanalysis archive not found"],
    }
    for key, parts in expected.items():
        for part in parts:
            assert part in found[key].message, (key, found[key].message)
    # these two messages are given whole
    whole = [("weather-columns", "km_h_column", "wind_speed_10m_m_s"), ("weather-runs", "raises", "")]
    for exact in whole:
        assert found[exact].message == expected[exact][0]
    assert len(found) == 7
    for result in found.values():
        assert_names_plugin_and_field(result, "bad_weather")
        assert "weather point" in str(result)


# --- issue 24: what check-plugin now catches -------------------------------------------


def test_an_extension_that_changes_a_scenario_not_using_it_fails_unused_untouched():
    """Item 6: check-plugin passed an extend_model that capped every scenario's power."""
    report = check_plugin(broken("meddling_extension"))
    result = failures(report)[("unused-untouched", "", "")]
    assert "changes a scenario that does not use it (no extensions.meddling_extension)" in result.message
    assert "meddling_extension_cap" in result.message


def test_the_built_in_battery_leaves_a_scenario_without_it_unchanged():
    report = check_plugin(importlib.import_module("geomodel_builtins.battery"), "battery")
    (result,) = [r for r in report.results if r.check == "unused-untouched"]
    assert result.passed, result.message


def test_a_system_no_build_cost_prices_is_a_warning_naming_what_to_register():
    """Item 4: nothing in check-plugin said a plugin's hardware cannot be built."""
    report = check_plugin(
        importlib.import_module("plugin_fixtures.outside_author.hardware"), "outside_hw"
    )
    assert report.passed
    (warning,) = report.warnings
    assert (warning.check, warning.entry, warning.verdict) == ("buildable", "outside_accel_8", "WARN")
    assert "register_build_costs returning BuildCost(asset_class='systems', unit='system'" in (
        warning.message
    )
    assert "finance.lifetimes.systems" in warning.message and "its capex" not in warning.message
    assert "1 with a warning" in report.summary()


def test_a_source_priced_by_its_own_cost_is_buildable():
    report = check_plugin(importlib.import_module("plugin_fixtures.outside_author.smr"))
    (result,) = [r for r in report.results if r.check == "buildable"]
    assert result.passed and not result.warning
    assert result.message == "priced for planning by outside_smr_plant"


def test_a_settings_hook_that_returns_no_model_fails_extension_settings():
    from plugin_fixtures.settings_plugins import NotAModel

    report = check_plugin(NotAModel(), "not_a_model")
    result = failures(report)[("extension-settings", "", "extensions.not_a_model")]
    assert "return the pydantic model class of the settings" in result.message


def test_an_extension_with_declared_settings_and_outputs_passes_every_check():
    report = check_plugin(importlib.import_module("plugin_fixtures.outside_author.energy_cap"))
    assert report.passed, report.summary()
    checks = {r.check: r for r in report.results}
    assert "the example settings pass CapSettings" in checks["extension-settings"].message
    assert "outside_cap_capped_it_mwh" in checks["extension-results"].message
    assert checks["unused-untouched"].passed
