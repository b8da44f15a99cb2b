"""`validate` and `run` say every plugin failure first, one line each (issue 13, items 1-4).

Each test installs one fixture distribution on the console script's PYTHONPATH;
geomodel's built-ins stay enabled (precedence over them is what is tested), every
other installed plugin distribution is blocked. ``validate`` and ``run`` each run once
through the real console script; the other commands run through ``geomodel.cli.main``
in-process with the distribution on ``sys.path``, where ``importlib.metadata`` finds it
the same way (the same code without ~2-3 s of interpreter start and imports each).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runs import in_process
from plugin_fixtures import TESTS_DIR, installed_plugin_distributions, write_distribution

from geomodel.plugin_loader import ALLOW_BROKEN_EXTENSIONS_ENV, DISABLE_ENV, STRICT_ENV
from geomodel.testing import minimal_scenario

GEOMODEL = Path(sys.executable).with_name("geomodel")


def geomodel(site: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {DISABLE_ENV, STRICT_ENV, ALLOW_BROKEN_EXTENSIONS_ENV}
    }
    path = [str(site), str(TESTS_DIR), environment.get("PYTHONPATH", "")]
    environment["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
    others = sorted(installed_plugin_distributions() - {"geomodel"})
    if others:
        environment[DISABLE_ENV] = ",".join(others)
    environment.update(env)
    return subprocess.run(
        [str(GEOMODEL), *args], capture_output=True, text=True, env=environment, timeout=180
    )


def geomodel_here(
    monkeypatch: pytest.MonkeyPatch, site: Path, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """What :func:`geomodel` runs, through ``geomodel.cli.main`` in this process."""
    for name in (DISABLE_ENV, STRICT_ENV, ALLOW_BROKEN_EXTENSIONS_ENV):
        monkeypatch.delenv(name, raising=False)
    others = sorted(installed_plugin_distributions() - {"geomodel"})
    monkeypatch.syspath_prepend(str(site))
    if others:
        monkeypatch.setenv(DISABLE_ENV, ",".join(others))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return in_process(*args)


def distribution(tmp_path: Path, name: str, plugins: dict[str, str]) -> Path:
    site = tmp_path / name
    write_distribution(site, name, "0.0.1", {k: f"plugin_fixtures.{v}" for k, v in plugins.items()})
    return site


@pytest.fixture
def scenario(tmp_path) -> Path:
    """The minimal scenario of geomodel.testing as a file (JSON is YAML): 16 HGX H100 servers."""
    path = tmp_path / "minimal.yaml"
    path.write_text(json.dumps(minimal_scenario()), encoding="utf-8")
    return path


def test_validate_says_a_refused_entry_first_and_keeps_the_built_in(tmp_path, scenario):
    site = distribution(tmp_path, "acme-breakage", {"acme": "shadow_builtin"})
    done = geomodel(site, "validate", str(scenario), "--json")
    assert done.returncode == 0, done.stderr
    first = done.stderr.splitlines()[0]
    assert first == (
        "warning: plugin 'acme' (distribution acme-breakage) register_hardware_systems: hardware "
        "system 'hgx_h100_8' is also defined by plugin 'hardware' (distribution geomodel), which "
        "loaded first: refused, a built-in entry cannot be replaced"
    )
    summary = json.loads(done.stdout)
    # 16 HGX H100 servers x 8 GPUs (the built-in); acme's 2 per server would give 32
    assert summary["chips"] == 128
    assert summary["plugin_failures"] == [first.removeprefix("warning: ")]


def test_an_unknown_name_error_follows_the_failure_of_the_plugin_that_tried_it(
    tmp_path, scenario, monkeypatch
):
    site = distribution(tmp_path, "geomodel-fixture-tries", {"tries": "partly_invalid_hardware"})
    data = json.loads(scenario.read_text(encoding="utf-8"))
    data["sites"]["site_a"]["systems"] = {"fixture_tried_server": 16}
    scenario.write_text(json.dumps(data), encoding="utf-8")
    done = geomodel_here(monkeypatch, site, "validate", str(scenario))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0].startswith(
        "warning: plugin 'tries' (distribution geomodel-fixture-tries) register_hardware_systems: "
        "entry 0 ('fixture_tried_server') is invalid: active_power_kw_per_chip"
    )
    assert lines[1].startswith(f"Error: {scenario}: 1 problem found")
    assert "unknown hardware system 'fixture_tried_server'" in lines[2]
    assert "plugin 'tries' (distribution geomodel-fixture-tries) tried to register" in lines[2]
    assert "Traceback" not in done.stderr


def test_a_raising_scenario_check_makes_validate_fail(tmp_path, scenario, monkeypatch):
    site = distribution(tmp_path, "geomodel-fixture-checker", {"checker": "raising_validator"})
    done = geomodel_here(monkeypatch, site, "validate", str(scenario))
    assert done.returncode == 1
    assert "valid" not in done.stdout
    assert (
        "the scenario checks of plugin 'checker' (distribution geomodel-fixture-checker) could not "
        "run: RuntimeError: water table fixture_aquifers.csv not found"
    ) in done.stderr


def test_a_raising_extension_fails_the_run_unless_allowed(tmp_path, scenario, monkeypatch):
    site = distribution(tmp_path, "geomodel-fixture-ext", {"ext": "raising_extension"})
    out = tmp_path / "out.nc"
    failed = geomodel(site, "run", str(scenario), "-o", str(out))
    assert failed.returncode == 1
    assert (
        "Error: plugin 'ext' (distribution geomodel-fixture-ext) extend_model: KeyError: "
        "'site_cap_mw' (the model would lack what it adds)"
    ) in failed.stderr
    assert not out.exists()
    allowed = geomodel_here(
        monkeypatch, site, "run", str(scenario), "-o", str(out), "--allow-broken-extensions", "--json"
    )
    assert allowed.returncode == 0, allowed.stderr
    messages = json.loads(allowed.stdout)["messages"]
    assert any("solved WITHOUT this extension" in m and "'ext'" in m for m in messages)
    by_env = geomodel_here(
        monkeypatch, site, "run", str(scenario), "--json", **{ALLOW_BROKEN_EXTENSIONS_ENV: "1"}
    )
    assert by_env.returncode == 0, by_env.stderr
