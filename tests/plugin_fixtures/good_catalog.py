"""A well-behaved plugin contributing one entry of each kind."""

from geomodel import HardwareSystem, LinkTechnology, PowerSource, hookimpl
from plugin_fixtures.figures import hardware_fields, link_fields, power_fields

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_hgx_8"))]


@hookimpl
def register_link_technologies():
    return [LinkTechnology(**link_fields("fixture_smf"))]


@hookimpl
def register_power_sources():
    return [PowerSource(**power_fields("fixture_grid"))]
