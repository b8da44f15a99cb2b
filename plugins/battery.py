"""Battery storage at a site: the built-in model extension and the worked example
of the ``extend_model`` hook (docs/plugins.md).

A scenario turns it on per site::

    extensions:
      battery:
        sites:
          abilene: {energy: 400 MWh, power: 100 MW, efficiency: 0.88}

Per site s and step t the plugin adds charge and discharge power (MW) and the
state of charge (MWh)::

    soc[s,t] = soc[s,t-1] + (sqrt(eff) x charge[s,t] - discharge[s,t] / sqrt(eff)) x dt[t]

with ``soc`` before the first step equal to ``initial_soc x energy`` and the
last step's ``soc`` at least that again (no free energy from an emptied
battery); with typical days, each typical day cycles on itself instead.
Discharge minus charge enters the site's power balance through
``extra_supply_mw``; ``cycle_cost`` (USD per MWh discharged) enters the
objective through ``extra_cost_kusd``. The round-trip efficiency is split
evenly between charging and discharging.

The settings are declared (:class:`BatterySettings`, hook ``extension_settings``), so
geomodel checks them like every scenario field: units, ranges, unknown fields with a
did-you-mean and site names, each problem at its line.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import Field

from geomodel.extensions import ExtensionSettings, Quantity, SiteName, settings_from_inputs
from geomodel.hookspecs import hookimpl

GEOMODEL_PLUGIN_API = "1.3"
NAME = "battery"
#: Settings geomodel's conformance checks use on their minimal scenario (site ``site_a``,
#: 1 MW envelope): a 0.2 MWh, 0.1 MW battery, so the checks solve its constraints.
GEOMODEL_EXAMPLE_SETTINGS = {"sites": {"site_a": {"energy": "0.2 MWh", "power": "0.1 MW"}}}


class Battery(ExtensionSettings):
    """The battery of one site."""

    energy: Quantity("MWh", ge=0) = Field(description="energy capacity", examples=["400 MWh"])
    power: Quantity("MW", ge=0) = Field(
        description="most charging or discharging power", examples=["100 MW"]
    )
    efficiency: float = Field(
        default=0.88,
        gt=0,
        le=1,
        description="round-trip efficiency, split evenly between charging and discharging",
    )
    initial_soc: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="state of charge before the first step, as a share of the energy "
        "capacity; the last step ends with at least as much",
    )
    cycle_cost: Quantity("USD/MWh", ge=0) = Field(
        default=0.0, description="variable cost per MWh discharged (wear)", examples=["2 USD/MWh"]
    )


class BatterySettings(ExtensionSettings):
    """Everything under ``extensions.battery``."""

    sites: dict[SiteName, Battery] = Field(
        default_factory=dict, description="the battery of each site that has one"
    )


@hookimpl
def extension_settings() -> type[BatterySettings]:
    return BatterySettings


@hookimpl
def extend_model(model: Any, inputs: Any) -> None:
    import pyomo.environ as pyo

    settings = settings_from_inputs(inputs, NAME, BatterySettings)
    if settings is None or not settings.sites:
        return
    sites = [str(s) for s in inputs["site"].values]
    batteries = settings.sites
    dt = inputs["dt_hours"].values
    weight_hours = model.weight_hours
    steps = range(len(dt))
    index = [(sites.index(site), t) for site in batteries for t in steps]
    spec = {sites.index(site): battery for site, battery in batteries.items()}
    model.battery_charge_mw = pyo.Var(
        index, bounds=lambda _, s, t: (0.0, spec[s].power), doc="battery charging power"
    )
    model.battery_discharge_mw = pyo.Var(
        index, bounds=lambda _, s, t: (0.0, spec[s].power), doc="battery discharging power"
    )
    model.battery_soc_mwh = pyo.Var(
        index,
        bounds=lambda _, s, t: (0.0, spec[s].energy),
        doc="battery state of charge at the end of each step",
    )

    # Typical days stand for many calendar days each, so each one cycles on itself:
    # the state before its first hour is the state after its last.
    period = 24 if int(inputs.attrs.get("typical_days", 0)) else len(dt)
    cyclic = period != len(dt)

    def state(m, s, t):
        battery = spec[s]
        one_way = math.sqrt(battery.efficiency)
        if t % period:
            before = m.battery_soc_mwh[s, t - 1]
        elif cyclic:
            before = m.battery_soc_mwh[s, t + period - 1]
        else:
            before = battery.initial_soc * battery.energy
        return m.battery_soc_mwh[s, t] == before + dt[t] * (
            one_way * m.battery_charge_mw[s, t] - m.battery_discharge_mw[s, t] / one_way
        )

    model.battery_state = pyo.Constraint(index, rule=state)
    if not cyclic:
        model.battery_end = pyo.Constraint(
            list(spec),
            rule=lambda m, s: m.battery_soc_mwh[s, len(dt) - 1] >= spec[s].initial_soc * spec[s].energy,
        )
    for s, t in index:
        supply = model.extra_supply_mw[s, t]
        supply.set_value(supply.expr + model.battery_discharge_mw[s, t] - model.battery_charge_mw[s, t])
    cost = sum(
        weight_hours[t] * spec[s].cycle_cost / 1000.0 * model.battery_discharge_mw[s, t]
        for s, t in index
        if spec[s].cycle_cost
    )
    model.extra_cost_kusd.set_value(model.extra_cost_kusd.expr + cost)
