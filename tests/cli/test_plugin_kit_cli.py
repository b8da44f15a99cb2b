"""`geomodel new-plugin` and `geomodel check-plugin`.

Every kind of scaffold is generated and checked in-process with the same
``geomodel.testing.check_plugin`` its own test file calls; one (the model
extension, which exercises the most) is pip-installed into this environment,
its own ``pytest`` run, found by ``geomodel plugins`` (in-process) and passed by
``geomodel check-plugin`` (the console script), then uninstalled.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from cli_runs import in_process
from plugin_fixtures import write_distribution
from test_example_plugin import clean_environment, install_into

from geomodel.cli import main
from geomodel.testing import check_plugin
from geomodel.testing.scaffold import KINDS, PluginNames

GEOMODEL = Path(sys.executable).with_name("geomodel")
#: What each kind's example contributes, by catalogue kind.
EXAMPLE_ENTRIES = {
    "hardware": {"hardware systems": ["tpu_v7_cube"]},
    "link": {"link technologies": ["smf_800zr_plus"]},
    "power": {"power sources": ["run_of_river_hydro"]},
    "weather": {"weather points": ["quincy_typical_year"]},
    "cost": {"build costs": ["de_wind_onshore"]},
    "model": {},
}


@pytest.fixture(autouse=True)
def _clean(geomodel_clean_environment):
    """The caller's GEOMODEL_* switches must not change what the commands see."""


