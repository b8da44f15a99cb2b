"""A hardware system, shaped like an 8-GPU HGX H100 server, with a price but no build cost."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields

GEOMODEL_PLUGIN_API = "1"
SYSTEM = "outside_accel_8"


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields(SYSTEM, vendor="Outside", capex_usd_per_system=300_000))]
