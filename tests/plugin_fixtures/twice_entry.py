"""Returns one hardware name twice in its own list."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl
def register_hardware_systems():
    return [
        HardwareSystem(**hardware_fields("fixture_twice_8", vendor="First")),
        HardwareSystem(**hardware_fields("fixture_twice_8", vendor="Second")),
    ]
