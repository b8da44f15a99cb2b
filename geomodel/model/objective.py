"""The objective and the terms reported on their own (docs/model.md)."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import KG_PER_TONNE, SECONDS_PER_HOUR, USD_PER_KUSD, linear
from geomodel.model.sets import ModelSets


def define_objective(m, sets: ModelSets, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """Energy cost + carbon price x emissions + latency weight x latency + unserved penalty
    + transfer cost of data moved (7) + water cost (8)."""
    attrs = inputs.attrs
    multiplier = float(attrs.get("energy_price_multiplier", 1.0))
    grid_price = inputs["grid_price_usd_per_mwh"].values
    grid_carbon = inputs["grid_carbon_kg_per_mwh"].values
    cost, carbon, energy = [], [], []
    variables = []
    for index in sets.grid:
        s, t = index
        variables.append(m.grid[index])
        energy.append(weight_hours[t])
        cost.append(weight_hours[t] * multiplier * grid_price[s, t] / USD_PER_KUSD)
        carbon.append(weight_hours[t] * grid_carbon[s, t] / KG_PER_TONNE)
    if sets.sources:
        price = inputs["source_price_usd_per_mwh"].values
        intensity = inputs["source_carbon_kg_per_mwh"].values
        for index in sets.gen:
            s, k, t = index
            variables.append(m.gen[index])
            energy.append(weight_hours[t])
            cost.append(weight_hours[t] * multiplier * price[s, k, t] / USD_PER_KUSD)
            carbon.append(weight_hours[t] * intensity[s, k, t] / KG_PER_TONNE)
    m.energy_supplied_mwh = pyo.Expression(expr=linear(energy, variables))
    m.energy_cost_kusd = pyo.Expression(expr=linear(cost, variables))
    # the network energy of data moved (7) emits too, so carbon prices and bounds see it
    moved = m.transfer_emissions_tco2.expr
    m.emissions_tco2 = pyo.Expression(
        expr=linear(
            [*carbon, *moved.linear_coefs], [*variables, *moved.linear_vars], float(moved.constant)
        )
    )
    latency = inputs["latency_ms"].values if sets.regions else None
    served_mtoken = [weight_hours[t] * SECONDS_PER_HOUR for _, _, _, t in sets.serve]
    serve_vars = [m.serve[index] for index in sets.serve]
    m.served_mtoken = pyo.Expression(expr=linear(served_mtoken, serve_vars))
    m.latency_ms_mtoken = pyo.Expression(
        expr=linear(
            [w * latency[r, s] for w, (_, r, s, _) in zip(served_mtoken, sets.serve, strict=True)],
            serve_vars,
        )
    )
    m.unserved_mtoken = pyo.Expression(
        expr=linear(
            [weight_hours[t] * SECONDS_PER_HOUR for _, _, t in sets.unserved],
            [m.unserved[index] for index in sets.unserved],
        )
    )
    m.extra_cost_kusd = pyo.Expression(expr=0.0, doc="cost terms added by model extensions, kUSD")
    carbon_price = float(attrs.get("carbon_price_usd_per_tco2", 0.0))
    latency_weight = float(attrs.get("latency_weight_usd_per_ms_per_mtoken", 0.0))
    penalty = float(attrs.get("unserved_penalty_usd_per_mtoken", 0.0))
    m.carbon_cost_kusd = pyo.Expression(expr=carbon_price / USD_PER_KUSD * m.emissions_tco2)
    m.latency_cost_kusd = pyo.Expression(expr=latency_weight / USD_PER_KUSD * m.latency_ms_mtoken)
    m.unserved_cost_kusd = pyo.Expression(expr=penalty / USD_PER_KUSD * m.unserved_mtoken)
    m.objective = pyo.Objective(
        expr=m.energy_cost_kusd
        + m.carbon_cost_kusd
        + m.latency_cost_kusd
        + m.unserved_cost_kusd
        + m.extra_cost_kusd
        + m.investment_cost_kusd
        + m.fixed_om_cost_kusd
        + m.storage_cost_kusd
        + m.transfer_cost_kusd
        + m.water_cost_kusd,
        sense=pyo.minimize,
    )


#: Objective terms reported on their own (name -> model component), kUSD.
OBJECTIVE_TERMS = (
    "energy_cost_kusd",
    "carbon_cost_kusd",
    "latency_cost_kusd",
    "unserved_cost_kusd",
    "extra_cost_kusd",
    "investment_cost_kusd",
    "fixed_om_cost_kusd",
    "storage_cost_kusd",
    "transfer_cost_kusd",
    "water_cost_kusd",
)
