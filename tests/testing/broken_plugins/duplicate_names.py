"""Names used twice by this plugin, a built-in shadowed by accident and one on purpose."""

from plugin_fixtures.figures import hardware_fields, power_fields

from geomodel import HardwareSystem, PowerSource, hookimpl

GEOMODEL_PLUGIN_API = "1"
#: Meant to replace the built-in German grid region (with GEOMODEL_DISABLE_PLUGINS=grid);
#: `nuclear` is declared but never defined.
GEOMODEL_OVERRIDES = ["grid_de", "nuclear"]


@hookimpl
def register_hardware_systems():
    return [
        HardwareSystem(**hardware_fields("twice_server")),
        HardwareSystem(**hardware_fields("twice_server", vendor="Again")),
        HardwareSystem(**hardware_fields("hgx_h100_8")),  # a built-in's name
    ]


@hookimpl
def register_power_sources():
    return [PowerSource(**power_fields("grid_de", price_usd_per_mwh=150))]
