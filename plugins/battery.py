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
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from geomodel.hookspecs import hookimpl
from geomodel.scenario.units import to_unit

GEOMODEL_PLUGIN_API = "1"
NAME = "battery"
#: Settings geomodel's conformance checks use on their minimal scenario (site ``site_a``,
#: 1 MW envelope): a 0.2 MWh, 0.1 MW battery, so the checks solve its constraints.
GEOMODEL_EXAMPLE_SETTINGS = {"sites": {"site_a": {"energy": "0.2 MWh", "power": "0.1 MW"}}}


@dataclass(frozen=True)
class Battery:
    energy_mwh: float
    power_mw: float
    efficiency: float = 0.88
    initial_soc: float = 0.5
    cycle_cost_usd_per_mwh: float = 0.0


def parse_batteries(settings: dict[str, Any], site_names: list[str]) -> tuple[dict, list[str]]:
    """(site -> Battery, problems) from the scenario's ``extensions.battery`` mapping."""
    problems: list[str] = []
    unknown = set(settings) - {"sites"}
    if unknown:
        problems.append(f"extensions.battery: unknown fields {sorted(unknown)}; expected 'sites'")
    sites = settings.get("sites") or {}
    if not isinstance(sites, dict):
        return {}, ["extensions.battery.sites: expected a mapping of site name -> battery"]
    batteries = {}
    for site, raw in sites.items():
        where = f"extensions.battery.sites.{site}"
        if site not in site_names:
            problems.append(f"{where}: unknown site {site!r}; known sites: {', '.join(site_names)}")
            continue
        try:
            batteries[site] = _battery(raw)
        except (ValueError, TypeError) as error:
            problems.append(f"{where}: {error}")
    return batteries, problems


def _battery(raw: Any) -> Battery:
    if not isinstance(raw, dict):
        raise ValueError(f"expected a mapping with energy and power, got {raw!r}")
    known = {"energy", "power", "efficiency", "initial_soc", "cycle_cost"}
    if set(raw) - known:
        raise ValueError(f"unknown fields {sorted(set(raw) - known)}; allowed: {sorted(known)}")
    if "energy" not in raw or "power" not in raw:
        raise ValueError("needs 'energy' (MWh) and 'power' (MW)")
    battery = Battery(
        energy_mwh=to_unit(raw["energy"], "MWh"),
        power_mw=to_unit(raw["power"], "MW"),
        efficiency=to_unit(raw.get("efficiency", 0.88), "dimensionless"),
        initial_soc=to_unit(raw.get("initial_soc", 0.5), "dimensionless"),
        cycle_cost_usd_per_mwh=to_unit(raw.get("cycle_cost", 0.0), "USD/MWh"),
    )
    if battery.energy_mwh < 0 or battery.power_mw < 0 or battery.cycle_cost_usd_per_mwh < 0:
        raise ValueError("energy, power and cycle_cost must be >= 0")
    if not 0 < battery.efficiency <= 1:
        raise ValueError(f"efficiency must lie in (0, 1], got {battery.efficiency}")
    if not 0 <= battery.initial_soc <= 1:
        raise ValueError(f"initial_soc must lie in [0, 1], got {battery.initial_soc}")
    return battery


@hookimpl
def validate_scenario(scenario: Any) -> list[str]:
    settings = scenario.extensions.get(NAME)
    if settings is None:
        return []
    if not isinstance(settings, dict):
        return ["extensions.battery: expected a mapping with 'sites'"]
    return parse_batteries(settings, list(scenario.sites))[1]


@hookimpl
def extend_model(model: Any, inputs: Any) -> None:
    import pyomo.environ as pyo

    settings = json.loads(inputs.attrs.get("extensions_json", "{}")).get(NAME)
    if not settings:
        return
    sites = [str(s) for s in inputs["site"].values]
    batteries, problems = parse_batteries(settings, sites)
    if problems:
        raise ValueError("; ".join(problems))
    dt = inputs["dt_hours"].values
    weight_hours = model.weight_hours
    steps = range(len(dt))
    index = [(sites.index(site), t) for site in batteries for t in steps]
    spec = {sites.index(site): battery for site, battery in batteries.items()}
    model.battery_charge_mw = pyo.Var(
        index, bounds=lambda _, s, t: (0.0, spec[s].power_mw), doc="battery charging power"
    )
    model.battery_discharge_mw = pyo.Var(
        index, bounds=lambda _, s, t: (0.0, spec[s].power_mw), doc="battery discharging power"
    )
    model.battery_soc_mwh = pyo.Var(
        index,
        bounds=lambda _, s, t: (0.0, spec[s].energy_mwh),
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
            before = battery.initial_soc * battery.energy_mwh
        return m.battery_soc_mwh[s, t] == before + dt[t] * (
            one_way * m.battery_charge_mw[s, t] - m.battery_discharge_mw[s, t] / one_way
        )

    model.battery_state = pyo.Constraint(index, rule=state)
    if not cyclic:
        model.battery_end = pyo.Constraint(
            list(spec),
            rule=lambda m, s: (
                m.battery_soc_mwh[s, len(dt) - 1] >= spec[s].initial_soc * spec[s].energy_mwh
            ),
        )
    for s, t in index:
        supply = model.extra_supply_mw[s, t]
        supply.set_value(supply.expr + model.battery_discharge_mw[s, t] - model.battery_charge_mw[s, t])
    cost = sum(
        weight_hours[t] * spec[s].cycle_cost_usd_per_mwh / 1000.0 * model.battery_discharge_mw[s, t]
        for s, t in index
        if spec[s].cycle_cost_usd_per_mwh
    )
    model.extra_cost_kusd.set_value(model.extra_cost_kusd.expr + cost)
