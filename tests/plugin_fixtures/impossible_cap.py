"""A model extension that caps every site's facility power at 0 MW: below the idle power
of its chips, so no plan exists and the explanation must name this plugin."""

import pyomo.environ as pyo

from geomodel import hookimpl

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def extend_model(model, inputs):
    model.impossible_cap_limit = pyo.Constraint(
        list(model.facility_power_mw.keys()),
        rule=lambda m, s, t: m.facility_power_mw[s, t] <= 0.0,
        doc="facility power capped at 0 MW",
    )
