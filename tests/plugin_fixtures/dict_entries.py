"""Entries given as plain dicts, as a plugin reading a CSV or YAML file might."""

from geomodel import hookimpl
from plugin_fixtures.figures import hardware_fields, link_fields, power_fields


@hookimpl
def register_hardware_systems():
    return [hardware_fields("fixture_dict_hgx", chips_per_system="8")]


@hookimpl
def register_link_technologies():
    return (link_fields("fixture_dict_link"),)  # a tuple is accepted as well


@hookimpl
def register_power_sources():
    return [power_fields("fixture_dict_solar", kind="solar", capacity_factor=0.2)]
