"""Figures given in the wrong units: W instead of kW, ms/km instead of us/km, percent
capacity factors, and a field named with another unit."""

from plugin_fixtures.figures import hardware_fields, link_fields, power_fields

from geomodel import HardwareSystem, LinkTechnology, hookimpl

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_hardware_systems():
    in_watts = hardware_fields("watts_server")
    in_watts.pop("active_power_kw_per_chip")
    in_watts["active_power_w_per_chip"] = 1275.0  # the unit in the name is not geomodel's
    return [
        hardware_fields(
            "kilowatts_as_watts", active_power_kw_per_chip=1275.0, idle_power_kw_per_chip=0.4
        ),
        in_watts,
        HardwareSystem(**hardware_fields("right_units")),
    ]


@hookimpl
def register_link_technologies():
    return [
        link_fields("ms_per_km", latency_us_per_km=0.0049),
        LinkTechnology(**link_fields("fine_link")),
    ]


@hookimpl
def register_power_sources():
    return [power_fields("percent_grid", capacity_factor=95.0)]
