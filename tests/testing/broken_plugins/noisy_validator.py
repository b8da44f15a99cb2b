"""A scenario check that complains about every scenario, used or not."""

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def validate_scenario(scenario):
    return ["extensions.noisy_validator: always unhappy"]
