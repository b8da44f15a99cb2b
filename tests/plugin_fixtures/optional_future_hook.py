"""Implements a hook of a later API minor version, marked optional so that it
still loads on a geomodel that does not have that hook yet (pluggy's
``optionalhook``)."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl(optionalhook=True)
def register_storage_systems():
    return []


@hookimpl
def register_hardware_systems():
    return [HardwareSystem(**hardware_fields("fixture_with_optional_hook"))]
