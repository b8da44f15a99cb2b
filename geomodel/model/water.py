"""Water (8): what each site's cooling uses, its cap and its price (docs/model.md)."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import USD_PER_KUSD, linear
from geomodel.model.sets import ModelSets


def define_water(m, sets: ModelSets, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """(8) water_m3[s] = sum over t of weight x dt x it_power_mw[s,t] x wue[s,t]
    (MWh x L/kWh = m3); water_m3[s] <= water_cap_m3[s] where a site has a cap; the
    objective term water_cost_kusd = sum over s of water_price x water_m3 / 1000."""
    wue = inputs["wue_l_per_kwh"].values
    cap = inputs["water_cap_m3"].values
    price = inputs["water_price_usd_per_m3"].values

    def site_water(_, s):
        coefs, variables, constant = [], [], 0.0
        for t in range(sets.n_time):
            it = m.it_power_mw[s, t].expr
            factor = weight_hours[t] * wue[s, t]
            coefs.extend(factor * c for c in it.linear_coefs)
            variables.extend(it.linear_vars)
            constant += factor * float(it.constant)
        return linear(coefs, variables, constant)

    m.water_m3 = pyo.Expression(
        range(len(sets.sites)), rule=site_water, doc="water the site's cooling uses, m3"
    )
    capped = [s for s in range(len(sets.sites)) if np.isfinite(cap[s])]
    m.water_cap = pyo.Constraint(
        capped,
        rule=lambda _, s: m.water_m3[s] <= float(cap[s]),
        doc="water within the site's cap over the horizon, m3",
    )
    priced = [s for s in range(len(sets.sites)) if price[s]]
    m.water_cost_kusd = pyo.Expression(
        expr=sum((price[s] / USD_PER_KUSD * m.water_m3[s] for s in priced), 0.0),
        doc="what the sites' water costs, kUSD",
    )
