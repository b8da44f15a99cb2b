"""The shipped weather points: registered through the catalogue, which a site takes, the
reach, and the evidence for it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pyproj import Geod

from geomodel.catalog import WeatherPoint
from geomodel.geo import Location
from geomodel.inputs.pue import weather_pue, wet_bulb_c
from geomodel.scenario.schema.pue import PueCurve
from geomodel.testing import check_plugin
from geomodel_builtins import measured, weather


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    _, _, metres = Geod(ellps="WGS84").inv(a[1], a[0], b[1], b[0])
    return metres / 1000.0


def test_every_weather_zone_has_a_point_in_the_catalogue(catalog):
    zones = measured.zones_with("temperature_c")
    assert len(zones) == 16
    ours = {
        n: p
        for n, p in catalog.weather_points.items()
        if catalog.provider[("weather points", n)] == "weather"
    }
    assert sorted(point.zone for point in ours.values()) == sorted(zones)
    de = catalog.weather_point("weather_de_lu")
    assert isinstance(de, WeatherPoint) and de.zone == "DE-LU"
    # the zones table's weather point, and the reach the module docstring argues for
    assert (de.location.lat, de.location.lon) == (50.08787, 8.653846)
    assert de.reach_km == 150 and de.basis == "measured 2023"
    assert "CC BY 4.0" in de.licence and "Open-Meteo" in de.licence


def test_the_builtin_weather_plugin_passes_the_conformance_checks():
    check_plugin(weather, name="weather").assert_ok()


def test_a_site_takes_the_nearest_point_within_reach(catalog):
    frankfurt = (50.11, 8.68)  # the DE-LU point is at 50.0879, 8.6538 (zones table)
    taken = catalog.weather_point_in_reach(Location(lat=frankfurt[0], lon=frankfurt[1]))
    assert taken.point.name == "weather_de_lu" and taken.zone == "DE-LU"
    assert taken.distance_km == pytest.approx(_km(frankfurt, (50.08787, 8.653846)), rel=1e-6)
    assert taken.distance_km < 5


def test_a_site_beyond_reach_has_no_weather(catalog):
    # Council Bluffs, Iowa: the nearest point (CA-ON, Toronto; or PJM) is over 1,000 km away
    council_bluffs = Location(lat=41.26, lon=-95.86)
    assert catalog.weather_point_in_reach(council_bluffs) is None
    nearest = catalog.nearest_weather_point(council_bluffs)
    assert nearest.distance_km > nearest.point.reach_km == weather.REACH_KM
    points = {z: (p.lat, p.lon) for z, p in weather.weather_points().items()}
    by_hand = min(points, key=lambda z: _km((41.26, -95.86), points[z]))
    assert nearest.zone == by_hand


def test_the_reach_is_a_distance_between_what_the_two_nearest_points_and_the_next_show():
    """The figures plugins/weather.py and docs/fidelity.md give for REACH_KM, on a
    chilled-water curve from PUE 1.10 (economiser) to 1.35 at 26 degC wet-bulb."""
    hours = measured.data_hours()
    curve = PueCurve("wet_bulb", 12.0, 18.0, 26.0, 1.10, 1.35)

    def wet_and_pue(zone):
        frame = weather.site_weather(zone, hours)
        wet = wet_bulb_c(frame["temperature_c"].to_numpy(), frame["relative_humidity_pct"].to_numpy())
        return wet, weather_pue(wet, curve)

    new_york, philadelphia = wet_and_pue("US-NY-NYIS"), wet_and_pue("US-MIDA-PJM")
    points = weather.weather_points()
    km = _km(*((points[z].lat, points[z].lon) for z in ("US-NY-NYIS", "US-MIDA-PJM")))
    assert km == pytest.approx(128, abs=1) and km < weather.REACH_KM
    assert np.median(np.abs(new_york[0] - philadelphia[0])) == pytest.approx(0.7, abs=0.05)
    assert abs(new_york[1].mean() - philadelphia[1].mean()) == pytest.approx(0.003, abs=0.0005)
    assert np.percentile(np.abs(new_york[1] - philadelphia[1]), 90) == pytest.approx(0.023, abs=0.001)
    sydney, melbourne = wet_and_pue("AU-NSW"), wet_and_pue("AU-VIC")
    assert np.median(np.abs(sydney[0] - melbourne[0])) == pytest.approx(2.5, abs=0.05)
    assert abs(sydney[1].mean() - melbourne[1].mean()) == pytest.approx(0.040, abs=0.001)


def test_site_weather_is_the_aligned_series_in_si_units():
    hours = pd.date_range("2030-03-04", periods=24, freq="h", tz="UTC")
    frame = weather.site_weather("GB", hours)
    assert list(frame.columns) == [
        "temperature_c",
        "relative_humidity_pct",
        "cloud_cover_pct",
        "wind_speed_10m_m_s",
    ]
    raw = measured.aligned_series("GB", "wind_speed_10m_km_h", hours).values
    np.testing.assert_allclose(frame["wind_speed_10m_m_s"], raw / 3.6)  # km/h -> m/s
    np.testing.assert_allclose(
        frame["temperature_c"], measured.aligned_series("GB", "temperature_c", hours).values
    )
    assert frame.index.equals(hours)
