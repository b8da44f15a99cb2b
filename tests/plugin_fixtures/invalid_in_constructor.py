"""A plugin building an invalid entry the ordinary way: the constructor finds the bad
value inside the hook; the catalogue reports that entry by name."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_bad_power", active_power_kw_per_chip=-1.0))]
