"""A third party supplies weather through ``register_weather_points``, as the built-in does.

The plugin is ``tests/plugin_fixtures/reanalysis_weather.py``: saturated air (relative
humidity 100 %, so the wet-bulb equals the dry-bulb) at 15 + 5 cos(2 pi (UTC hour - 15)
/ 24) degC. The PUE expected at each hour is worked out below from the evaporative
curve of docs/scenarios.md ("pue: {model: weather}": economiser below 12 degC wet-bulb,
chillers carry all from 18 degC, the 26 degC design wet-bulb; lift = wet-bulb - 12 + 7 K,
21 K at design), with the scenario's own levels: PUE 1.10 on the economiser, 1.35 at
design:

    10 degC (03:00 UTC): below 12, economiser only        -> 1.10
    15 degC (09:00, 21:00): share 3/6 = 0.5, lift 10 K    -> 1.10 + 0.25 x 0.5 x 10/21 = 1.159524
    20 degC (15:00): share 1, lift 15 K                   -> 1.10 + 0.25 x 15/21 = 1.278571
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from cli_runs import in_process
from plugin_fixtures import installed_plugin_distributions, write_distribution
from pyproj import Geod

from geomodel.catalog import build_catalog
from geomodel.errors import PluginError
from geomodel.inputs.build import build_inputs
from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV
from geomodel.scenario import ScenarioError, load_scenario
from geomodel.testing import builtin_plugin_names, check_plugin, plugin_host

EXPECTED_PUE = {
    3: 1.10,
    9: 1.10 + 0.25 * 0.5 * 10 / 21,
    15: 1.10 + 0.25 * 15 / 21,
    21: 1.10 + 0.25 * 0.5 * 10 / 21,
}

SCENARIO = """\
name: weather-site
time:
  start: {start}
  hours: 24
sites:
  here:
    lat: {lat}
    lon: {lon}
    grid: grid_us_ia_miso
    power_envelope: 5 MW
    pue: {{model: weather, pue_economiser: 1.10, pue_design: 1.35}}
    systems: {{hgx_h100_8: 100}}
training:
  pretrain:
    compute: 1e20 FLOP
    gradient_size: 14 GB
    tp: 8
