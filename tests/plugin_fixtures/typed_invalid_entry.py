"""Builds its entries the ordinary way, one with a bad value: the constructor raises
while the hook runs, and only that entry must be lost, by name."""

from geomodel import PowerSource, hookimpl
from plugin_fixtures.figures import power_fields


@hookimpl
def register_power_sources():
    return [
        PowerSource(**power_fields("fixture_grid_before")),
        PowerSource(**power_fields("fixture_grid_bad", price_usd_per_mwh=-9000)),
        PowerSource(**power_fields("fixture_grid_after")),
    ]
