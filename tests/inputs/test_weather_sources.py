"""Weather-driven solar and wind reach the inputs, and every site's weather point is recorded."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import yaml
from pyproj import Geod

from geomodel.geo import Location
from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario
from geomodel_builtins.power import solar, wind
from geomodel_builtins.weather import site_weather

START = "2025-07-10T00:00:00+00:00"


def _scenario(tmp_path, catalog, sources: dict):
    data = {
        "time": {"start": START, "hours": 24},
        "sites": {
            "fra": {
                "lat": 50.11,
                "lon": 8.68,
                "power_envelope": "50 MW",
                "pue": 1.2,
                "systems": {"hgx_h100_8": 10},
                "power_sources": sources,
            },
            "iowa": {
                "lat": 41.26,
                "lon": -95.86,
                "power_envelope": "50 MW",
                "cooling": "liquid",
                "systems": {"hgx_h100_8": 10},
                "power_sources": {"nuclear": {"capacity": "20 MW"}},
            },
        },
    }
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_scenario(path, catalog=catalog)


def test_weather_driven_sources_take_the_weather_points_hours(tmp_path, catalog):
    sources = {
        "solar_pv": {"capacity": "20 MW", "weather": True},
        "wind_onshore": {
            "capacity": "20 MW",
            "weather": {"turbine": "V126/3450", "hub_height": "120 m"},
        },
    }
    inputs = build_inputs(_scenario(tmp_path, catalog, sources), catalog)
    hours = pd.date_range(START, periods=24, freq="h")
    frame = site_weather("DE-LU", hours)
    factors = inputs["source_capacity_factor"].sel(site="fra")
    expected_solar = solar.weather_output(Location(lat=50.11, lon=8.68), frame, 0.25)
    expected_wind = wind.turbine_output(frame["wind_speed_10m_m_s"].to_numpy(), "V126/3450", 120.0, 0.5)
    np.testing.assert_allclose(factors.sel(source="solar_pv").values, expected_solar)
    np.testing.assert_allclose(factors.sel(source="wind_onshore").values, expected_wind)
    assert expected_solar.max() > 0.3 and expected_solar.min() == 0.0  # a July day and its night


def test_without_weather_the_catalogue_profiles_stay(tmp_path, catalog):
    sources = {"solar_pv": {"capacity": "20 MW"}}
    inputs = build_inputs(_scenario(tmp_path, catalog, sources), catalog)
    hours = pd.date_range(START, periods=24, freq="h")
    catalogue = catalog.power_source("solar_pv").profile(Location(lat=50.11, lon=8.68), hours)
    np.testing.assert_allclose(
        inputs["source_capacity_factor"].sel(site="fra", source="solar_pv").values,
        catalogue["capacity_factor"].to_numpy(),
    )


def test_every_site_says_which_weather_it_took(tmp_path, catalog):
    sources = {"solar_pv": {"capacity": "20 MW", "weather": True}}
    inputs = build_inputs(_scenario(tmp_path, catalog, sources), catalog)
    notes = json.loads(inputs.attrs["site_weather_json"])
    assert notes["fra"]["zone"] == "DE-LU"
    _, _, metres = Geod(ellps="WGS84").inv(8.68, 50.11, 8.653846, 50.08787)  # the DE-LU point
    assert notes["fra"]["distance_km"] == pytest.approx(metres / 1000, abs=0.05)
    assert notes["fra"]["weather_driven"] == ["source solar_pv"]
    assert notes["fra"]["note"].startswith("measured 2023 weather of the DE-LU weather point")
    assert notes["iowa"]["zone"] is None and notes["iowa"]["weather_driven"] == []
    assert notes["iowa"]["note"].startswith("no measured weather within 150 km (nearest: the ")
