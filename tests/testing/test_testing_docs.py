"""docs/plugins.md documents the author's kit as the code has it."""

from __future__ import annotations

import re
from pathlib import Path

import geomodel.testing as kit
from geomodel.plugin_loader import TRACE_ENV
from geomodel.testing import pytest_plugin
from geomodel.testing.scaffold import KINDS

GUIDE = (Path(__file__).resolve().parents[2] / "docs" / "plugins.md").read_text(encoding="utf-8")
TRACE_LINE = re.compile(r"^\[geomodel trace\] \w+\(.*\) plugin='\w+' -> .+ in \d+\.\d ms$")


def test_every_check_is_listed_with_what_it_verifies():
    for name, verifies in kit.CHECKS.items():
        assert f"| `{name}` | {verifies} |" in GUIDE, name


def test_the_public_functions_and_fixtures_are_documented():
    for name in (
        "plugin_host",
        "minimal_scenario",
        "load_minimal_scenario",
        "check_plugin",
        "check_installed_plugin",
        "CheckResult",
        "ConformanceReport",
        "MINIMAL_PLUGINS",
        "GEOMODEL_OVERRIDES",
        "GEOMODEL_EXAMPLE_SETTINGS",
        "hourly_coverage()",
    ):
        assert f"`{name}" in GUIDE, name
    fixtures = [name for name in vars(pytest_plugin) if name.startswith("geomodel_")]
    assert len(fixtures) == 4
    for name in fixtures:
        assert f"`{name}`" in GUIDE, name


def test_the_tolerances_in_the_guide_are_the_codes():
    assert kit.MEAN_TOLERANCE == {
        "capacity_factor": (0.01, 0.005),
        "price_usd_per_mwh": (0.01, 0.5),
        "carbon_kg_per_mwh": (0.01, 0.5),
    }
    assert "within 1 % or an absolute 0.005 (capacity factor), 0.5 USD/MWh" in " ".join(GUIDE.split())
    assert kit.HOURLY_BOUNDS["price_usd_per_mwh"] == (-1000.0, 20000.0)
    assert "price [-1000, 20000] USD/MWh" in " ".join(GUIDE.split())


def test_the_debugging_section_shows_the_trace_as_printed():
    assert f"`{TRACE_ENV}=1`" in GUIDE
    shown = [line.strip() for line in GUIDE.splitlines() if line.strip().startswith("[geomodel trace]")]
    assert shown and all(TRACE_LINE.match(line) for line in shown)


def test_the_commands_and_every_scaffold_kind_are_documented():
    listed = "|".join(KINDS)
    assert f"## `geomodel new-plugin NAME [--kind {listed}] [--output DIR]`" in GUIDE
    assert "## `geomodel check-plugin NAME [--json]`" in GUIDE
    for kind in KINDS:
        assert f"`{kind}`" in GUIDE
