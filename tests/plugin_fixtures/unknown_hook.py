"""Implements a hook geomodel does not specify (a typo, or a newer API)."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl
def register_cooling_systems():
    return ["immersion"]


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_with_unknown_hook"))]
