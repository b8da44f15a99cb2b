"""The inputs of a pathway: one ordinary inputs Dataset per period, and the period table
(docs/planning.md, "Pathways").

Each period's Dataset is built by :func:`geomodel.inputs.build.build_inputs` from the
scenario as it stands in that period (installed capacity that has retired removed, the
period's carbon price), then scaled where the period differs: demand per workload,
energy prices, grid carbon and the price of systems, which falls each year. So a
period is the one-year planning model of today, term for term, and the pathway adds
only what links periods: which build comes online when and how long it lives.

The result is an :class:`xarray.DataTree`: the root holds the period table (years,
weights, discount factors) and, per build variable, its lead time, lifetime and the
first year a system may come online; one child per period holds that period's Dataset.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import xarray as xr

from geomodel.catalog import Catalog
from geomodel.inputs.build import build_inputs
from geomodel.inputs.dataset import variable
from geomodel.inputs.pathway_tables import hardware_years, lead_times
from geomodel.inputs.planning import HOURS_PER_YEAR
from geomodel.scenario.build_options import POWER_UNITS, first_applying
from geomodel.scenario.schema import Periods, Scenario

#: build variable of the model -> asset class of its lead time and lifetime
BUILD_CLASSES = {
    "build_systems": "systems",
    "build_envelope_mw": "facility",
    "build_battery_mw": "battery",
    "build_battery_mwh": "battery",
    "build_fibre_pairs": "fibre",
    "open_site": "site",
}
#: build variable -> inputs variable of its most (its dimensions)
BUILD_MOST = {
    "build_systems": "build_max_systems",
    "build_envelope_mw": "build_max_envelope_mw",
    "build_source_mw": "build_max_source_mw",
    "build_battery_mw": "build_max_battery_mw",
    "build_battery_mwh": "build_max_battery_mwh",
    "build_fibre_pairs": "build_max_fibre_pairs",
    "open_site": "site_new",
}
#: an asset with nothing to recover (capex 0) and no lifetime anywhere lives this long
NO_RETIREMENT_YEARS = 1000.0


def period_weights(periods: Periods) -> list[float]:
    """Years each period stands for: given, else the gap to the next period (the last
    period the gap before it; 1 for a single period)."""
    if periods.weights is not None:
        return [float(w) for w in periods.weights]
    years = periods.years
    gaps = [float(b - a) for a, b in itertools.pairwise(years)]
    return [*gaps, gaps[-1] if gaps else 1.0]


def objective_weights(years: list[int], weights: list[float], rate: float) -> np.ndarray:
    """Present value of one USD a year over each period's years, discounted to the first
    period's first year: sum over y in [0, weight) of (1 + r)^-(year - year_0 + y), the
    weighting of PyPSA's multi-investment-period objective (a partial last year counts
    its share)."""
    out = []
    for year, weight in zip(years, weights, strict=True):
        offset = year - years[0]
        whole = int(np.floor(weight))
        total = sum((1.0 + rate) ** -(offset + y) for y in range(whole))
        total += (weight - whole) * (1.0 + rate) ** -(offset + whole)
        out.append(total)
    return np.array(out)


def growth_factors(periods: Periods) -> dict[str, np.ndarray]:
    """Workload -> demand factor of each period (a yearly factor compounds from the first year)."""
    years = np.array(periods.years, dtype=float)
    return {
        name: np.asarray(g, dtype=float) if isinstance(g, list) else float(g) ** (years - years[0])
        for name, g in periods.demand_growth.items()
    }


def period_scenario(scenario: Scenario, position: int) -> Scenario:
    """The scenario as it stands in one period: without the periods section, retired
    installed capacity at 0 (its name kept, so every period has the same dimensions)
    and the period's carbon price."""
    periods = scenario.periods
    year = periods.years[position]
    sites = {}
    for name, site in scenario.sites.items():
        update: dict = {}
        for retirement in periods.retirements:
            if retirement.site != name or retirement.year > year:
                continue
            if retirement.asset == "power_envelope":
                update["power_envelope"] = 0.0
            elif retirement.asset in site.systems:
                update.setdefault("systems", dict(site.systems))[retirement.asset] = 0
            elif retirement.asset in site.power_sources:
                sources = update.setdefault("power_sources", dict(site.power_sources))
                sources[retirement.asset] = sources[retirement.asset].model_copy(
                    update={"capacity": 0.0}
                )
        sites[name] = site.model_copy(update=update) if update else site
    update = {"periods": None, "sites": sites}
    if periods.carbon_price is not None:
        update["objective"] = scenario.objective.model_copy(
            update={"carbon_price": periods.carbon_price[position]}
        )
    copy = scenario.model_copy(update=update)
    copy._origin = scenario.origin
    return copy


