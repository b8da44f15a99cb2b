"""A model extension that raises when the scenario uses it."""

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"
NAME = "raising_extension"
GEOMODEL_EXAMPLE_SETTINGS = {"cap_mw": 0.5}


@hookimpl
def extend_model(model, inputs):
    import json

    settings = json.loads(inputs.attrs.get("extensions_json", "{}")).get(NAME)
    if settings:
        raise KeyError("cap")  # the author renamed the setting in one place only
