"""Entries that break the catalogue contract in the ways plugins get it wrong."""

from geomodel import HardwareSystem, LinkTechnology, PowerSource, hookimpl
from plugin_fixtures.figures import hardware_fields, link_fields, power_fields


@hookimpl
def register_hardware_systems():
    return [
        HardwareSystem(**hardware_fields("fixture_valid_among_invalid")),
        # model_construct skips validation, so the registry must catch it
        HardwareSystem.model_construct(
            **hardware_fields("fixture_negative_power", active_power_kw_per_chip=-1.0)
        ),
        hardware_fields("fixture_wrong_type", chips_per_system="eight"),
        LinkTechnology(**link_fields("fixture_link_in_hardware_hook")),
    ]


@hookimpl
def register_link_technologies():
    return [link_fields("fixture_slow_link", latency_us_per_km=10.0)]


@hookimpl
def register_power_sources():
    return PowerSource(**power_fields("fixture_not_in_a_list"))
