"""Registers the built-in weather point name ``weather_de_lu`` at another place (Berlin):
a third party must not replace the built-in."""

from geomodel import Location, hookimpl
from plugin_fixtures.reanalysis_weather import LICENCE, SyntheticPoint

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_weather_points():
    return [
        SyntheticPoint(
            name="weather_de_lu",
            location=Location(lat=52.52, lon=13.40),
            zone="DE-LU",
            reach_km=150.0,
            basis="synthetic (test fixture)",
            licence=LICENCE,
            source="tests/plugin_fixtures/shadow_weather.py",
            source_type="estimate",
        )
    ]
