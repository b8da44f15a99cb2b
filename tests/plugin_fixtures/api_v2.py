"""A plugin written for a future major version of the plugin API."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields

GEOMODEL_PLUGIN_API = "2"


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_from_api_2"))]
