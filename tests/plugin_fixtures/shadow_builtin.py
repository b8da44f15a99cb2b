"""Registers the built-in name ``hgx_h100_8`` with other figures (2 chips per system
instead of 8), plus a system of its own: a package that sorts before ``geomodel``
(``acme-breakage``) must not replace the built-in."""

from geomodel import HardwareSystem, hookimpl
from plugin_fixtures.figures import hardware_fields

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_hardware_systems():
    return [
        HardwareSystem(**hardware_fields("hgx_h100_8", chips_per_system=2, scale_up_domain_chips=2)),
        HardwareSystem(**hardware_fields("acme_own_server")),
    ]
