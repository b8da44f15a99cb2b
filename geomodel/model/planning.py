"""Planning: build variables, the limits they lift, and what building costs (docs/model.md,
"Planning").

Every capacity the core model uses is read through :class:`geomodel.model.capacity.Capacity`
as installed plus built; this module makes the ``build_*`` variables that capacity adds,
the constraints that tie a built capacity to its use where a bound cannot (generators,
the grid following a built envelope, switched-on systems, a new site's opening), and the
objective's two planning terms: the annuity of what is built and its fixed O&M, each
scaled to the share of a year the horizon stands for.
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.inputs.dataset import is_planning
from geomodel.inputs.planning import HOURS_PER_YEAR
from geomodel.model.basics import USD_PER_KUSD, IntegerChoices, linear
from geomodel.model.capacity import Capacity, at_most
from geomodel.model.sets import ModelSets, tuples

#: build variable -> (inputs variable of its most, of its annuity, of its fixed O&M, doc)
BUILD_VARIABLES: dict[str, tuple[str, str, str, str]] = {
    "build_systems": (
        "build_max_systems",
        "system_annuity_usd_per_year",
        "system_fixed_om_usd_per_year",
        "systems of h built at s",
    ),
    "build_envelope_mw": (
        "build_max_envelope_mw",
        "envelope_annuity_usd_per_mw_year",
        "envelope_fixed_om_usd_per_mw_year",
        "facility power added at s, MW",
    ),
    "build_source_mw": (
        "build_max_source_mw",
        "source_annuity_usd_per_mw_year",
        "source_fixed_om_usd_per_mw_year",
        "capacity of source k built at s, MW",
    ),
    "build_battery_mw": (
        "build_max_battery_mw",
        "battery_annuity_usd_per_mw_year",
        "battery_fixed_om_usd_per_mw_year",
        "battery power built at s, MW",
    ),
    "build_battery_mwh": (
        "build_max_battery_mwh",
        "battery_annuity_usd_per_mwh_year",
        "battery_fixed_om_usd_per_mwh_year",
        "battery energy built at s, MWh",
    ),
    "build_fibre_pairs": (
        "build_max_fibre_pairs",
        "link_pair_annuity_usd_per_year",
        "link_pair_fixed_om_usd_per_year",
        "fibre pairs lit on link l",
    ),
}
#: build variables that sit at a site (those a new site's opening gates)
SITE_BUILDS = (
    "build_systems",
    "build_envelope_mw",
    "build_source_mw",
    "build_battery_mw",
    "build_battery_mwh",
)


def horizon_years(weight_hours: np.ndarray) -> float:
    """Share of a year the horizon stands for: sum of weight x dt_hours over 8760 h."""
    return float(np.sum(weight_hours)) / HOURS_PER_YEAR


def define_build_variables(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """Build variables where something may be built, and ``m.capacity`` over them.

    ``build_*`` in [0, most that may be built]; integer for whole systems and whole fibre
    pairs when asked; ``open_site[s]`` in [0, 1] (binary with ``site_opening``) for a new site.
    """
    if is_planning(inputs):
        for name, (most_name, _, _, doc) in BUILD_VARIABLES.items():
            most = inputs[most_name].values
            index = tuples(most > 0)
            if most.ndim == 1:
                index = [i for (i,) in index]
            whole = (name == "build_systems" and integer.whole_systems) or (
                name == "build_fibre_pairs" and integer.whole_fibre_pairs
            )
            domain = pyo.NonNegativeIntegers if whole else pyo.NonNegativeReals
            m.add_component(
                name,
                pyo.Var(
                    index, domain=domain, bounds=lambda _, *i, most=most: (0.0, float(most[i])), doc=doc
                ),
            )
        new_sites = [int(s) for s in np.flatnonzero(inputs["site_new"].values)]
        domain = pyo.Binary if integer.site_opening else pyo.UnitInterval
        m.open_site = pyo.Var(new_sites, domain=domain, doc="new site s is opened (0..1)")
    m.capacity = Capacity(m, inputs, sets.sites)


def define_build_limits(m, sets: ModelSets, inputs: xr.Dataset) -> None:
    """Limits of built capacity that variable bounds cannot state (docs/model.md, Planning).

    (P1) ``generator_capacity[s,k,t]``: gen <= (installed + built) x capacity factor;
    (P2) ``grid_follows_envelope[s,t]``: grid <= installed + built envelope (no limit given);
    (P3) ``systems_on_built[s,h,t]``: switched-on systems <= installed + built;
    (P5) ``opening[row]``: nothing is built at or towards a new site beyond its opening.
    """
    if not is_planning(inputs):
        return
    capacity: Capacity = m.capacity
    factor = inputs["source_capacity_factor"].values if sets.sources else None
    generator = [(s, k, t) for s, k, t in sets.gen if capacity.generator_mw(s, k).terms]
    m.generator_capacity = pyo.Constraint(
        generator,
        rule=lambda _, s, k, t: at_most(
            [1.0], [m.gen[s, k, t]], capacity.generator_mw(s, k), factor[s, k, t]
        ),
        doc="generation within installed plus built capacity x capacity factor, MW",
    )
    grid = [(s, t) for s, t in sets.grid if capacity.grid_limit_mw(s).terms]
    m.grid_follows_envelope = pyo.Constraint(
        grid,
        rule=lambda _, s, t: at_most([1.0], [m.grid[s, t]], capacity.grid_limit_mw(s)),
        doc="grid import within the envelope, installed plus built, MW",
    )
    if hasattr(m, "systems_on"):
        per_system = inputs["chips_per_system"].values
        switched = [(s, h, t) for s, h, t in m.systems_on if capacity.built_systems(s, h) is not None]
        m.systems_on_built = pyo.Constraint(
            switched,
            rule=lambda _, s, h, t: at_most(
                [1.0], [m.systems_on[s, h, t]], capacity.chips(s, h), 1.0 / float(per_system[h])
            ),
            doc="systems switched on within installed plus built systems",
        )
    _define_opening(m, inputs)


def _define_opening(m, inputs: xr.Dataset) -> None:
    """``build <= most x open_site[s]`` for every build variable at a new site, and for the
    fibre pairs of a link towards one (a row for each new end)."""
    rows = []
    link_ends = m.capacity.link_ends
    for name in (*SITE_BUILDS, "build_fibre_pairs"):
        component = getattr(m, name, None)
        if component is None:
            continue
        most = inputs[BUILD_VARIABLES[name][0]].values
        for index in component:
            if name == "build_fibre_pairs":
                ends = link_ends[index]
            else:
                ends = (index[0] if isinstance(index, tuple) else index,)
            rows.extend((name, index, s, float(most[index])) for s in ends if s in m.open_site)
    m.opening = pyo.Constraint(
        range(len(rows)),
        rule=lambda _, row: (
            linear(
                [1.0, -rows[row][3]], [getattr(m, rows[row][0])[rows[row][1]], m.open_site[rows[row][2]]]
            )
            <= 0.0
        ),
        doc="nothing is built at or towards a new site beyond the share it is opened",
    )
    m.opening_rows = rows


def define_build_cost(m, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """``investment_cost_kusd`` = share x sum built x annuity; ``fixed_om_cost_kusd`` = share x
    sum built x fixed O&M (both kUSD; 0 without build options). The share of a year is
    sum of weight x dt_hours / 8760, so a year of typical days carries a full year's annuity.
    """
    if not is_planning(inputs):
        m.investment_cost_kusd = pyo.Expression(expr=0.0, doc="annuity of what is built, kUSD")
        m.fixed_om_cost_kusd = pyo.Expression(expr=0.0, doc="fixed O&M of what is built, kUSD")
        return
    share = horizon_years(weight_hours) / USD_PER_KUSD
    annuity, fixed, variables = [], [], []
    per_unit = {
        name: (inputs[a].values, inputs[f].values) for name, (_, a, f, _) in BUILD_VARIABLES.items()
    }
    per_unit["open_site"] = (
        inputs["site_open_annuity_usd_per_year"].values,
        inputs["site_open_fixed_om_usd_per_year"].values,
    )
    for name, (annuity_per_unit, fixed_per_unit) in per_unit.items():
        for index, var in getattr(m, name).items():
            variables.append(var)
            annuity.append(share * float(annuity_per_unit[index]))
            fixed.append(share * float(fixed_per_unit[index]))
    m.investment_cost_kusd = pyo.Expression(
        expr=linear(annuity, variables), doc="annuity of what is built, horizon's share, kUSD"
    )
    m.fixed_om_cost_kusd = pyo.Expression(
        expr=linear(fixed, variables), doc="fixed O&M of what is built, horizon's share, kUSD"
    )
