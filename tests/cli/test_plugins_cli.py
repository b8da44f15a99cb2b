"""`geomodel plugins [--json]`: the table once through the real console script, the
other cases through ``geomodel.cli.main`` in-process.

A test distribution is installed on the script's PYTHONPATH (in-process: on
``sys.path``, where ``importlib.metadata`` finds it the same way) with a good plugin
and one that fails to import; every other plugin distribution is blocked with
GEOMODEL_DISABLE_PLUGINS so that the output holds only what the test expects.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest
from cli_runs import in_process
from plugin_fixtures import TESTS_DIR, installed_plugin_distributions, write_distribution

from geomodel.catalog import CATALOG_KINDS
from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV

GEOMODEL = Path(sys.executable).with_name("geomodel")
DIST, VERSION = "geomodel-fixture-cli", "2.0.1"
MISSING = "ModuleNotFoundError: No module named 'geomodel_fixture_missing_dependency'"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site_dir = tmp_path_factory.mktemp("site-packages")
    write_distribution(
        site_dir,
        DIST,
        VERSION,
        {"good": "plugin_fixtures.good_catalog", "broken": "plugin_fixtures.broken_import"},
    )
    return site_dir


def geomodel(*args: str, site: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {DISABLE_ENV, STRICT_ENV}}
    if site is not None:
        path = [str(site), str(TESTS_DIR), environment.get("PYTHONPATH", "")]
        environment["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
        environment[DISABLE_ENV] = ",".join(sorted(installed_plugin_distributions()))
    environment.update(env)
    return subprocess.run(
        [str(GEOMODEL), *args], capture_output=True, text=True, env=environment, timeout=120
    )


def geomodel_here(
    monkeypatch: pytest.MonkeyPatch, *args: str, site: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """What :func:`geomodel` runs, through ``geomodel.cli.main`` in this process; a
    PYTHONPATH in ``env`` goes onto ``sys.path``."""
    for name in (DISABLE_ENV, STRICT_ENV):
        monkeypatch.delenv(name, raising=False)
    folders = [site, TESTS_DIR] if site is not None else []
    folders += [Path(p) for p in env.pop("PYTHONPATH", "").split(os.pathsep) if p]
    if site is not None:
        monkeypatch.setenv(DISABLE_ENV, ",".join(sorted(installed_plugin_distributions())))
    for folder in reversed(folders):
        monkeypatch.syspath_prepend(str(folder))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return in_process(*args)


def ours(report: dict) -> dict:
    """The report restricted to the test distribution, in case a plugin is installed
    into the shared environment while the test runs."""
    return {
        key: [item for item in items if item["distribution"] == DIST] if key != "warnings" else items
        for key, items in report.items()
    }


def table_row(output: str, first_cell: str) -> list[str]:
    """The cells of the table row whose first cell is ``first_cell``."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.replace("┃", "│").strip().strip("│").split("│")]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no table row {first_cell!r} in:\n{output}")


def test_the_table_lists_plugins_and_failures(site):
    done = geomodel("plugins", site=site)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Loaded plugins" in out
    header = table_row(out, "plugin")
    assert header == ["plugin", "distribution", "version", "module", "contributes"]
    assert table_row(out, "good") == [
        "good",
        DIST,
        VERSION,
        "plugin_fixtures.good_catalog",
        "hardware systems: fixture_hgx_8; link technologies: fixture_smf; power sources: fixture_grid",
    ]
    assert "Plugins that failed" in out
    assert table_row(out, "broken") == ["broken", DIST, "load", MISSING]


