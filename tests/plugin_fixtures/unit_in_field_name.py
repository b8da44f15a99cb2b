"""A hardware system given as a dict whose power field is named in W instead of kW."""

from geomodel import hookimpl
from plugin_fixtures.figures import hardware_fields


@hookimpl
def register_hardware_systems():
    fields = hardware_fields("fixture_watts_8")
    fields["active_power_w_per_chip"] = fields.pop("active_power_kw_per_chip") * 1000
    return [fields]
