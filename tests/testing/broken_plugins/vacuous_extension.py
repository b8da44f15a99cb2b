"""A model extension whose example settings name no site of the test scenario: it adds a
constraint indexed by nothing, so solving the test scenario would check nothing."""

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"
NAME = "vacuous_extension"
GEOMODEL_EXAMPLE_SETTINGS = {"sites": {"not_in_the_test_scenario": {"cap_mw": 0.5}}}


@hookimpl
def extend_model(model, inputs):
    import json

    import pyomo.environ as pyo

    settings = json.loads(inputs.attrs.get("extensions_json", "{}")).get(NAME) or {}
    sites = [str(s) for s in inputs["site"].values]
    capped = [
        (sites.index(site), t)
        for site in settings.get("sites", {})
        if site in sites
        for t in range(inputs.sizes["time"])
    ]
    model.vacuous_extension_cap = pyo.Constraint(
        capped, rule=lambda m, s, t: m.facility_power_mw[s, t] <= 0.5
    )
