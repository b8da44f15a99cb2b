"""Build options in the inputs Dataset (planning mode, docs/planning.md).

The options come resolved from :mod:`geomodel.scenario.build_options`: limits and what
one unit costs (overnight capex, its yearly annuity, fixed O&M a year). Here they become
Dataset variables on the site, system, source and link dimensions, each with units and a
description. A scenario without build options adds nothing, so its inputs, and the model
built from them, are exactly those of operational mode.

Buildable sources and systems join the ``source`` and ``system`` dimensions with nothing
installed, and route candidates join the ``link`` dimension with no pairs lit, so the
model's sets reach them; the model then bounds each by installed plus built.
"""

from __future__ import annotations

import json

import numpy as np
import xarray as xr

from geomodel.catalog import Catalog
from geomodel.inputs.dataset import variable
from geomodel.scenario.build_options import (
    BuildPlan,
    UnitCost,
    plans_anything,
    resolve_build_options,
)
from geomodel.scenario.network import Link
from geomodel.scenario.schema import PowerSupply, Scenario
from geomodel.tools.dci import link_power_w

HOURS_PER_YEAR = 8760.0


def build_plan(scenario: Scenario, catalog: Catalog) -> BuildPlan | None:
    """The scenario's resolved build options, or None when it builds nothing."""
    if not plans_anything(scenario):
        return None
    plan, problems = resolve_build_options(scenario, catalog)
    if problems:  # load_scenario reports these; a hand-made Scenario may still carry them
        raise ValueError(
            "; ".join(f"{'.'.join(map(str, path))}: {message}" for path, message in problems)
        )
    return plan


def with_planned_systems(systems: list[str], plan: BuildPlan | None) -> list[str]:
    """Installed systems plus those that may be built, sorted."""
    if plan is None:
        return systems
    return sorted(set(systems) | {system for _, system in plan.systems})


def with_planned_sources(scenario: Scenario, plan: BuildPlan | None) -> Scenario:
    """The scenario with every source that is only built at a site listed there with
    nothing installed (and the build option's price and carbon), so that its profile,
    price and carbon are resolved like any other source's."""
    if plan is None or not plan.sources:
        return scenario
    sites = {}
    for name, site in scenario.sites.items():
        added = {
            source: PowerSupply(
                capacity=0.0,
                price=option.price_usd_per_mwh,
                carbon=site.build.power_sources[source].carbon,
            )
            for (site_name, source), option in plan.sources.items()
            if site_name == name and source not in site.power_sources
        }
        sites[name] = site.model_copy(update={"power_sources": {**site.power_sources, **added}})
    return scenario.model_copy(update={"sites": sites})


def with_planned_links(links: list[Link], plan: BuildPlan | None) -> list[Link]:
    """Existing links plus route candidates between sites not yet linked (no pairs lit)."""
    if plan is None or not plan.links:
        return links
    by_pair = {frozenset((link.site_a, link.site_b)): link for link in links}
    for pair, option in plan.links.items():
        if pair not in by_pair:
            a, b = option.site_a, option.site_b
            by_pair[pair] = Link(f"{a}--{b}", a, b, option.technology, 0, option.length_km)
    return sorted(by_pair.values(), key=lambda link: link.name)


def planning_variables(
    plan: BuildPlan | None,
    scenario: Scenario,
    systems: list[str],
    sources: list[str],
    links: list[Link],
    grid_import_limit_mw: np.ndarray,
) -> dict[str, xr.Variable]:
    """Dataset variables of every build option; none without a plan.

    ``grid_import_limit_mw`` is operational mode's limit per site; where the envelope may
    grow and the scenario gives no limit of its own, the grid follows the envelope
    (``grid_limit_follows_envelope``) up to its largest possible value.
    """
    if plan is None:
        return {}
    sites = list(scenario.sites)
    data: dict[str, xr.Variable] = {}
    data.update(_systems(plan, sites, systems))
    data.update(_envelopes(plan, scenario, grid_import_limit_mw))
    data.update(_sources(plan, sites, sources))
    data.update(_batteries(plan, sites))
    data.update(_openings(plan, sites))
    data.update(_links(plan, links))
    return data


def planning_attributes(plan: BuildPlan | None, scenario: Scenario, weight_hours: np.ndarray) -> dict:
    """Finance and horizon attributes of a planning Dataset; none without a plan."""
    if plan is None:
        return {}
    return {
        "planning": 1,
        "discount_rate": scenario.finance.discount_rate,
        "lifetimes_years_json": json.dumps(dict(sorted(plan.lifetimes.items()))),
        "horizon_years": float(np.sum(weight_hours)) / HOURS_PER_YEAR,
    }


