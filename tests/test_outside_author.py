"""Issue 24, "Done when": an outside author's walk, through the real command line.

The author ships four plugins in one distribution (``geomodel-outside-author``): a
hardware system without a build cost, a small modular reactor with its build cost, a
weather point, and a model extension with declared settings and outputs; a second
distribution (``geomodel-outside-rival``) registers the same system name, a third
(``geomodel-outside-broken``) fails to import. Every failure path must exit non-zero or
warn by name, and ``check-plugin``'s verdict must match what the loader does.

The distributions are installed as an installer lays them out (a ``.dist-info`` folder
with ``entry_points.txt``) on ``sys.path``; every other third-party distribution is
blocked, geomodel's built-ins stay. Commands run in-process through
``geomodel.cli.main``, the console script's entry point.
"""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path

import pytest
from plugin_fixtures import TESTS_DIR, installed_plugin_distributions, write_distribution
from plugin_fixtures.outside_author import smr
from ruamel.yaml import YAML

from geomodel.cli import main
from geomodel.plugin_loader import ALLOW_BROKEN_EXTENSIONS_ENV, DISABLE_ENV, STRICT_ENV
from geomodel.testing import MINIMAL_SITE, minimal_scenario

AUTHOR = "geomodel-outside-author"
RIVAL = "geomodel-outside-rival"
BROKEN = "geomodel-outside-broken"
PLUGINS = {
    "outside_hw": "plugin_fixtures.outside_author.hardware",
    "outside_smr": "plugin_fixtures.outside_author.smr",
    "outside_weather": "plugin_fixtures.reanalysis_weather",
    "outside_cap": "plugin_fixtures.outside_author.energy_cap",
}


@pytest.fixture
def install(tmp_path, monkeypatch):
    """A function installing the author's distribution and the others asked for."""
    for name in (STRICT_ENV, ALLOW_BROKEN_EXTENSIONS_ENV):
        monkeypatch.delenv(name, raising=False)
    others = sorted(installed_plugin_distributions() - {"geomodel"})
    monkeypatch.setenv(DISABLE_ENV, ",".join(others))  # "" when there are none
    monkeypatch.syspath_prepend(str(TESTS_DIR))

    def install_(*extra: tuple[str, dict[str, str]]) -> None:
        for name, plugins in [(AUTHOR, PLUGINS), *extra]:
            site = tmp_path / "site" / name
            write_distribution(site, name, "1.0", plugins)
            monkeypatch.syspath_prepend(str(site))

    return install_


def disable(monkeypatch, *names: str) -> None:
    given = [n for n in os.environ.get(DISABLE_ENV, "").split(",") if n]
    monkeypatch.setenv(DISABLE_ENV, ",".join([*given, *names]))


RIVAL_DIST = (RIVAL, {"outside_rival": "plugin_fixtures.outside_author.rival"})
BROKEN_DIST = (BROKEN, {"outside_broken": "plugin_fixtures.broken_import"})


