"""Tries to register ``fixture_tried_server`` with a negative power: the entry is
refused, and a scenario naming it must hear why."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_tried_server", active_power_kw_per_chip=-1.0))]
