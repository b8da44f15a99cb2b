"""Data movement (7): a job working away from its data's origin moves the data there.

The data moved to site s is the job's data in the share of its work done at s:
``moved_gb[j,s] = data_gb[j] x work_at[j,s] / work_eflop[j]``, exact for a job
that runs at one site and the standard linear relaxation for one split between
sites (docs/model.md). Each GB pays the transfer price of its site pair, draws
network energy, and emits that energy's carbon, which joins ``emissions_tco2``.

For a class of freely split jobs (``job_free_split``) whose members' data per unit
of work differ, the members that move are the cheapest to move: ``away[m,s]`` is
member m's work at s (at most its own work), the class's work at s is the sum
over its members, and each member moves its own data in the share of its own
work done away (docs/model.md, "Job classes").
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import KG_PER_TONNE, USD_PER_KUSD, linear
from geomodel.model.sets import ModelSets

KWH_PER_MWH = 1000.0


def define_data_movement(m, sets: ModelSets, inputs: xr.Dataset) -> None:
    """(7) Moved data, its transfer cost, network energy and emissions (expressions)."""
    terms: dict[tuple[int, int], list] = defaultdict(list)  # (j, s) -> (GB per unit, variable)
    away_index = []
    if "job_origin" in inputs and sets.jobs:
        origin = inputs["job_origin"].values
        data = inputs["job_data_gb"].values
        work = inputs["work_eflop"].values
        free = inputs["job_free_split"].values.astype(bool)
        members = _members_by_class(inputs)
        for (j, s), at_site in m.work_at.items():
            if origin[j] < 0 or s == origin[j] or data[j] <= 0 or work[j] <= 0:
                continue
            share = members.get(j) if free[j] else None
            if share is None:
                terms[j, s].extend((coef * data[j] / work[j], var) for coef, var in at_site)
            else:
                away_index.extend((k, s) for k in share)
    m.away = pyo.Var(
        away_index, domain=pyo.NonNegativeReals, doc="member k's work at s away from its data, EFLOP"
    )
    if away_index:
        _define_member_split(m, inputs, away_index, terms)
    m.moved_gb = terms
    price = inputs["transfer_usd_per_gb"].values if "transfer_usd_per_gb" in inputs else None
    origin = inputs["job_origin"].values if "job_origin" in inputs else None

    def priced(table: str, scale: float):
        if price is None:
            return linear([], [])
        values = inputs[table].values
        coefs, variables = [], []
        for (j, s), gb_terms in terms.items():
            per_gb = float(values[origin[j], s]) / scale
            coefs.extend(gb * per_gb for gb, _ in gb_terms)
            variables.extend(var for _, var in gb_terms)
        return linear(coefs, variables)

    m.transfer_cost_kusd = pyo.Expression(
        expr=priced("transfer_usd_per_gb", USD_PER_KUSD), doc="transfer price of data moved, kUSD"
    )
    m.transfer_energy_mwh = pyo.Expression(
        expr=priced("transfer_kwh_per_gb", KWH_PER_MWH), doc="network energy of data moved, MWh"
    )
    m.transfer_emissions_tco2 = pyo.Expression(
        expr=priced("transfer_kg_per_gb", KG_PER_TONNE), doc="emissions of that network energy, tCO2e"
    )


def _members_by_class(inputs: xr.Dataset) -> dict[int, list[int]]:
    """Class -> its members, for classes of freely split jobs whose data per work differ."""
    member_class = inputs["member_class"].values
    ratio = inputs["member_data_gb"].values / np.where(
        inputs["member_work_eflop"].values > 0, inputs["member_work_eflop"].values, np.inf
    )
    by_class: dict[int, list[int]] = defaultdict(list)
    for k, j in enumerate(member_class.tolist()):
        by_class[j].append(k)
    return {
        j: members
        for j, members in by_class.items()
        if len(members) > 1 and np.ptp(ratio[members]) > 1e-12 * max(1.0, float(np.max(ratio[members])))
    }


def _define_member_split(m, inputs: xr.Dataset, away_index: list, terms: dict) -> None:
    """Members' away work: the class's work at s is theirs, each within its own work."""
    member_class = inputs["member_class"].values
    work = inputs["member_work_eflop"].values
    data = inputs["member_data_gb"].values
    sites_of: dict[int, list[int]] = defaultdict(list)
    at: dict[tuple[int, int], list[int]] = defaultdict(list)  # (class, s) -> members
    for k, s in away_index:
        sites_of[k].append(s)
        at[int(member_class[k]), s].append(k)
    m.away_within_work = pyo.Constraint(
        sorted(sites_of),
        rule=lambda _, k: (
            linear([1.0] * len(sites_of[k]), [m.away[k, s] for s in sites_of[k]]) <= float(work[k])
        ),
        doc="a member's work away from its data is at most its work, EFLOP",
    )

    def class_work(_, j, s):
        at_site = m.work_at[j, s]
        return (
            linear(
                [1.0] * len(at[j, s]) + [-c for c, _ in at_site],
                [m.away[k, s] for k in at[j, s]] + [v for _, v in at_site],
            )
            == 0.0
        )

    m.away_is_class_work = pyo.Constraint(
        sorted(at), rule=class_work, doc="the class's work at s is its members' away work, EFLOP"
    )
    for (j, s), members in at.items():
        terms[j, s].extend((float(data[k] / work[k]), m.away[k, s]) for k in members)
