"""Weather-driven PUE and sources in a scenario file: what loads, and one clear line per bad input."""

from __future__ import annotations

import pytest
from pyproj import Geod

from .conftest import BASE, assert_names, errors, line_of, load, only_error

FRA_PUE = "    pue: 1.2\n"
AMS_COOLING = "    cooling: evaporative\n"


def _km(a, b) -> float:
    _, _, metres = Geod(ellps="WGS84").inv(a[1], a[0], b[1], b[0])
    return metres / 1000.0


def test_a_site_near_a_weather_point_may_follow_the_weather(tmp_path, catalog):
    text = BASE.replace(FRA_PUE, "    pue: {model: weather, pue_design: 1.4}\n")
    scenario = load(tmp_path, text, catalog)
    assert scenario.sites["fra"].pue.model == "weather"
    curve = scenario.sites["fra"].pue_curve  # the evaporative kind's, its pue_design replaced
    assert (curve.pue_design, curve.pue_economiser, curve.economiser_below) == (1.4, 1.086, 12.0)
    assert scenario.sites["fra"].effective_pue is None
    assert scenario.sites["ams"].effective_pue == 1.1


def test_weather_parameters_take_units(tmp_path, catalog):
    text = BASE.replace(FRA_PUE, "    pue: {model: weather, economiser_below: 59 degF}\n")
    assert load(tmp_path, text, catalog).sites["fra"].pue.economiser_below == pytest.approx(15.0)


@pytest.mark.parametrize(
    ("setting", "path", "value", "allowed"),
    [
        ("pue_design: 3.5", "sites.fra.pue.pue_design", 3.5, "must lie in [1, 3]"),
        ("pue_economiser: 0.95", "sites.fra.pue.pue_economiser", 0.95, "must lie in [1, 2]"),
        (
            "economiser_below: 45 degC",
            "sites.fra.pue.economiser_below",
            "45 degC",
            "must lie in [-10, 40] degC",
        ),
        ("design_temperature: 51", "sites.fra.pue.design_temperature", 51, "must lie in [0, 50] degC"),
        ("model: fixed", "sites.fra.pue.model", "fixed", "'weather'"),
    ],
)
def test_a_pue_parameter_out_of_range_is_one_line(tmp_path, catalog, setting, path, value, allowed):
    text = BASE.replace(FRA_PUE, f"    pue:\n      model: weather\n      {setting}\n")
    if setting.startswith("model:"):
        text = BASE.replace(FRA_PUE, f"    pue:\n      {setting}\n")
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, setting),
        path=path,
        allowed=allowed,
        value=value,
    )


def test_temperatures_out_of_order_name_the_rule(tmp_path, catalog):
    text = BASE.replace(FRA_PUE, "    pue: {model: weather, economiser_below: 20, chiller_above: 18}\n")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.pue"
    assert problem.position.line == line_of(text, "pue: {model")
    assert (
        "need economiser_below < chiller_above <= design_temperature (degC), got 20 < 18 <= 26"
        in str(problem)
    )


def test_a_design_pue_below_the_economisers_is_refused(tmp_path, catalog):
    text = BASE.replace(FRA_PUE, "    pue: {model: weather, pue_economiser: 1.3, pue_design: 1.2}\n")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.pue"
    assert "pue_design 1.2 is below pue_economiser 1.3" in problem.message


def test_a_constant_pue_keeps_its_one_line(tmp_path, catalog):
    text = BASE.replace("pue: 1.2", "pue: 3.2")
    problem = only_error(tmp_path, text, catalog)
    assert str(problem).endswith("sites.fra.pue: must lie in [1, 3] (got 3.2)")


def test_weather_driven_pue_with_no_weather_point_in_reach(tmp_path, catalog):
    """Amsterdam (52.37 N, 4.90 E): the nearest weather points are London (GB, 51.49 N 0.16 W)
    and Frankfurt (DE-LU), both beyond 150 km; the line names the nearest and how far."""
    text = BASE.replace(AMS_COOLING, "    pue: {model: weather}\n")
    problem = only_error(tmp_path, text, catalog)
    to_london = _km((52.37, 4.90), (51.493847, -0.1630249))
    to_frankfurt = _km((52.37, 4.90), (50.08787, 8.653846))
    assert to_london < to_frankfurt and to_london > 150
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "pue: {model: weather}"),
        path="sites.ams.pue",
        allowed=f"no measured weather within 150 km of the site (52.37, 4.9); the nearest is "
        f"the GB weather point (51.49, -0.16), {to_london:.0f} km away",
    )


def test_a_weather_driven_source_needs_a_point_in_reach_too(tmp_path, catalog):
    text = BASE.replace(
        AMS_COOLING, AMS_COOLING + "    power_sources: {solar_pv: {capacity: 10 MW, weather: true}}\n"
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.ams.power_sources.solar_pv.weather"
    assert "no measured weather within 150 km" in problem.message


def test_an_unknown_turbine_is_one_line_with_the_closest_names(tmp_path, catalog):
    source = (
        "    power_sources:\n      wind_onshore:\n        capacity: 10 MW\n"
        "        weather: {turbine: E-115/300}\n"
    )
    text = BASE.replace(FRA_PUE, FRA_PUE + source)
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "turbine: E-115/300"),
        path="sites.fra.power_sources.wind_onshore.weather.turbine",
        allowed="unknown turbine; did you mean E-115/3200, E-115/3000",
        value="E-115/300",
    )
    assert "one of windpowerlib's 67 turbine types with a power curve" in problem.message


def test_a_source_without_a_weather_driven_profile(tmp_path, catalog):
    text = BASE.replace(
        FRA_PUE, FRA_PUE + "    power_sources: {nuclear: {capacity: 5 MW, weather: true}}\n"
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.power_sources.nuclear.weather"
    assert problem.message == (
        "power source 'nuclear' (nuclear) has no weather-driven profile; sources that have one: "
        "solar_pv, wind_onshore"
    )


def test_a_turbine_on_a_solar_source_and_weather_with_a_csv_profile(tmp_path, catalog):
    sources = (
        "    power_sources:\n"
        "      solar_pv: {capacity: 5 MW, weather: {turbine: V126/3450}}\n"
        "      wind_onshore: {capacity: 5 MW, weather: true, profile_csv: w.csv, profile_column: cf}\n"
    )
    (tmp_path / "w.csv").write_text("time,cf\n", encoding="utf-8")
    text = BASE.replace(FRA_PUE, FRA_PUE + sources)
    found = {p.path: p for p in errors(tmp_path, text, catalog)}
    assert found["sites.fra.power_sources.solar_pv.weather.turbine"].message == (
        "power source 'solar_pv' takes no settings"
    )
    assert "give 'weather' or 'profile_csv', not both" in (
        found["sites.fra.power_sources.wind_onshore.weather"].message
    )


def test_every_problem_of_the_file_at_once(tmp_path, catalog):
    text = BASE.replace(FRA_PUE, "    pue: {model: weather, pue_design: 4}\n").replace(
        AMS_COOLING, "    pue: {model: weather}\n"
    )
    paths = sorted(p.path for p in errors(tmp_path, text, catalog))
    assert paths == ["sites.fra.pue.pue_design"]  # schema problems first; then the file stops
    text = BASE.replace(AMS_COOLING, "    pue: {model: weather}\n").replace(
        FRA_PUE, FRA_PUE + "    power_sources: {hydro: {capacity: 5 MW, weather: true}}\n"
    )
    paths = sorted(p.path for p in errors(tmp_path, text, catalog))
    assert paths == ["sites.ams.pue", "sites.fra.power_sources.hydro.weather"]