def test_json_lists_the_same(site, monkeypatch):
    done = geomodel_here(monkeypatch, "plugins", "--json", site=site)
    assert done.returncode == 0, done.stderr
    assert ours(json.loads(done.stdout)) == {
        "plugins": [
            {
                "name": "good",
                "distribution": DIST,
                "version": VERSION,
                "module": "plugin_fixtures.good_catalog",
                "plugin_api": "1",
                "contributes": {
                    "hardware systems": ["fixture_hgx_8"],
                    "link technologies": ["fixture_smf"],
                    "power sources": ["fixture_grid"],
                    "build costs": [],
                    "weather points": [],
                    "language models": [],
                },
            }
        ],
        "failed": [{"name": "broken", "distribution": DIST, "stage": "load", "reason": MISSING}],
        # a plain PowerSource: flat at its catalogue means (80 USD/MWh, 380 kg/MWh, lifecycle)
        "power_sources": [
            {
                "name": "fixture_grid",
                "kind": "grid",
                "plugin": "good",
                "distribution": DIST,
                "location": None,
                "price_adder_usd_per_mwh": 0.0,
                "series_basis": {
                    "price_usd_per_mwh": "flat at the annual mean 80 USD/MWh",
                    "carbon_kg_per_mwh": "flat at the annual mean 380 kgCO2e/MWh (lifecycle)",
                },
            }
        ],
        "weather_points": [],
        "warnings": [],
    }


def test_the_table_states_the_basis_of_every_series(site, monkeypatch):
    done = geomodel_here(monkeypatch, "plugins", site=site)
    assert "What each power source's hourly series rest on" in done.stdout
    row = table_row(done.stdout, "fixture_grid")
    assert row[:3] == ["fixture_grid", "grid", "flat at the annual mean 80 USD/MWh"]


def test_the_built_in_grid_regions_and_their_measured_series(monkeypatch):
    # issue #14, what done looks like: >= 40 grid regions; >= 16 with measured hourly
    # carbon and >= 21 with measured hourly prices, each labelled with basis and coverage
    done = geomodel_here(monkeypatch, "plugins", "--json")
    grids = [s for s in json.loads(done.stdout)["power_sources"] if s["kind"] == "grid"]
    assert len(grids) >= 40
    labels = [s["series_basis"] for s in grids]
    measured = "measured 2023, zone "
    assert sum(b["carbon_kg_per_mwh"].startswith(measured) for b in labels) >= 16
    assert sum(b["price_usd_per_mwh"].startswith(measured) for b in labels) >= 21
    for basis in labels:
        for line in basis.values():
            assert line.startswith((measured, "shaped from annual mean")), line
            assert "hours filled" in line or line.startswith("shaped")


def test_a_disabled_plugin_is_neither_loaded_nor_failed(site, monkeypatch):
    env = {DISABLE_ENV: ",".join([*sorted(installed_plugin_distributions()), "broken"])}
    path = f"{site}{os.pathsep}{TESTS_DIR}"
    done = geomodel_here(monkeypatch, "plugins", "--json", site=None, PYTHONPATH=path, **env)
    report = ours(json.loads(done.stdout))
    assert [p["name"] for p in report["plugins"]] == ["good"]
    assert report["failed"] == []
    table = geomodel_here(monkeypatch, "plugins", site=None, PYTHONPATH=path, **env)
    assert "No plugin failed" in table.stdout
    assert "Plugins that failed" not in table.stdout


def test_strict_mode_fails_with_one_line_naming_plugin_and_distribution(site, monkeypatch):
    done = geomodel_here(monkeypatch, "plugins", "--json", site=site, **{STRICT_ENV: "1"})
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"Error: plugin 'broken' (distribution {DIST}) load: {MISSING}")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_every_installed_entry_point_is_either_loaded_or_failed(monkeypatch):
    """With nothing blocked: the built-ins (and any other installed plugin) appear,
    whatever state they are in, with the documented shape."""
    done = geomodel_here(monkeypatch, "plugins", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"plugins", "failed", "power_sources", "weather_points", "warnings"}
    for plugin in report["plugins"]:
        assert set(plugin) == {"name", "distribution", "version", "module", "plugin_api", "contributes"}
        assert list(plugin["contributes"]) == list(CATALOG_KINDS)
    for failure in report["failed"]:
        assert set(failure) == {"name", "distribution", "stage", "reason"} and failure["reason"]
    builtins = {ep.name for ep in distribution("geomodel").entry_points if ep.group == "geomodel"}
    listed = {p["name"] for p in report["plugins"] if p["distribution"] == "geomodel"}
    failed = {f["name"] for f in report["failed"] if f["distribution"] == "geomodel"}
    assert builtins <= listed | failed
    assert all(
        p["module"].startswith("geomodel_builtins.")
        for p in report["plugins"]
        if p["distribution"] == "geomodel"
    )
