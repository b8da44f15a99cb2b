"""The third-party example plugin, pip-installed beside the running test environment.

This is the path a plugin author takes: a separate package declaring
``[project.entry-points.geomodel]``, installed with pip, found by geomodel with
no other step. The package is installed once for this module into a folder of its
own (``pip install --target``) that only this module's subprocesses put on their
``PYTHONPATH``: the shared environment never changes, so tests running at the same
time in other pytest-xdist workers (or other test runs) never see the plugin appear.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "geomodel-example-plugin"
PYPROJECT = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
DISTRIBUTION = PYPROJECT["project"]["name"]
VERSION = PYPROJECT["project"]["version"]
((PLUGIN_NAME, MODULE),) = PYPROJECT["project"]["entry-points"]["geomodel"].items()
#: What the example promises in its README.
CONTRIBUTES = {
    "hardware systems": ["mi350x_8"],
    "link technologies": ["ull_800zr"],
    "power sources": ["geothermal"],
    "build costs": [],
    "weather points": [],
    "language models": [],
}
GEOMODEL = Path(sys.executable).with_name("geomodel")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def clean_environment(plugins: Path | None = None) -> dict[str, str]:
    """The environment without geomodel's plugin switches; ``plugins``: a folder that
    ``pip install --target`` filled, put on the ``PYTHONPATH``."""
    env = {k: v for k, v in os.environ.items() if k not in {DISABLE_ENV, STRICT_ENV, "PYTHONPATH"}}
    if plugins is not None:
        env["PYTHONPATH"] = str(plugins)
    return {**env, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", *args],
        capture_output=True,
        text=True,
        env=clean_environment(),
        timeout=120,
    )


def install_into(source: Path, target: Path) -> Path:
    """``pip install`` the package at ``source`` into the folder ``target`` alone."""
    done = pip(
        "install", "--no-deps", "--no-build-isolation", "--quiet", "--target", str(target), str(source)
    )
    if done.returncode != 0:
        pytest.fail(
            f"pip could not install {source.name} (setuptools>=70.1 must be installed in this "
            f"environment; the test extra asks for it):\n{done.stdout}\n{done.stderr}"
        )
    return target


@pytest.fixture(scope="module")
def example_installed(tmp_path_factory) -> Path:
    """The folder the example is installed in. Built from a copy, so that setuptools'
    build/ and *.egg-info never land in the repository."""
    source = tmp_path_factory.mktemp("example") / EXAMPLE.name
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    return install_into(source, tmp_path_factory.mktemp("example-installed"))


def run_python(code: str, plugins: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=clean_environment(plugins),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_example_declares_itself_a_plugin_the_public_way():
    assert PYPROJECT["build-system"]["build-backend"] == "setuptools.build_meta"
    assert PYPROJECT["project"]["dependencies"] == ["geomodel"]
    assert MODULE == "geomodel_example_plugin"  # a specific import name, never `plugins`
    assert (EXAMPLE / MODULE / "__init__.py").is_file()
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    for names in CONTRIBUTES.values():
        assert all(f"`{name}`" in readme for name in names)


def test_geomodel_plugins_lists_the_installed_example(example_installed):
    done = subprocess.run(
        [str(GEOMODEL), "plugins", "--json"],
        capture_output=True,
        text=True,
        env=clean_environment(example_installed),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (plugin,) = [p for p in report["plugins"] if canonical(p["distribution"]) == DISTRIBUTION]
    assert plugin == {
        "name": PLUGIN_NAME,
        "distribution": plugin["distribution"],
        "version": VERSION,
        "module": MODULE,
        "plugin_api": "1",
        "contributes": CONTRIBUTES,
    }
    assert [f for f in report["failed"] if f["name"] == PLUGIN_NAME] == []


def test_the_examples_entries_are_usable_through_build_catalog(example_installed):
    figures = run_python(
        """
        import json
        import pandas as pd
        from geomodel import Location, build_catalog

        catalog = build_catalog()
        mi350x = catalog.hardware_system("mi350x_8")
        ull = catalog.link_technology("ull_800zr")
        geothermal = catalog.power_source("geothermal")
        index = pd.date_range("2025-01-01", periods=8760, freq="h", tz="UTC")
        profile = geothermal.profile(Location(lat=38.8, lon=-122.8), index)
        print(json.dumps({
            "providers": sorted({p for (_, name), p in catalog.provider.items()
                                 if name in ("mi350x_8", "ull_800zr", "geothermal")}),
            "hardware": mi350x.model_dump(),
            "link": ull.model_dump(),
            "power": geothermal.model_dump(exclude={"location"}),
            "power_class": type(geothermal).__name__,
            "profile_means": profile.mean().to_dict(),
            "one_way_ms_1000km": ull.one_way_latency_ms(1000),
        }))
        """,
        example_installed,
    )
    assert figures["providers"] == [PLUGIN_NAME]
    hardware, link, power = figures["hardware"], figures["link"], figures["power"]

    # MI350X: the MI355X's 2.5 PFLOPS BF16 dense less ~8 %, 288 GB HBM3E at 8 TB/s
    assert hardware["chips_per_system"] == hardware["scale_up_domain_chips"] == 8
    assert hardware["bf16_dense_pflops_per_chip"] == pytest.approx(2.5 * 0.92)
    assert hardware["hbm_gb_per_chip"] == 288
    assert hardware["hbm_bandwidth_tbyte_s_per_chip"] == 8.0
    # all-in power per GPU: more than the 1000 W chip, at most a ~14 kW server / 8
    assert 1.0 < hardware["active_power_kw_per_chip"] <= 14 / 8

    # G.654 pure-silica-core fibre: n_g ~1.4625 -> n_g / c, a little under G.652's 4.90
    c_km_per_us = 299_792.458 / 1e6
    assert link["latency_us_per_km"] == pytest.approx(1.4625 / c_km_per_us, abs=0.001)
    assert link["latency_us_per_km"] < 4.90
    assert figures["one_way_ms_1000km"] == pytest.approx(link["latency_us_per_km"])
    assert link["capacity_gbit_s_per_fibre_pair"] == 32 * 800  # 150 GHz channels in the C-band
    assert link["reach_km"] <= 120  # 800ZR: single amplified span of 80-120 km

    # geothermal: IPCC AR5 lifecycle median 38 gCO2e/kWh, flat firm profile
    assert power["carbon_kg_per_mwh"] == 38
    assert figures["power_class"] == "GeothermalSource"
    assert figures["profile_means"] == pytest.approx(
        {
            "capacity_factor": power["capacity_factor"],
            "price_usd_per_mwh": power["price_usd_per_mwh"],
            "carbon_kg_per_mwh": 38,
        }
    )

    # every entry names its source; every other figure names its own, tagged
    tags = r"\[(vendor|paper|agency|press|estimate)\]$"
    for entry in (hardware, link, power):
        assert entry["source"] and entry["source_type"] in {"vendor", "paper", "agency", "press"}
        for field, source in entry["figure_sources"].items():
            assert field in entry, field
            assert re.search(tags, source), (field, source)
    assert "[estimate]" in power["figure_sources"]["price_usd_per_mwh"]
