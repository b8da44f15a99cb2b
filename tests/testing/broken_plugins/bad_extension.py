"""A model extension that names its components without its prefix, and has no
GEOMODEL_PLUGIN_API."""

from geomodel import hookimpl

NAME = "bad_extension"
GEOMODEL_EXAMPLE_SETTINGS = {"cap_mw": 0.5}


@hookimpl
def extend_model(model, inputs):
    import json

    import pyomo.environ as pyo

    settings = json.loads(inputs.attrs.get("extensions_json", "{}")).get(NAME)
    if not settings:
        return
    cap = settings["cap_mw"]
    model.site_cap = pyo.Constraint(
        list(model.facility_power_mw.keys()),
        rule=lambda m, s, t: m.facility_power_mw[s, t] <= cap,
    )