def _scale_period(inputs: xr.Dataset, scenario: Scenario, position: int) -> xr.Dataset:
    """The period's demand, energy prices, grid carbon and system prices."""
    periods = scenario.periods
    year = periods.years[position]
    out = inputs.copy()
    growth = {name: float(f[position]) for name, f in growth_factors(periods).items()}
    if "demand_tokens_per_s" in out and growth:
        factor = np.array([growth.get(str(s), 1.0) for s in out["service"].values])
        out["demand_tokens_per_s"] = out["demand_tokens_per_s"] * factor[:, None, None]
    if "member_work_eflop" in out and growth and out.sizes.get("job_member", 0):
        members = [str(m) for m in out["job_member"].values]
        factor = np.array([_member_growth(m, growth) for m in members])
        work = out["member_work_eflop"].values * factor
        classes = out["member_class"].values.astype(int)
        out["member_work_eflop"] = out["member_work_eflop"].copy(data=work)
        out["work_eflop"] = out["work_eflop"].copy(
            data=np.bincount(classes, weights=work, minlength=out.sizes["job"])
        )
    if periods.energy_price_scale is not None:
        scale = periods.energy_price_scale[position]
        for name in ("grid_price_usd_per_mwh", "source_price_usd_per_mwh"):
            if name in out:
                out[name] = out[name] * scale
    if periods.carbon_intensity_scale is not None and "grid_carbon_kg_per_mwh" in out:
        out["grid_carbon_kg_per_mwh"] = (
            out["grid_carbon_kg_per_mwh"] * periods.carbon_intensity_scale[position]
        )
    if "system_capex_usd" in out:
        years = hardware_years(periods)
        rate = scenario.finance.discount_rate
        lifetime = json.loads(out.attrs.get("lifetimes_years_json", "{}")).get("systems", np.inf)
        kept = 1.0 - periods.resale * (1.0 + rate) ** -lifetime  # resale at the end of its life
        price = np.array(
            [
                (1.0 - years[str(h)][1]) ** max(year - years[str(h)][2], 0.0) if str(h) in years else 1.0
                for h in out["system"].values
            ]
        )
        out["system_capex_usd"] = out["system_capex_usd"] * price
        out["system_annuity_usd_per_year"] = out["system_annuity_usd_per_year"] * price * kept
    for name in out.data_vars:  # arithmetic keeps attributes only where xarray is told to
        out[name].attrs = inputs[name].attrs
    out.attrs.update(period_year=year)
    return out


def _member_growth(member: str, growth: dict[str, float]) -> float:
    """Factor of a training job: its workload's (a pool's members are ``name.N``)."""
    for name, factor in growth.items():
        if member == name or member.startswith(f"{name}."):
            return factor
    return 1.0


def _source_classes(scenario: Scenario, catalog: Catalog, inputs: xr.Dataset) -> list[str]:
    """Asset class of each source (its cost entry's class, else its kind)."""
    out = []
    for source in inputs["source"].values if "source" in inputs.coords else []:
        spec = catalog.power_sources.get(str(source))
        entry = first_applying(catalog.build_costs.values(), str(source), POWER_UNITS)
        out.append(entry.asset_class if entry is not None else spec.kind if spec else str(source))
    return out


def _lifetime(scenario: Scenario, catalog: Catalog, asset_class: str) -> float:
    """Lifetime of an asset class: the finance section's, else the first cost entry's."""
    given = scenario.finance.lifetimes.get(asset_class)
    if given is not None:
        return float(given)
    for entry in sorted(catalog.build_costs.values(), key=lambda e: e.name):
        if entry.asset_class == asset_class and entry.lifetime_years:
            return float(entry.lifetime_years)
    return NO_RETIREMENT_YEARS


