"""A model extension without example settings that adds nothing without them."""

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"
NAME = "silent_extension"


@hookimpl
def extend_model(model, inputs):
    import json

    if json.loads(inputs.attrs.get("extensions_json", "{}")).get(NAME):
        raise NotImplementedError("never reached by the checks")
