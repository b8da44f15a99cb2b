"""The pathway model: one block per period, linked by what is built when
(docs/model.md, "Pathways"; docs/planning.md).

Each period's block is the ordinary model of that period's inputs Dataset
(:func:`geomodel.model.build.populate_model`); its ``build_*`` variables are then the
built capacity online in that period. A *vintage* is one build option coming online in
one period: ``new[v]`` units of it, decided in the last period at least its lead time
earlier, living its lifetime. The blocks are tied to the vintages by

    (W1) ``build[p, i] = sum of new[v] over vintages v of i alive in p`` (+ fixed ones)

where v is alive in p when ``year(online) <= year(p) < year(online) + lifetime``, and
the objective, PyPSA's multi-investment-period objective, is

    (W2) sum over p of objective_weight[p] x (operational cost of p a year
          + sum over vintages alive in p of new[v] x (annuity + fixed O&M) of v)

with objective_weight[p] the present value of one USD a year over p's years. Only the
periods an asset lives in carry its annuity, as in PyPSA; its price and annuity are
those of the period it comes online in. A myopic pathway builds one period at a time
(``positions`` one period, earlier vintages ``fixed``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import USD_PER_KUSD, IntegerChoices, linear
from geomodel.model.build import populate_model
from geomodel.model.planning import BUILD_VARIABLES

#: build variable -> inputs variables of its annuity and fixed O&M per unit a year
UNIT_COSTS = {name: (a, f) for name, (_, a, f, _) in BUILD_VARIABLES.items()} | {
    "open_site": ("site_open_annuity_usd_per_year", "site_open_fixed_om_usd_per_year")
}
#: operational terms of a period's objective (its build terms are replaced by (W2))
OPERATIONAL_TERMS = (
    "energy_cost_kusd",
    "carbon_cost_kusd",
    "latency_cost_kusd",
    "unserved_cost_kusd",
    "extra_cost_kusd",
    "storage_cost_kusd",
    "transfer_cost_kusd",
    "water_cost_kusd",
)


@dataclass(frozen=True)
class Vintage:
    """One build option coming online in one period."""

    name: str  #: build variable (``build_systems``, ..., ``open_site``)
    index: tuple[int, ...] | int
    online: int  #: position of the period it comes online in
    decided: int  #: position of the last period it may be decided in
    retires_year: float  #: first year it is no longer there
    usd_per_unit_year: float  #: annuity + fixed O&M of one unit, USD a year
    most: float  #: most that may be built

    def alive(self, year: float, online_year: float) -> bool:
        return online_year <= year < self.retires_year


def period_inputs(tree: xr.DataTree) -> list[xr.Dataset]:
    """The periods' inputs Datasets, in order."""
    years = tree["period"].values
    # the periods share the root's site, system, source and link coordinates (inherited)
    return [
        tree[f"period_{int(year)}"].to_dataset().drop_vars("period", errors="ignore") for year in years
    ]


def vintages(tree: xr.DataTree) -> list[Vintage]:
    """Every vintage the pathway may build: an option with room in the period it comes
    online in, decided no earlier than the first period (its lead time within reach) and,
    for a system, from its first year."""
    years = [float(y) for y in tree["period"].values]
    periods = period_inputs(tree)
    root = tree.to_dataset(inherit=False)
    first_year = root["system_first_year"].values
    out = []
    for name, (annuity_name, fixed_name) in UNIT_COSTS.items():
        lead_name = f"{name}_lead_years"
        if lead_name not in root:
            continue
        lead, life = root[lead_name].values, root[f"{name}_lifetime_years"].values
        for online, inputs in enumerate(periods):
            most = _most(inputs, name)
            annuity, fixed = inputs[annuity_name].values, inputs[fixed_name].values
            for raw in zip(*np.nonzero(most > 0), strict=True):
                index = tuple(int(i) for i in raw)
                key = index if len(index) > 1 else index[0]
                decided_year = years[online] - lead[index]
                if decided_year < years[0] - 1e-9:
                    continue
                if name == "build_systems" and first_year[index[1]] > years[online]:
                    continue
                decided = max(q for q, y in enumerate(years) if y <= decided_year + 1e-9)
                out.append(
                    Vintage(
                        name,
                        key,
                        online,
                        decided,
                        years[online] + float(life[index]),
                        float(annuity[index] + fixed[index]),
                        float(most[index]),
                    )
                )
    return out