"""


def fixture(name: str):
    return importlib.import_module(f"plugin_fixtures.{name}")


@pytest.fixture(scope="module")
def with_acme():
    """The built-ins plus the reanalysis plugin, named ``acme``."""
    return build_catalog(plugin_host(*builtin_plugin_names(), ("acme", fixture("reanalysis_weather"))))


def _write(tmp_path: Path, lat: float, lon: float, start: str = "2025-07-01T00:00:00+00:00") -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.format(lat=lat, lon=lon, start=start), encoding="utf-8")
    return path


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    _, _, metres = Geod(ellps="WGS84").inv(a[1], a[0], b[1], b[0])
    return metres / 1000


def test_the_plugin_passes_geomodels_conformance_checks():
    check_plugin(fixture("reanalysis_weather"), name="acme").assert_ok()


def test_a_site_no_built_in_point_reaches_runs_on_the_plugins_weather(tmp_path, catalog, with_acme):
    path = _write(tmp_path, 41.26, -95.86)  # Council Bluffs, Iowa
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path, catalog=catalog)
    assert "sites.here.pue: no measured weather within 150 km of the site (41.26, -95.86)" in str(
        refused.value
    )
    inputs = build_inputs(load_scenario(path, catalog=with_acme), with_acme)
    pue = inputs["pue"].sel(site="here").values
    for hour, expected in EXPECTED_PUE.items():
        assert pue[hour] == pytest.approx(expected, abs=1e-6), hour
    note = json.loads(inputs.attrs["site_weather_json"])["here"]
    assert note == {
        "weather_driven": ["pue"],
        "zone": "Council Bluffs",
        "distance_km": 0.0,
        "weather_point": "acme_council_bluffs",
        "plugin": "acme",
        "licence": "test fixture: synthetic, no licence needed",
        "note": "synthetic (test fixture) weather of the Council Bluffs weather point "
        "(41.26, -95.86), 0 km away",
    }


def test_the_nearest_point_in_reach_wins_whichever_plugin_gives_it(with_acme):
    from geomodel.geo import Location

    hoechst, city = (50.10, 8.54), (50.11, 8.68)
    de_lu, acme = (50.08787, 8.653846), (50.10, 8.54)  # the built-in point (zones table), acme's
    # Hoechst: acme's point is where the site is, the built-in one 8 km east
    assert _km(hoechst, de_lu) == pytest.approx(8.3, abs=0.1)
    taken = with_acme.weather_point_in_reach(Location(lat=hoechst[0], lon=hoechst[1]))
    assert taken.point.name == "acme_frankfurt_hoechst" and taken.distance_km == pytest.approx(0.0)
    # the city centre: the built-in point 3 km away, acme's 10 km
    assert _km(city, de_lu) < _km(city, acme)
    taken = with_acme.weather_point_in_reach(Location(lat=city[0], lon=city[1]))
    assert taken.point.name == "weather_de_lu"
    assert taken.distance_km == pytest.approx(_km(city, de_lu), rel=1e-6)


def test_a_plugin_cannot_replace_a_built_in_weather_point():
    catalog = build_catalog(plugin_host(*builtin_plugin_names(), ("shadow", fixture("shadow_weather"))))
    kept = catalog.weather_point("weather_de_lu")
    assert (kept.location.lat, kept.location.lon) == (50.08787, 8.653846)  # not Berlin
    assert catalog.provider[("weather points", "weather_de_lu")] == "weather"
    (refused,) = [f for f in catalog.failures if f.name == "shadow"]
    assert (refused.stage, refused.entry, refused.kind) == (
        "register_weather_points",
        "weather_de_lu",
        "weather points",
    )
    assert refused.reason == (
        "weather point 'weather_de_lu' is also defined by plugin 'weather' (distribution "
        "geomodel), which loaded first: refused, a built-in entry cannot be replaced"
    )


def test_a_point_that_does_not_cover_the_horizon_is_one_line(tmp_path, with_acme):
    path = _write(tmp_path, 64.0, -22.0)  # 15 km from acme's Reykjavik point, data for 2023
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path, catalog=with_acme)
    (problem,) = refused.value.problems
    assert problem.path == "sites.here.pue"
    assert problem.message.startswith("the site takes the weather of the Reykjavik weather point")
    assert (
        "(weather point 'acme_reykjavik_2023' of plugin 'acme'), which covers 2023-01-01 00:00 to "
        "2023-12-31 23:00 UTC; 24 of the horizon's 24 hours lie outside it, first "
        "2025-07-01 00:00:00+00:00" in problem.message
    )
    inside = _write(tmp_path, 64.0, -22.0, start="2023-07-01T00:00:00+00:00")
    assert load_scenario(inside, catalog=with_acme).sites["here"].pue.model == "weather"


def test_without_a_weather_plugin_no_site_has_weather(tmp_path):
    names = [name for name in builtin_plugin_names() if name != "weather"]
    catalog = build_catalog(plugin_host(*names))
    assert catalog.weather_points == {}
    with pytest.raises(ScenarioError) as refused:
        load_scenario(_write(tmp_path, 50.11, 8.68), catalog=catalog)
    (problem,) = refused.value.problems
    assert problem.message.startswith(
        "no weather point is loaded, so the site (50.11, 8.68) has no measured weather"
    )


def test_a_point_that_fails_at_run_time_names_its_plugin(tmp_path):
    module = importlib.import_module("testing.broken_plugins.bad_weather")
    catalog = build_catalog(plugin_host(*builtin_plugin_names(), ("bad_weather", module)))
    scenario = load_scenario(_write(tmp_path, 16.0, 20.0), catalog=catalog)  # the point that raises
    with pytest.raises(PluginError) as failed:
        build_inputs(scenario, catalog)
    assert str(failed.value) == (
        "plugin 'bad_weather' (distribution local): weather point 'raises' could not give the "
        "weather of the horizon: OSError: reanalysis archive not found"
    )


def test_an_installed_weather_plugin_is_listed_by_geomodel_plugins(tmp_path, monkeypatch):
    """Installed like any distribution (entry point in the ``geomodel`` group); ``plugins``
    through ``geomodel.cli.main`` in-process with the distribution on ``sys.path``
    (tests/cli/test_plugins_cli.py runs the command through the console script)."""
    write_distribution(
        tmp_path, "acme-reanalysis", "1.0.0", {"acme": "plugin_fixtures.reanalysis_weather"}
    )
    for name in (DISABLE_ENV, STRICT_ENV):
        monkeypatch.delenv(name, raising=False)
    others = installed_plugin_distributions() - {"geomodel"}
    if others:
        monkeypatch.setenv(DISABLE_ENV, ",".join(sorted(others)))
    monkeypatch.syspath_prepend(str(tmp_path))
    done = in_process("plugins", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (acme,) = [p for p in report["plugins"] if p["name"] == "acme"]
    assert acme["distribution"] == "acme-reanalysis"
    assert acme["contributes"]["weather points"] == [
        "acme_council_bluffs",
        "acme_frankfurt_hoechst",
        "acme_reykjavik_2023",
    ]
    points = {row["name"]: row for row in report["weather_points"]}
    assert points["acme_council_bluffs"] == {
        "name": "acme_council_bluffs",
        "zone": "Council Bluffs",
        "plugin": "acme",
        "distribution": "acme-reanalysis",
        "location": [41.26, -95.86],
        "reach_km": 50.0,
        "basis": "synthetic (test fixture)",
        "licence": "test fixture: synthetic, no licence needed",
    }
    builtin = [row for row in report["weather_points"] if row["plugin"] == "weather"]
    assert len(builtin) == 16 and {row["reach_km"] for row in builtin} == {150.0}
    assert not report["failed"]


def test_the_core_reaches_the_built_in_plugins_only_through_hooks():
    """Catalogues come only from plugins (docs/plugins.md): no module of the core imports
    ``geomodel_builtins``; weather, like every catalogue, comes from the catalogue built
    from the hooks."""
    import ast

    core = Path(__file__).resolve().parents[1] / "geomodel"
    importers = []
    for module in core.rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(name.split(".")[0] == "geomodel_builtins" for name in names):
                importers.append(str(module.relative_to(core.parent)))
    assert importers == []