def _cost_variables(
    dims: tuple[str, ...] | str, costs: np.ndarray, per: str, what: str
) -> dict[str, xr.Variable]:
    """Overnight capex, annuity and fixed O&M arrays of an object array of UnitCost."""
    capex, annuity, fixed = (
        np.array([getattr(cost, name) for cost in costs.ravel()], dtype=float).reshape(costs.shape)
        for name in ("capex_usd", "annuity_usd_per_year", "fixed_om_usd_per_year")
    )
    return {
        "capex": variable(dims, capex, f"USD/{per}", f"overnight capital cost of one {what}"),
        "annuity": variable(
            dims,
            annuity,
            f"USD/{per}/year",
            f"yearly annuity of the capex of one {what} (capital recovery factor of its lifetime)",
        ),
        "fixed_om": variable(
            dims, fixed, f"USD/{per}/year", f"fixed operation and maintenance of one {what} a year"
        ),
    }


def _grid(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed limits and an object array of zero costs."""
    costs = np.empty(shape, dtype=object)
    costs.fill(UnitCost())
    return np.zeros(shape), costs


def _options(
    options: dict,
    labels: list[list[str]],
    dims: tuple[str, ...],
    names: tuple[str, str, str, str],
    units: tuple[str, str],
    what: tuple[str, str],
) -> dict[str, xr.Variable]:
    """The most that may be built of each option and what one unit costs.

    ``options`` maps labels (one per dimension; a single label for one dimension) to an
    :class:`Option`; ``names`` are the variables' names (most, capex, annuity, fixed O&M),
    ``units`` (unit of the most, unit a cost is per), ``what`` (the most's description,
    the priced unit's).
    """
    most, costs = _grid(tuple(len(axis) for axis in labels))
    for key, option in options.items():
        key = key if isinstance(key, tuple) else (key,)
        position = tuple(axis.index(label) for axis, label in zip(labels, key, strict=True))
        most[position], costs[position] = option.buildable, option.cost
    parts = _cost_variables(dims, costs, units[1], what[1])
    most_name, capex_name, annuity_name, fixed_name = names
    return {
        most_name: variable(dims, most, units[0], what[0]),
        capex_name: parts["capex"],
        annuity_name: parts["annuity"],
        fixed_name: parts["fixed_om"],
    }


def _systems(plan: BuildPlan, sites: list[str], systems: list[str]) -> dict[str, xr.Variable]:
    return _options(
        plan.systems,
        [sites, systems],
        ("site", "system"),
        (
            "build_max_systems",
            "system_capex_usd",
            "system_annuity_usd_per_year",
            "system_fixed_om_usd_per_year",
        ),
        ("systems", "system"),
        ("most systems that may be built (max - installed)", "system built"),
    )


def _envelopes(plan: BuildPlan, scenario: Scenario, grid_limit: np.ndarray) -> dict[str, xr.Variable]:
    sites = list(scenario.sites)
    follows = np.zeros(len(sites), dtype=bool)
    limit = np.array(grid_limit, dtype=float)
    for site_name, option in plan.envelopes.items():
        site = scenario.sites[site_name]
        if site.grid is not None:
            given = site.grid_import_limit
            follows[sites.index(site_name)] = given is None
            limit[sites.index(site_name)] = option.most if given is None else given
    return {
        **_options(
            plan.envelopes,
            [sites],
            ("site",),
            (
                "build_max_envelope_mw",
                "envelope_capex_usd_per_mw",
                "envelope_annuity_usd_per_mw_year",
                "envelope_fixed_om_usd_per_mw_year",
            ),
            ("MW", "MW"),
            ("most facility power that may be added (max - installed)", "MW of facility power built"),
        ),
        "grid_limit_follows_envelope": variable(
            "site", follows, "1", "grid import is limited by the envelope, installed plus built"
        ),
        # replaces operational mode's variable: the most the grid may deliver once built
        "grid_import_limit_mw": variable(
            "site", limit, "MW", "most the grid connection delivers (0: off-grid)"
        ),
    }


def _sources(plan: BuildPlan, sites: list[str], sources: list[str]) -> dict[str, xr.Variable]:
    classes = np.full((len(sites), len(sources)), "", dtype=object)
    for (site, source), option in plan.sources.items():
        classes[sites.index(site), sources.index(source)] = option.asset_class
    return {
        "build_source_asset_class": variable(
            ("site", "source"),
            classes.astype(str),
            "1",
            "finance class of a buildable source (its cost entry's asset_class, else its "
            "kind): the class finance.lifetimes sets and results show ('' where none may be built)",
        ),
        **_source_options(plan, sites, sources),
    }


def _source_options(plan: BuildPlan, sites: list[str], sources: list[str]) -> dict[str, xr.Variable]:
    return _options(
        plan.sources,
        [sites, sources],
        ("site", "source"),
        (
            "build_max_source_mw",
            "source_capex_usd_per_mw",
            "source_annuity_usd_per_mw_year",
            "source_fixed_om_usd_per_mw_year",
        ),
        ("MW", "MW"),
        ("most capacity of each source that may be built", "MW of the source built"),
    )


def _batteries(plan: BuildPlan, sites: list[str]) -> dict[str, xr.Variable]:
    efficiency = np.ones(len(sites))
    cycle_cost = np.zeros(len(sites))
    for site, battery in plan.batteries.items():
        efficiency[sites.index(site)] = battery.efficiency
        cycle_cost[sites.index(site)] = battery.cycle_cost_usd_per_mwh
    return {
        **_options(
            {site: battery.power for site, battery in plan.batteries.items()},
            [sites],
            ("site",),
            (
                "build_max_battery_mw",
                "battery_capex_usd_per_mw",
                "battery_annuity_usd_per_mw_year",
                "battery_fixed_om_usd_per_mw_year",
            ),
            ("MW", "MW"),
            ("most battery power that may be built", "MW of battery power built"),
        ),
        **_options(
            {site: battery.energy for site, battery in plan.batteries.items()},
            [sites],
            ("site",),
            (
                "build_max_battery_mwh",
                "battery_capex_usd_per_mwh",
                "battery_annuity_usd_per_mwh_year",
                "battery_fixed_om_usd_per_mwh_year",
            ),
            ("MWh", "MWh"),
            ("most battery energy that may be built", "MWh of battery energy built"),
        ),
        "battery_efficiency": variable(
            "site", efficiency, "1", "round-trip efficiency of a built battery"
        ),
        "battery_cycle_cost_usd_per_mwh": variable(
            "site", cycle_cost, "USD/MWh", "variable cost per MWh a built battery discharges"
        ),
    }


def _openings(plan: BuildPlan, sites: list[str]) -> dict[str, xr.Variable]:
    new, costs = _grid((len(sites),))
    for site, cost in plan.openings.items():
        new[sites.index(site)], costs[sites.index(site)] = 1.0, cost
    parts = _cost_variables("site", costs, "site", "site opened")
    return {
        "site_new": variable(
            "site", new.astype(bool), "1", "a candidate site, opened only if something is built there"
        ),
        "site_open_capex_usd": parts["capex"],
        "site_open_annuity_usd_per_year": parts["annuity"],
        "site_open_fixed_om_usd_per_year": parts["fixed_om"],
    }


def _links(plan: BuildPlan, links: list[Link]) -> dict[str, xr.Variable]:
    names = [link.name for link in links]
    by_name = {link.name: link for link in links}
    options = {
        link.name: plan.links[frozenset((link.site_a, link.site_b))]
        for link in links
        if frozenset((link.site_a, link.site_b)) in plan.links
    }
    return {
        **_options(
            options,
            [names],
            ("link",),
            (
                "build_max_fibre_pairs",
                "link_pair_capex_usd",
                "link_pair_annuity_usd_per_year",
                "link_pair_fixed_om_usd_per_year",
            ),
            ("pairs", "pair"),
            ("most fibre pairs that may be lit", "fibre pair lit"),
        ),
        "link_capacity_gbit_s_per_pair": variable(
            "link",
            [by_name[name].technology.capacity_gbit_s_per_fibre_pair for name in names],
            "Gb/s",
            "capacity of one fibre pair",
        ),
        "link_power_mw_per_pair": variable(
            "link",
            [link_power_w(by_name[name].length_km, by_name[name].technology) / 1e6 for name in names],
            "MW",
            "power of one fibre pair lit at full capacity",
        ),
    }


__all__ = [
    "HOURS_PER_YEAR",
    "build_plan",
    "planning_attributes",
    "planning_variables",
    "with_planned_links",
    "with_planned_sources",
    "with_planned_systems",
]