def _most(inputs: xr.Dataset, name: str) -> np.ndarray:
    if name == "open_site":
        return inputs["site_new"].values.astype(float)
    return inputs[BUILD_VARIABLES[name][0]].values


def build_pathway_model(
    tree: xr.DataTree,
    positions: list[int],
    fixed: dict[Vintage, float] | None = None,
    integer: IntegerChoices | None = None,
    extend: Callable[[pyo.Block, xr.Dataset], None] | None = None,
) -> pyo.ConcreteModel:
    """The pathway model over the periods at ``positions``, with the vintages in
    ``fixed`` (built by earlier myopic steps) at their values; ``extend`` lets model
    extensions add to each period's block before the objective is formed."""
    fixed = fixed or {}
    years = [float(y) for y in tree["period"].values]
    periods = period_inputs(tree)
    root = tree.to_dataset(inherit=False)
    weight = root["objective_weight"].values
    horizon = root["horizon_years"].values
    m = pyo.ConcreteModel(name=root.attrs.get("scenario_name") or "geomodel-pathway")
    m.positions = list(positions)
    m.blocks = {}
    for p in positions:
        block = pyo.Block(concrete=True)
        m.add_component(f"period_{int(years[p])}", block)
        populate_model(block, periods[p], integer)
        block.objective.deactivate()
        if extend is not None:
            extend(block, periods[p])
        m.blocks[p] = block
    free = [v for v in vintages(tree) if v.online in positions and v not in fixed]
    m.vintages = free
    m.fixed_vintages = dict(fixed)

    def domain(v: Vintage):
        var = getattr(m.blocks[v.online], v.name, None)
        return var[v.index].domain if var is not None and v.index in var else pyo.NonNegativeReals

    m.new = pyo.Var(
        range(len(free)),
        domain=lambda _, k: domain(free[k]),
        bounds=lambda _, k: (0.0, free[k].most),
        doc="units of a vintage built (coming online in its period)",
    )
    rows, terms, constant = [], [], 0.0
    for p in positions:
        block = m.blocks[p]
        alive = [k for k, v in enumerate(free) if v.alive(years[p], years[v.online])]
        kept = [(v, x) for v, x in fixed.items() if v.alive(years[p], years[v.online])]
        for name in UNIT_COSTS:
            var = getattr(block, name, None)
            indices = set(var) if var is not None else set()
            indices |= {free[k].index for k in alive if free[k].name == name}
            indices |= {v.index for v, _ in kept if v.name == name}
            for index in sorted(indices, key=str):
                ks = [k for k in alive if free[k].name == name and free[k].index == index]
                given = sum(x for v, x in kept if v.name == name and v.index == index)
                own = [var[index]] if var is not None and index in var else []
                if own or ks:  # a fixed vintage with no room left in p has nothing to tie
                    rows.append((own, ks, given))
        operational = sum(getattr(block, term) for term in OPERATIONAL_TERMS)
        terms.append(weight[p] / horizon[p] * operational)
        coefs = [free[k].usd_per_unit_year / USD_PER_KUSD for k in alive]
        terms.append(weight[p] * linear(coefs, [m.new[k] for k in alive]))
        constant += weight[p] * sum(v.usd_per_unit_year * x for v, x in kept) / USD_PER_KUSD
    m.online_rows = rows
    m.online = pyo.Constraint(
        range(len(rows)),
        rule=lambda _, r: (
            linear(
                [1.0] * len(rows[r][0]) + [-1.0] * len(rows[r][1]),
                [*rows[r][0], *(m.new[k] for k in rows[r][1])],
            )
            == rows[r][2]
        ),
        doc="(W1) built capacity online in a period = the vintages alive in it",
    )
    m.fixed_cost_kusd = pyo.Expression(expr=constant, doc="vintages fixed by earlier steps, kUSD")
    m.objective = pyo.Objective(expr=sum(terms) + m.fixed_cost_kusd, sense=pyo.minimize)
    return m
