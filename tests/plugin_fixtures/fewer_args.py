"""Hook implementations that take fewer arguments than their specs."""

from geomodel import hookimpl


@hookimpl
def validate_scenario(scenario):
    return [] if scenario.get("sites") else ["sites: a scenario needs at least one site"]


@hookimpl
def extend_model(model):
    model["fixture_battery_mwh"] = 10.0