def _life_and_lead(scenario: Scenario, catalog: Catalog, inputs: xr.Dataset) -> dict[str, xr.Variable]:
    """Per build variable: the lead time and lifetime of each index, years."""
    leads = lead_times(scenario.periods)
    data: dict[str, xr.Variable] = {}
    on_grid = np.array([scenario.sites[str(s)].grid is not None for s in inputs["site"].values])
    for name, most in BUILD_MOST.items():
        if most not in inputs:
            continue
        dims = inputs[most].dims
        shape = inputs[most].shape
        if name == "build_source_mw":
            classes = _source_classes(scenario, catalog, inputs)
            lead = np.broadcast_to([leads.get(c, 0.0) for c in classes], shape).copy()
            life = np.broadcast_to([_lifetime(scenario, catalog, c) for c in classes], shape).copy()
        else:
            asset_class = BUILD_CLASSES[name]
            lead = np.full(shape, leads.get(asset_class, 0.0))
            life = np.full(shape, _lifetime(scenario, catalog, asset_class))
            if name in ("build_envelope_mw", "open_site"):  # a new MW on a grid needs a connection
                lead = np.where(on_grid, np.maximum(lead, leads.get("grid_connection", 0.0)), lead)
        data[f"{name}_lead_years"] = variable(
            dims, lead, "year", f"years from deciding {name} to using it (lead time)"
        )
        data[f"{name}_lifetime_years"] = variable(dims, life, "year", f"years {name} lives once online")
    return data


def build_pathway_inputs(scenario: Scenario, catalog: Catalog) -> xr.DataTree:
    """The pathway's inputs: period table and per-build lead and life at the root, one
    ordinary inputs Dataset per period as children ``period_<year>``."""
    periods = scenario.periods
    if periods is None:
        raise ValueError("the scenario has no periods section")
    children = {}
    for position, year in enumerate(periods.years):
        base = build_inputs(period_scenario(scenario, position), catalog)
        children[f"period_{year}"] = _scale_period(base, scenario, position)
    first = next(iter(children.values()))
    for name, inputs in children.items():
        for dim in ("site", "system", "source", "link", "service", "job"):
            if dim in first.coords and not np.array_equal(first[dim].values, inputs[dim].values):
                raise ValueError(f"{name} has other {dim}s than the first period")
    weights = period_weights(periods)
    rate = scenario.finance.discount_rate
    years_per_period = [
        float(np.sum(d["weight"].values * d["dt_hours"].values)) / HOURS_PER_YEAR
        for d in children.values()
    ]
    systems = [str(h) for h in first["system"].values]
    first_years = hardware_years(periods)
    root = xr.Dataset(
        {
            "period_weight_years": variable("period", weights, "year", "years each period stands for"),
            "objective_weight": variable(
                "period",
                objective_weights(periods.years, weights, rate),
                "year",
                "present value of 1 USD a year over the period's years (discount factor x years)",
            ),
            "horizon_years": variable(
                "period", years_per_period, "year", "share of a year each period's time stands for"
            ),
            "system_first_year": variable(
                "system",
                [first_years.get(h, (-np.inf, 0.0, 0.0))[0] for h in systems],
                "year",
                "first year a system may come online (-inf: any)",
            ),
            **_life_and_lead(scenario, catalog, first),
        },
        coords={"period": list(periods.years), "system": systems, "site": first["site"].values},
        attrs={
            "pathway": 1,
            "foresight": periods.foresight,
            "discount_rate": rate,
            "scenario_name": first.attrs.get("scenario_name", ""),
        },
    )
    for dim in ("source", "link"):
        if dim in first.coords:
            root = root.assign_coords({dim: first[dim].values})
    return xr.DataTree.from_dict({"/": root, **{f"/{k}": v for k, v in children.items()}})


__all__ = [
    "build_pathway_inputs",
    "growth_factors",
    "objective_weights",
    "period_scenario",
    "period_weights",
]
