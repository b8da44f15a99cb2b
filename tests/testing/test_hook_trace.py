"""GEOMODEL_TRACE_HOOKS=1 prints one line per hook call to stderr."""

from __future__ import annotations

import importlib
import re

import xarray as xr
from plugin_fixtures.settings_plugins import SitePathChecker

from geomodel.catalog import build_catalog
from geomodel.plugin_loader import TRACE_ENV, summarise
from geomodel.testing import load_minimal_scenario, minimal_scenario, plugin_host

LINE = re.compile(
    r"^\[geomodel trace\] (?P<hook>\w+)\((?P<args>.*)\) plugin='(?P<plugin>\w+)' "
    r"-> (?P<result>.+) in (?P<ms>\d+\.\d) ms$"
)


def trace_lines(text: str) -> list[dict[str, str]]:
    return [LINE.match(line).groupdict() for line in text.splitlines() if line.startswith("[geomodel")]


def test_each_hook_call_is_traced_with_plugin_arguments_result_and_time(monkeypatch, capsys):
    monkeypatch.setenv(TRACE_ENV, "1")
    host = plugin_host("hardware", "dci", "firm", "battery", ("checker", SitePathChecker()))
    catalog = build_catalog(host)
    battery = {"sites": {"site_a": {"energy": "0.2 MWh", "power": "0.1 MW"}}}
    load_minimal_scenario(catalog, data=minimal_scenario(extensions={"battery": battery}))
    lines = trace_lines(capsys.readouterr().err)
    assert [(line["hook"], line["plugin"]) for line in lines] == [
        ("register_hardware_systems", "hardware"),
        ("register_link_technologies", "dci"),
        ("register_power_sources", "firm"),
        ("extension_settings", "battery"),
        ("validate_scenario", "checker"),
    ]
    assert lines[0]["args"] == "" and lines[0]["result"] == "list of 13 HardwareSystem"
    assert lines[3]["args"] == "" and lines[3]["result"] == "class BatterySettings"
    assert lines[4]["args"] == "scenario=Scenario 'minimal'" and lines[4]["result"] == "list of 0"


def test_a_hook_that_raises_is_traced_with_its_error(monkeypatch, capsys):
    monkeypatch.setenv(TRACE_ENV, "yes")
    raising = importlib.import_module("plugin_fixtures.raising_hook")
    build_catalog(plugin_host(("raising", raising)))
    (line,) = [x for x in trace_lines(capsys.readouterr().err) if x["result"].startswith("raised")]
    assert line["plugin"] == "raising" and "Error" in line["result"]


def test_nothing_is_traced_without_the_switch(monkeypatch, capsys):
    monkeypatch.delenv(TRACE_ENV, raising=False)
    build_catalog(plugin_host("hardware"))
    assert "[geomodel trace]" not in capsys.readouterr().err


def test_summaries_are_short():
    assert summarise(None) == "None"
    assert summarise("x" * 100) == repr("x" * 57 + "...")
    assert summarise([1, 2.0]) == "list of 2 float/int"
    assert summarise(()) == "tuple of 0"
    assert (
        summarise(xr.Dataset(coords={"site": ["a", "b"], "time": [0, 1, 2]}))
        == "Dataset(site=2, time=3)"
    )

    class Named:
        name = "quickstart"

    assert summarise(Named()) == "Named 'quickstart'"
