"""A model extension that always raises: its constraint would be missing from the plan."""

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def extend_model(model, inputs):
    raise KeyError("site_cap_mw")