def import_from(folder: Path, package: str):
    """Import a generated package from its folder without installing it."""
    spec = importlib.util.spec_from_file_location(
        package, folder / package / "__init__.py", submodule_search_locations=[str(folder / package)]
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
    return module


def new_plugin(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["new-plugin", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", KINDS)
def test_new_plugin_writes_a_package_that_passes_its_own_checks(kind, tmp_path, capsys):
    code, out, _ = new_plugin(capsys, f"acme-{kind}", "--kind", kind, "--output", str(tmp_path))
    assert code == 0
    names = PluginNames.from_name(f"acme-{kind}")
    folder = tmp_path / f"geomodel-acme-{kind}"
    assert f"Wrote {folder}" in " ".join(out.split())
    assert f"geomodel check-plugin acme_{kind}" in out
    pyproject = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["name"] == names.distribution == f"geomodel-acme-{kind}"
    assert pyproject["project"]["entry-points"]["geomodel"] == {f"acme_{kind}": f"geomodel_acme_{kind}"}
    assert pyproject["tool"]["setuptools"]["packages"] == [f"geomodel_acme_{kind}"]
    assert pyproject["project"]["dependencies"][0].startswith("geomodel>=")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "{{" not in readme and f"`{names.plugin}`" in readme and "[estimate]" in readme
    test_file = (folder / "tests" / f"test_acme_{kind}.py").read_text(encoding="utf-8")
    assert "geomodel_check_plugin(plugin).assert_ok()" in test_file

    module = import_from(folder, names.package)
    assert names.plugin == module.NAME
    declared = module.GEOMODEL_PLUGIN_API
    assert declared == ("1.3" if kind == "model" else "1")  # the model uses the hooks of 1.3
    report = check_plugin(module)  # what the generated test file runs
    assert report.passed, report.summary()
    own = {r.entry for r in report.results if r.check == "fields"}
    assert own == {name for names_ in EXAMPLE_ENTRIES[kind].values() for name in names_}
    tags = [r for r in report.results if r.check == "sources"]
    assert all("figure sources tagged" in r.message for r in tags)
    if kind == "model":
        solved = next(r for r in report.results if r.check == "model-solves")
        assert solved.passed and "acme_model_water_m3" in str(report.results)
        checks = {r.check for r in report.results}
        assert {"extension-settings", "unused-untouched", "extension-results"} <= checks


def test_the_generated_code_is_ruff_clean(tmp_path):
    for kind in KINDS:
        assert main(["new-plugin", f"tidy-{kind}", "--kind", kind, "-o", str(tmp_path)]) == 0
    ruff = Path(sys.executable).with_name("ruff")
    for args in (["check", "."], ["format", "--check", "."]):
        done = subprocess.run([str(ruff), *args], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Acme Water"], "'Acme Water' is not a plugin name"),
        (["9lives"], "is not a plugin name"),
        (["plugins"], "'plugins' is too generic"),
        (["grid"], "a plugin named 'grid' is already installed"),
        (["acme", "--kind", "solver"], "--kind: unknown kind 'solver'; choose one of hardware, link"),
    ],
)
def test_new_plugin_refuses_bad_names_and_kinds(args, message, tmp_path, capsys):
    code, _, err = new_plugin(capsys, *args, "--output", str(tmp_path))
    assert code == 2
    assert message in err
    assert list(tmp_path.iterdir()) == []


def test_new_plugin_never_overwrites_a_folder(tmp_path, capsys):
    (tmp_path / "geomodel-acme" / "keep.txt").parent.mkdir()
    (tmp_path / "geomodel-acme" / "keep.txt").write_text("mine")
    code, _, err = new_plugin(capsys, "acme", "--output", str(tmp_path))
    assert code == 2 and "already exists and is not empty" in err
    assert (tmp_path / "geomodel-acme" / "keep.txt").read_text() == "mine"


def test_a_geomodel_prefix_is_not_doubled(tmp_path, capsys):
    assert new_plugin(capsys, "geomodel-acme-gpu", "-o", str(tmp_path))[0] == 0
    assert (tmp_path / "geomodel-acme-gpu" / "geomodel_acme_gpu" / "__init__.py").is_file()


# --- check-plugin ---------------------------------------------------------------------------


def test_check_plugin_prints_a_table_and_passes_a_built_in(capsys):
    assert main(["check-plugin", "dci"]) == 0
    out = capsys.readouterr().out
    assert "Conformance of plugin 'dci' (distribution geomodel)" in out
    assert "link technology smf_800zr" in out
    assert "FAIL" not in out
    assert out.strip().endswith(", 0 failed.") and "checks passed" in out


def test_check_plugin_json_is_the_report(capsys):
    assert main(["check-plugin", "firm", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["plugin"] == "firm" and report["passed"] is True
    assert report["counts"]["failed"] == 0
    assert {"check", "plugin", "entry", "field", "passed", "message", "kind", "warning"} == set(
        report["results"][0]
    )


@pytest.fixture
def broken_installed(tmp_path, monkeypatch) -> str:
    """A distribution installed on sys.path whose plugin gives figures in wrong units."""
    write_distribution(
        tmp_path,
        "geomodel-fixture-wrong-units",
        "0.3.0",
        {"wrong_units": "testing.broken_plugins.wrong_units"},
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "wrong_units"


def test_check_plugin_exits_1_naming_plugin_entry_and_field(broken_installed, capsys):
    assert main(["check-plugin", "geomodel-fixture-wrong-units", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["distribution"] == "geomodel-fixture-wrong-units" and report["passed"] is False
    failed = {(r["entry"], r["field"]) for r in report["results"] if not r["passed"]}
    assert ("kilowatts_as_watts", "active_power_kw_per_chip") in failed
    assert ("ms_per_km", "latency_us_per_km") in failed

    assert main(["check-plugin", broken_installed]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "FAIL" in out and "active_power_kw_per_chip" in out and "failed." in out


def test_the_model_scaffold_refuses_an_unknown_per_site_key_at_its_line(tmp_path, capsys):
    """Issue 24, item 6: the model scaffold's settings parser ignored unknown per-site keys
    (``limt``), so the limit silently did not apply."""
    from geomodel import build_catalog
    from geomodel.scenario import ScenarioError, load_scenario
    from geomodel.testing import MINIMAL_PLUGINS, minimal_scenario, plugin_host

    assert new_plugin(capsys, "kit-keys", "--kind", "model", "-o", str(tmp_path))[0] == 0
    module = import_from(tmp_path / "geomodel-kit-keys", "geomodel_kit_keys")
    catalog = build_catalog(plugin_host(*MINIMAL_PLUGINS, ("kit_keys", module)))
    settings = {"sites": {"site_a": {"limit": "10 m^3/day", "wue_l_per_kwh": 0.5}}}
    path = tmp_path / "s.yaml"
    lines = json.dumps(minimal_scenario(extensions={"kit_keys": settings}), indent=1)
    path.write_text(lines, encoding="utf-8")  # JSON is YAML, one field a line
    with pytest.raises(ScenarioError) as raised:
        load_scenario(path, catalog=catalog)
    line = next(i for i, text in enumerate(lines.splitlines(), 1) if "wue_l_per_kwh" in text)
    (problem,) = raised.value.problems
    assert str(problem) == (
        f"{path}:{line}: extensions.kit_keys.sites.site_a.wue_l_per_kwh: unknown field; "
        "known fields: limit, wue"
    )


@pytest.fixture
def refused_installed(tmp_path, monkeypatch) -> str:
    """A distribution whose one plugin takes the built-in name ``firm``."""
    write_distribution(
        tmp_path, "geomodel-fixture-usurper", "0.1", {"firm": "plugin_fixtures.good_catalog"}
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    return "geomodel-fixture-usurper"


def test_check_plugin_of_a_refused_distribution_fails_with_the_loaders_reason(refused_installed, capsys):
    """Issue 24, item 3: check-plugin checked (and passed) the built-in that kept the name,
    not the distribution the user named."""
    assert main(["check-plugin", refused_installed, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["distribution"] == refused_installed and report["passed"] is False
    (loads,) = report["results"]
    assert loads["check"] == "loads"
    assert "refused: plugin name 'firm' is already used by geomodel" in loads["message"]

    assert main(["check-plugin", "firm", "--json"]) == 0  # the name: the built-in loaded
    report = json.loads(capsys.readouterr().out)
    assert report["distribution"] == "geomodel"
    loads = next(r for r in report["results"] if r["check"] == "loads")
    assert f"distribution {refused_installed}'s plugin of that name was refused" in loads["message"]


def test_check_plugin_names_an_unknown_plugin(capsys):
    assert main(["check-plugin", "hardwre"]) == 1
    assert "unknown plugin 'hardwre'; did you mean hardware" in capsys.readouterr().err


# --- one scaffold, installed and tested as its author would ---------------------------------


def test_an_installed_scaffold_passes_its_tests_and_geomodel_lists_and_checks_it(tmp_path, monkeypatch):
    assert main(["new-plugin", "kit-water", "--kind", "model", "--output", str(tmp_path)]) == 0
    folder = tmp_path / "geomodel-kit-water"
    # installed into a folder of its own (test_example_plugin.py says why)
    installed = install_into(folder, tmp_path / "installed")

    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=clean_environment(installed),
        timeout=240,
    )
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "4 passed" in tests.stdout

    # `plugins` in-process, the install on sys.path as the script's PYTHONPATH puts it
    # (tests/cli/test_plugins_cli.py runs `plugins` through the console script)
    with monkeypatch.context() as here:
        here.syspath_prepend(str(installed))
        here.chdir(tmp_path)
        listed = in_process("plugins", "--json")
        for name in [m for m in sys.modules if m.split(".")[0] == "geomodel_kit_water"]:
            here.delitem(sys.modules, name)
    assert listed.returncode == 0, listed.stderr
    (plugin,) = [p for p in json.loads(listed.stdout)["plugins"] if p["name"] == "kit_water"]
    assert (plugin["distribution"], plugin["module"]) == ("geomodel-kit-water", "geomodel_kit_water")

    checked = run_geomodel("check-plugin", "kit_water", "--json", cwd=tmp_path, plugins=installed)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads(checked.stdout)
    assert report["passed"] and report["distribution"] == "geomodel-kit-water"
    assert "model-solves" in {r["check"] for r in report["results"]}


def run_geomodel(*args: str, cwd: Path, plugins: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(GEOMODEL), *args],
        capture_output=True,
        text=True,
        env=clean_environment(plugins),
        cwd=cwd,
        timeout=240,
    )
