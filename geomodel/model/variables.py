"""The decision variables of docs/model.md, on eligible index tuples only."""

from __future__ import annotations

import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import IntegerChoices
from geomodel.model.capacity import most_link_gbit_s, most_source_mw
from geomodel.model.sets import ModelSets


def define_variables(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """Variables exist only on eligible index tuples (sets.py)."""
    nonneg = pyo.NonNegativeReals
    m.train = pyo.Var(sets.train, domain=nonneg, doc="chips running job j at s on h in t")
    m.infer = pyo.Var(sets.infer, domain=nonneg, doc="chips serving service i at s on h in t")
    m.serve = pyo.Var(sets.serve, domain=nonneg, doc="demand of r for i served at s, Mtoken/s")
    m.unserved = pyo.Var(sets.unserved, domain=nonneg, doc="demand not served, Mtoken/s")
    capacity = most_source_mw(inputs) if sets.sources else None  # installed (+ most built)
    factor = inputs["source_capacity_factor"].values if sets.sources else None
    m.gen = pyo.Var(
        sets.gen,
        domain=nonneg,
        doc="power from source k at s in t, MW",
        bounds=lambda _, s, k, t: (0.0, float(capacity[s, k] * factor[s, k, t])),
    )
    limit = inputs["grid_import_limit_mw"].values
    m.grid = pyo.Var(
        sets.grid,
        domain=nonneg,
        doc="grid import at s in t, MW",
        bounds=lambda _, s, t: (0.0, float(limit[s])),
    )
    site_domain = pyo.Binary if integer.site_participation else pyo.UnitInterval
    m.span = pyo.Var(sets.span, domain=site_domain, doc="job j uses site s in t (0..1)")
    capacity_gbit_s = most_link_gbit_s(inputs)
    m.flow = pyo.Var(
        sets.flow,
        domain=nonneg,
        doc="DP gradient traffic of j on link l, Gb/s",
        bounds=lambda _, j, link, t: (0.0, float(capacity_gbit_s[link])),
    )
