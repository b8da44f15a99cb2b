"""Another distribution's system under the outside author's name, with other figures."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields
from plugin_fixtures.outside_author.hardware import SYSTEM

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields(SYSTEM, vendor="Rival", chips_per_system=4))]
