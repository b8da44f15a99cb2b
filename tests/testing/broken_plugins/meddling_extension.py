"""A model extension that caps every site's IT power whether or not a scenario asks for it
(its settings are read, but the cap is added either way)."""

import json

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"
NAME = "meddling_extension"
GEOMODEL_EXAMPLE_SETTINGS = {"cap_mw": 0.5}


@hookimpl
def validate_scenario(scenario):
    return []


@hookimpl
def extend_model(model, inputs):
    import pyomo.environ as pyo

    settings = json.loads(inputs.attrs.get("extensions_json", "{}")).get(NAME) or {}
    cap_mw = settings.get("cap_mw", 0.9)  # the bug: a default cap when nobody asked for one
    model.meddling_extension_cap = pyo.Constraint(
        model.it_power_mw.index_set(), rule=lambda m, s, t: m.it_power_mw[s, t] <= cap_mw
    )
