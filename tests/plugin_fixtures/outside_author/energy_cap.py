"""A model extension capping the IT energy of a site over the horizon, with its outputs.

Settings (declared: ``extension_settings``)::

    extensions:
      outside_cap:
        sites:
          cheap: {cap: 0.5 MWh}

For each listed site s: sum_t w_t it_power_mw[s, t] <= cap_s. Outputs
(``extension_results``): the IT energy of each site (MWh), the cap's shadow price at
each site (USD per MWh of IT energy, from the ``outside_cap_dual`` Suffix), and the
total IT energy of the capped sites as a KPI.
"""

from pydantic import Field

from geomodel import hookimpl
from geomodel.extensions import (
    ExtensionKpi,
    ExtensionSettings,
    ExtensionVariable,
    Quantity,
    SiteName,
    settings_from_inputs,
)

GEOMODEL_PLUGIN_API = "1.3"
NAME = "outside_cap"
GEOMODEL_EXAMPLE_SETTINGS = {"sites": {"site_a": {"cap": "0.5 MWh"}}}


class SiteCap(ExtensionSettings):
    cap: Quantity("MWh", gt=0) = Field(description="most IT energy over the horizon")


class CapSettings(ExtensionSettings):
    sites: dict[SiteName, SiteCap] = Field(min_length=1, description="caps by site")


@hookimpl
def extension_settings():
    return CapSettings


@hookimpl
def extend_model(model, inputs):
    import pyomo.environ as pyo

    settings = settings_from_inputs(inputs, NAME, CapSettings)
    if settings is None:
        return
    sites = [str(s) for s in inputs["site"].values]
    hours = model.weight_hours
    capped = [sites.index(site) for site in settings.sites]
    model.outside_cap_limit = pyo.Constraint(
        capped,
        rule=lambda m, s: (
            sum(hours[t] * m.it_power_mw[s, t] for t in range(len(hours)))
            <= settings.sites[sites[s]].cap
        ),
    )
    model.outside_cap_dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)


@hookimpl
def extension_results(model, inputs, results):
    settings = settings_from_inputs(inputs, NAME, CapSettings)
    if settings is None:
        return []
    it_mwh = (results["it_power_mw"] * model.weight_hours).sum("time").values
    sites = [str(s) for s in inputs["site"].values]
    capped = [sites.index(site) for site in settings.sites]
    value = [
        -model.outside_cap_dual.get(model.outside_cap_limit[s], 0.0) * 1000 if s in capped else 0.0
        for s in range(len(sites))
    ]
    return [
        ExtensionVariable("outside_cap_it_mwh", ("site",), it_mwh, "MWh", "IT energy over the horizon"),
        ExtensionVariable(
            "outside_cap_value_usd_per_mwh", ("site",), value, "USD/MWh", "shadow price of the cap"
        ),
        ExtensionKpi(
            "outside_cap_capped_it_mwh",
            float(sum(it_mwh[s] for s in capped)),
            "MWh",
            "IT energy of the capped sites",
        ),
    ]