def geomodel(capsys, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of one command; runs of spaces and line breaks (the
    console's wrapping) as one space."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, " ".join(out.split()), " ".join(err.split())


def refused(capsys, *args: str) -> str:
    """The stderr of a command that must fail with exit status 1."""
    code, out, err = geomodel(capsys, *args)
    assert code == 1, out + err
    return err


def geomodel_json(capsys, *args: str) -> tuple[int, dict, str]:
    """(exit code, the JSON printed, stderr) of one command run with ``--json``."""
    code = main([*(str(a) for a in args), "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else {}, " ".join(err.split())


def scenario_file(folder: Path, data: dict, name: str = "walk.yaml") -> Path:
    """``data`` as block-style YAML, so each field has a line of its own."""
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    text = io.StringIO()
    yaml.dump(data, text)
    path = folder / name
    path.write_text(text.getvalue(), encoding="utf-8")
    return path


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` holding ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def two_sites(**changes) -> dict:
    """The minimal scenario with a second site, ``cheap``, whose power costs 40 USD/MWh
    instead of 60: unconstrained, all the work runs there."""
    data = minimal_scenario()
    dear = data["sites"][MINIMAL_SITE]
    cheap = {**dear, "power_sources": {"nuclear": {"capacity": "1 MW", "price": "40 USD/MWh"}}}
    data["sites"] = {MINIMAL_SITE: dear, "cheap": cheap}
    data.update(changes)
    return data


# --- the plugins load, and a name two distributions define is nobody's -----------------


def test_the_authors_plugins_are_listed_with_their_distribution(install, capsys):
    install()
    code, report, _ = geomodel_json(capsys, "plugins")
    assert code == 0
    ours = {p["name"]: p for p in report["plugins"] if p["distribution"] == AUTHOR}
    assert set(ours) == set(PLUGINS)
    assert ours["outside_smr"]["contributes"]["build costs"] == ["outside_smr_plant"]
    assert ours["outside_weather"]["contributes"]["weather points"]
    assert report["failed"] == []


def test_a_system_two_distributions_define_is_refused_in_validate_naming_both(install, tmp_path, capsys):
    install(RIVAL_DIST)
    data = minimal_scenario()
    data["sites"][MINIMAL_SITE]["systems"] = {"outside_accel_8": 16}
    path = scenario_file(tmp_path, data)
    err = refused(capsys, "validate", path)
    line = line_of(path, "outside_accel_8")
    assert (
        f"{path}:{line}: sites.site_a.systems.outside_accel_8: unknown hardware system 'outside_accel_8'"
    ) in err
    assert (
        "hardware system 'outside_accel_8' is defined by plugin 'outside_hw' (distribution "
        f"{AUTHOR}) and plugin 'outside_rival' (distribution {RIVAL}), so geomodel uses neither"
    ) in err
    # the failure itself is said first, once per plugin, whether or not a scenario uses it
    assert err.startswith("warning: plugin 'outside_hw'")


def test_disabling_the_rival_lets_the_authors_system_run(install, tmp_path, capsys, monkeypatch):
    install(RIVAL_DIST)
    disable(monkeypatch, RIVAL)
    data = minimal_scenario()
    data["sites"][MINIMAL_SITE]["systems"] = {"outside_accel_8": 16}
    code, summary, err = geomodel_json(capsys, "validate", scenario_file(tmp_path, data))
    assert code == 0, err
    # 16 systems x 8 chips: the author's figures (the rival's 4 per system would give 64)
    assert summary["chips"] == 128


def test_check_plugin_fails_a_plugin_whose_entry_the_loader_refuses(install, capsys, monkeypatch):
    install(RIVAL_DIST)
    code, report, _ = geomodel_json(capsys, "check-plugin", "outside_hw")
    assert code == 1 and report["distribution"] == AUTHOR
    (clash,) = [r for r in report["results"] if not r["passed"]]
    assert (clash["check"], clash["entry"]) == ("unique-name", "outside_accel_8")
    assert f"is also defined by plugin 'outside_rival' (distribution {RIVAL})" in clash["message"]
    disable(monkeypatch, RIVAL)  # what the loader then loads, check-plugin passes
    code, out, _ = geomodel(capsys, "check-plugin", "outside_hw")
    assert code == 0, out
    assert "WARN" in out and "register_build_costs" in out  # no build cost: a warning


# --- a plugin name two distributions claim, a disabled plugin, one that fails to import --


def test_a_claimed_plugin_name_loads_from_neither_and_check_plugin_says_why(install, tmp_path, capsys):
    install((RIVAL, {"outside_cap": "plugin_fixtures.outside_author.rival"}))
    code, report, _ = geomodel_json(capsys, "check-plugin", RIVAL)
    assert code == 1
    (loads,) = report["results"]
    assert (loads["check"], loads["passed"], report["distribution"]) == ("loads", False, RIVAL)
    assert "refused: plugin name 'outside_cap' is also claimed by distribution" in loads["message"]
    code, out, _ = geomodel(capsys, "check-plugin", "outside_cap")
    assert code == 1 and "geomodel does not load this plugin" in out

    data = minimal_scenario(extensions={"outside_cap": {"sites": {MINIMAL_SITE: {"cap": "1 MWh"}}}})
    path = scenario_file(tmp_path, data)
    err = refused(capsys, "validate", path)
    line = line_of(path, "outside_cap:")
    assert f"{path}:{line}: extensions.outside_cap: plugin 'outside_cap'" in err
    assert "failed to load (refused: plugin name 'outside_cap' is also claimed" in err


def test_settings_of_a_disabled_plugin_are_an_error_naming_the_switch(
    install, tmp_path, capsys, monkeypatch
):
    install()
    disable(monkeypatch, "outside_cap")
    data = minimal_scenario(extensions={"outside_cap": {"sites": {MINIMAL_SITE: {"cap": "1 MWh"}}}})
    path = scenario_file(tmp_path, data)
    for command in ("validate", "run"):
        err = refused(capsys, command, path)
        assert (
            f"extensions.outside_cap: plugin 'outside_cap' (distribution {AUTHOR}) is disabled "
            f"by {DISABLE_ENV}, so these settings would be ignored"
        ) in err
    code, out, _ = geomodel(capsys, "check-plugin", "outside_cap")
    assert code == 1 and f"disabled by {DISABLE_ENV}" in out


def test_settings_of_a_plugin_that_failed_to_import_are_an_error_with_its_error(
    install, tmp_path, capsys
):
    install(BROKEN_DIST)
    data = minimal_scenario(extensions={"outside_broken": {"limit": 3}})
    err = refused(capsys, "validate", scenario_file(tmp_path, data))
    assert (
        f"extensions.outside_broken: plugin 'outside_broken' (distribution {BROKEN}) failed to "
        "load (ModuleNotFoundError: No module named 'geomodel_fixture_missing_dependency')"
    ) in err


def test_a_misspelt_extension_is_an_error_at_its_line_with_the_closest_name(install, tmp_path, capsys):
    install()
    data = minimal_scenario(extensions={"outside_capp": {"sites": {MINIMAL_SITE: {"cap": 1}}}})
    path = scenario_file(tmp_path, data)
    err = refused(capsys, "run", path)
    line = line_of(path, "outside_capp:")
    assert (
        f"{path}:{line}: extensions.outside_capp: no loaded plugin named 'outside_capp' takes "
        "settings, so these settings would be ignored and the plan solved without them; did "
        "you mean 'outside_cap'?"
    ) in err


def test_declared_settings_are_checked_at_their_lines_with_units_and_known_fields(
    install, tmp_path, capsys
):
    install()
    sites = {MINIMAL_SITE: {"cap": "-1 MWh"}, "site_b": {"cap": "1 MWh"}, "cheap": {"capp": 1}}
    path = scenario_file(tmp_path, two_sites(extensions={"outside_cap": {"sites": sites}}))
    err = refused(capsys, "validate", path)
    assert "4 problems found" in err  # and cheap lacks its cap
    assert f":{line_of(path, 'cap: -1 MWh')}: extensions.outside_cap.sites.site_a.cap: must be" in err
    assert "greater than 0 MWh (got '-1 MWh')" in err
    assert f":{line_of(path, 'site_b:')}: extensions.outside_cap.sites.site_b: unknown site" in err
    assert f":{line_of(path, 'capp:')}: extensions.outside_cap.sites.cheap.capp: unknown field;" in err
    assert "did you mean 'cap'?" in err


# --- the model extension's outputs, in run and in report --------------------------------


def test_the_extensions_outputs_are_in_the_run_and_the_report(install, tmp_path, capsys):
    """The cap at ``cheap`` binds: one MWh more of IT energy there moves one MWh of IT
    energy from ``site_a``, PUE 1.2 x 1 MWh of facility energy at 40 instead of 60
    USD/MWh: the cap's shadow price is (60 - 40) x 1.2 = 24 USD per MWh of IT energy.

    0.25 MWh binds: uncapped, cheap takes all the work. Its 128 H100s idle at 0.3925 kW
    each (0.15 x 0.7 kW TDP + 0.5 x (1.275 - 0.7) kW overhead, plugins/hardware.py), 4 h x
    50.24 kW = 0.201 MWh, and the 350 EFLOP job needs at least 245.8 chip-hours (350 /
    (0.989 PFLOPS x 0.4 x 3600 s)) at 0.969 - 0.3925 kW more each: 0.142 MWh, so uncapped
    cheap takes at least 0.343 MWh. (The cap of 0.35 MWh bound at the 1.275 kW nameplate,
    before issue 22's measured 0.969 kW.)"""
    install()
    caps = {"sites": {"cheap": {"cap": "0.25 MWh"}}}  # binds: see its shadow price
    path = scenario_file(tmp_path, two_sites(extensions={"outside_cap": caps}))
    result = tmp_path / "walk.nc"
    code, out, err = geomodel(capsys, "run", path, "-o", result)
    assert code == 0, err
    assert "outside_cap_capped_it_mwh" in out and "MWh" in out

    code, report, _ = geomodel_json(capsys, "report", result)
    assert code == 0
    kpis = report["kpis"]
    assert kpis["outside_cap_capped_it_mwh"] == pytest.approx(0.25, rel=1e-6)  # the cap binds
    code, out, _ = geomodel(capsys, "report", result)
    assert code == 0 and "outside_cap_capped_it_mwh" in out

    from geomodel import open_result

    dataset = open_result(result).dataset
    value = dataset["outside_cap_value_usd_per_mwh"]
    assert value.attrs["units"] == "USD/MWh"
    assert float(value.sel(site="cheap")) == pytest.approx((60 - 40) * 1.2, rel=1e-6)
    assert float(dataset["outside_cap_it_mwh"].sel(site="cheap")) == pytest.approx(0.25, rel=1e-6)


# --- planning: the author's hardware and reactor -----------------------------------------


def test_building_the_authors_system_without_a_cost_tells_the_author_what_to_register(
    install, tmp_path, capsys
):
    install()
    data = minimal_scenario()
    data["sites"][MINIMAL_SITE]["build"] = {"systems": {"outside_accel_8": {"max": 4}}}
    path = scenario_file(tmp_path, data)
    err = refused(capsys, "validate", path)
    assert (
        "sites.site_a.build.systems.outside_accel_8: no lifetime known for asset class "
        "'systems': give finance.lifetimes.systems; no build cost in the catalogue applies to "
        f"'outside_accel_8', so plugin 'outside_hw' (distribution {AUTHOR}) should register one: "
        "hook register_build_costs returning a BuildCost with asset_class 'systems', unit "
        "'system' and applies_to ['outside_accel_8']"
    ) in err


def smr_plan(tmp_path) -> Path:
    """site_a with no power of its own, and an SMR of up to 2 MW it may build."""
    data = minimal_scenario()
    site = data["sites"][MINIMAL_SITE]
    site.pop("power_sources")
    site["build"] = {"power_sources": {smr.SOURCE: {"max": "2 MW"}}}
    data["finance"] = {"discount_rate": 0.05}
    return scenario_file(tmp_path, data, "smr.yaml")


def annual_cost_per_mw(build: list[dict]) -> float:
    (row,) = [r for r in build if r["what"] == smr.SOURCE]
    return row["annual_cost_usd_per_year"] / row["amount"]


def test_a_built_smr_shows_its_finance_class_and_its_lifetime_override_changes_the_annuity(
    install, tmp_path, capsys
):
    """Capital recovery factor r (1+r)^n / ((1+r)^n - 1) at r = 5 %: n = 40 gives
    0.05 x 7.039989 / 6.039989 = 0.0582782, n = 20 gives 0.05 x 2.653298 / 1.653298 =
    0.0802426. A MW costs capex x CRF + fixed O&M a year: 10,344,000 x 0.0582782 +
    145,800 = 748,630 USD (40 years, the cost entry's) and 10,344,000 x 0.0802426 +
    145,800 = 975,829 USD (20 years)."""
    install()
    path = smr_plan(tmp_path)
    code, payload, err = geomodel_json(capsys, "run", path)
    assert code == 0, err
    build = payload["build"]
    (row,) = [r for r in build if r["what"] == smr.SOURCE]
    assert row["asset"] == "firm"  # the class its cost entry prices it under, not "nuclear"
    crf_40 = 0.05 * 1.05**40 / (1.05**40 - 1)
    assert crf_40 == pytest.approx(0.0582782, rel=1e-6)
    assert annual_cost_per_mw(build) == pytest.approx(748_630, rel=1e-5)

    code, payload, err = geomodel_json(capsys, "run", path, "--set", "finance.lifetimes.firm=20")
    assert code == 0, err
    build = payload["build"]
    assert annual_cost_per_mw(build) == pytest.approx(975_829, rel=1e-5)
    assert not math.isclose(annual_cost_per_mw(build), 748_630, rel_tol=1e-3)


def test_a_lifetime_for_the_smrs_kind_is_refused_naming_the_class_that_prices_it(
    install, tmp_path, capsys
):
    install()
    path = smr_plan(tmp_path)
    err = refused(capsys, "validate", path, "--set", "finance.lifetimes.nuclear=20")
    assert "--set finance.lifetimes.nuclear: finance.lifetimes.nuclear:" in err
    assert "'outside_smr' (kind nuclear) is priced under 'firm': set finance.lifetimes.firm" in err


# --- the weather point ------------------------------------------------------------------


def test_a_site_in_reach_of_the_authors_weather_point_takes_it(install, tmp_path, capsys):
    install()
    data = minimal_scenario()
    site = data["sites"][MINIMAL_SITE]
    site.update(lat=41.3, lon=-95.9, pue={"model": "weather"})  # 5 km from Council Bluffs
    path = scenario_file(tmp_path, data)
    code, _, err = geomodel(capsys, "validate", path)
    assert code == 0, err
    code, _, err = geomodel(capsys, "validate", path, "--set", f"sites.{MINIMAL_SITE}.lat=45.0")
    assert code == 1  # 416 km north no point reaches: named, with the nearest
    assert "Council Bluffs weather point (41.26, -95.86), 416 km away" in err
