"""One hook raises; the plugin's other hook is fine."""

from geomodel import LinkTechnology, hookimpl
from plugin_fixtures.figures import link_fields


@hookimpl
def register_hardware_systems():
    raise RuntimeError("vendor table fixture_missing.csv not found")


@hookimpl
def register_link_technologies():
    return [LinkTechnology(**link_fields("fixture_raising_plugin_link"))]
