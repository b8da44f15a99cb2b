"""Contributes a hardware name that good_catalog contributes too."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_hgx_8", vendor="Other"))]
