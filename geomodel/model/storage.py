"""Batteries built in planning mode: charge, discharge and state of charge (docs/model.md,
"Planning", (P4)).

Power and energy are sized separately (``build_battery_mw``, ``build_battery_mwh``); the
round-trip efficiency is split evenly between charging and discharging. The state of
charge cycles: over the whole horizon, or over each typical day for typical days, so a
plan neither starts with free stored energy nor ends owing it. Discharge minus charge
enters the site balance through ``extra_supply_mw``; wear (``battery_cycle_cost``) is the
objective term ``storage_cost_kusd``.
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.inputs.dataset import is_planning
from geomodel.model.basics import USD_PER_KUSD, linear
from geomodel.model.capacity import Capacity
from geomodel.model.sets import ModelSets


def storage_sites(inputs: xr.Dataset) -> list[int]:
    """Sites where a battery may be built (both power and energy)."""
    if not is_planning(inputs):
        return []
    both = (inputs["build_max_battery_mw"].values > 0) & (inputs["build_max_battery_mwh"].values > 0)
    return [int(s) for s in np.flatnonzero(both)]


def previous_step(t: int, period: int) -> int:
    """The step before ``t`` in its cycle of ``period`` steps: the cycle's last step for its first."""
    return t - 1 if t % period else t + period - 1


def define_storage(m, sets: ModelSets, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """(P4) Charge and discharge within built power, state of charge within built energy:

    ``soc[s,t] = soc[s,t-1] + dt[t] x (sqrt(eff) x charge[s,t] - discharge[s,t] / sqrt(eff))``
    with t-1 the last step of the cycle for its first step.
    """
    sites = storage_sites(inputs)
    n_time = sets.n_time
    index = [(s, t) for s in sites for t in range(n_time)]
    cost = 0.0
    if index:
        capacity: Capacity = m.capacity
        power_most = inputs["build_max_battery_mw"].values
        energy_most = inputs["build_max_battery_mwh"].values
        m.storage_charge_mw = pyo.Var(
            index, bounds=lambda _, s, t: (0.0, float(power_most[s])), doc="battery charging, MW"
        )
        m.storage_discharge_mw = pyo.Var(
            index, bounds=lambda _, s, t: (0.0, float(power_most[s])), doc="battery discharging, MW"
        )
        m.storage_soc_mwh = pyo.Var(
            index,
            bounds=lambda _, s, t: (0.0, float(energy_most[s])),
            doc="battery state of charge, MWh",
        )
        for name, var, limit in (
            ("storage_charge_limit", m.storage_charge_mw, capacity.battery_mw),
            ("storage_discharge_limit", m.storage_discharge_mw, capacity.battery_mw),
            ("storage_energy_limit", m.storage_soc_mwh, capacity.battery_mwh),
        ):
            m.add_component(
                name,
                pyo.Constraint(
                    index,
                    rule=lambda _, s, t, var=var, limit=limit: (
                        linear(
                            [1.0, *(-c for c, _ in limit(s).terms)],
                            [var[s, t], *(v for _, v in limit(s).terms)],
                        )
                        <= 0.0
                    ),
                ),
            )
        dt = inputs["dt_hours"].values
        one_way = np.sqrt(inputs["battery_efficiency"].values)
        aggregated = int(inputs.attrs.get("typical_days", 0))
        period = int(inputs.attrs.get("segments_per_day", 24)) if aggregated else n_time

        def state(_, s, t):
            before = previous_step(t, period)
            variables = [
                m.storage_soc_mwh[s, t],
                m.storage_charge_mw[s, t],
                m.storage_discharge_mw[s, t],
            ]
            coefs = [1.0, -dt[t] * one_way[s], dt[t] / one_way[s]]
            if before != t:
                variables.append(m.storage_soc_mwh[s, before])
                coefs.append(-1.0)
            else:  # a one-step cycle: the state does not change over it
                coefs[0] = 0.0
            return linear(coefs, variables) == 0.0

        m.storage_state = pyo.Constraint(index, rule=state, doc="battery state of charge, MWh")
        for s, t in index:
            supply = m.extra_supply_mw[s, t]
            supply.set_value(supply.expr + m.storage_discharge_mw[s, t] - m.storage_charge_mw[s, t])
        wear = inputs["battery_cycle_cost_usd_per_mwh"].values
        cost = linear(
            [weight_hours[t] * float(wear[s]) / USD_PER_KUSD for s, t in index],
            [m.storage_discharge_mw[s, t] for s, t in index],
        )
    m.storage_cost_kusd = pyo.Expression(expr=cost, doc="wear of built batteries, kUSD")
