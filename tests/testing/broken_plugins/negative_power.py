"""A negative power per chip, smuggled past construction with model_construct()."""

from plugin_fixtures.figures import hardware_fields

from geomodel import HardwareSystem, hookimpl

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_hardware_systems():
    return [
        HardwareSystem.model_construct(
            **hardware_fields(
                "negative_server", active_power_kw_per_chip=-1.0, idle_power_kw_per_chip=0.2
            )
        )
    ]
