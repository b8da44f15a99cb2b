"""Headline KPIs of a solved scenario (the names of docs/model.md, "KPIs")."""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.results.jobs import JOB_KPI_SPECS, add_job_kpis
from geomodel.results.planning import planning_kpis
from geomodel.results.relaxation import RELAXATION_KPI_SPECS

#: Source kinds counted as renewable in ``renewable_share``.
RENEWABLE_KINDS = frozenset({"solar", "wind", "hydro", "geothermal", "biomass"})

#: KPI name -> (units, description); the order is the order of KPI tables.
KPI_SPECS: dict[str, tuple[str, str]] = {
    "energy_mwh": ("MWh", "facility energy over the horizon"),
    "cost_usd": (
        "USD",
        "energy cost (price multiplier applied), net: what negative-price hours earned is deducted",
    ),
    "negative_price_earnings_usd": (
        "USD",
        "what energy taken in negative-price hours earned (>= 0; already deducted in cost_usd)",
    ),
    "emissions_tco2": ("tCO2e", "emissions of the energy used, sites and the network moving data"),
    "latency_ms_mean": ("ms", "demand-weighted mean round trip of served demand"),
    "latency_ms_p95": ("ms", "95th percentile round trip of served demand"),
    "unserved_fraction": ("1", "share of inference demand not served"),
    "renewable_share": ("1", "share of energy from on-site or contracted renewable sources"),
    "water_m3": ("m3", "water the sites' cooling used over the horizon (WUE x IT energy)"),
    "capex_usd_per_year": (
        "USD/year",
        "annuity of the capex of what is built (0 without build options)",
    ),
    "fixed_om_usd_per_year": ("USD/year", "fixed O&M of what is built, a year"),
    "opex_usd": ("USD", "energy and carbon cost over the horizon (and battery wear)"),
    "total_cost_usd_per_year": ("USD/year", "capex annuity + fixed O&M + opex scaled to a year"),
    "usd_per_eflop": ("USD/EFLOP", "training's share of the yearly total per EFLOP of training done"),
    "usd_per_mtoken": ("USD/Mtoken", "inference's share of the yearly total per Mtoken served"),
    "installed_capital_usd_per_year": (
        "USD/year",
        "annuity and fixed O&M of the installed systems and facility power (sunk: not in the objective)",
    ),
    "usd_per_eflop_full": (
        "USD/EFLOP",
        "usd_per_eflop with the installed fleet's capital (installed_capital_usd_per_year) added",
    ),
    "usd_per_mtoken_full": (
        "USD/Mtoken",
        "usd_per_mtoken with the installed fleet's capital (installed_capital_usd_per_year) added",
    ),
    "chip_utilisation": (
        "1",
        "working chip-hours over installed (and built) chip-hours: the chips that worked",
    ),
    "achievable_utilisation": (
        "1",
        "the most chip_utilisation can be: the sites' utilisation, weighted by their chips",
    ),
    "objective": ("USD", "weighted objective value"),
    "energy_cost_term_usd": ("USD", "objective term: energy cost"),
    "carbon_cost_term_usd": ("USD", "objective term: carbon price x emissions"),
    "latency_cost_term_usd": ("USD", "objective term: latency weight x served latency"),
    "unserved_cost_term_usd": ("USD", "objective term: unserved-demand penalty"),
    "extension_cost_term_usd": ("USD", "objective term: model extensions"),
    "investment_cost_term_usd": ("USD", "objective term: annuity of what is built, horizon's share"),
    "fixed_om_cost_term_usd": ("USD", "objective term: fixed O&M of what is built, horizon's share"),
    "storage_cost_term_usd": ("USD", "objective term: wear of built batteries"),
    "transfer_cost_term_usd": ("USD", "objective term: transfer price of data moved"),
    "water_cost_term_usd": ("USD", "objective term: price of the water the sites used"),
    **JOB_KPI_SPECS,
    "solver_status": ("", "optimal, time_limit, infeasible, unbounded or error"),
    "mip_gap": ("1", "relative MIP gap of the reported solution (0 for LP)"),
    **RELAXATION_KPI_SPECS,
    "build_seconds": ("s", "model build time"),
    "solve_seconds": ("s", "hand-over and HiGHS solve time"),
}


#: KPIs that only mean something when the scenario may build (zero or an operational
#: horizon's cost stretched to a year otherwise); text tables leave them out then.
PLANNING_ONLY_KPIS = frozenset(
    {
        "capex_usd_per_year",
        "fixed_om_usd_per_year",
        "opex_usd",
        "total_cost_usd_per_year",
        "investment_cost_term_usd",
        "fixed_om_cost_term_usd",
        "storage_cost_term_usd",
    }
)


def weighted_quantile(values: np.ndarray, weights: np.ndarray, quantile: float) -> float:
    """The ``quantile`` of ``values`` where each value counts ``weights`` times (NaN if none)."""
    mask = weights > 0
    if not mask.any():
        return float("nan")
    order = np.argsort(values[mask])
    sorted_values = values[mask][order]
    cumulative = np.cumsum(weights[mask][order])
    position = np.searchsorted(cumulative, quantile * cumulative[-1], side="left")
    return float(sorted_values[min(position, len(sorted_values) - 1)])


def negative_price_earnings_usd(
    results: xr.Dataset, inputs: xr.Dataset, weight_hours: np.ndarray
) -> float:
    """Money earned by energy taken at negative prices: sum over steps of weighted hours x
    power taken x -price where the price (x the objective's multiplier) is below zero, for
    grid imports and generators alike."""
    multiplier = float(inputs.attrs.get("energy_price_multiplier", 1.0))
    grid_price = inputs["grid_price_usd_per_mwh"].values * multiplier
    earned = (results["grid_import_mw"].values * np.maximum(-grid_price, 0.0)).sum(axis=0)
    if results["generation_mw"].sizes.get("source", 0):
        source_price = inputs["source_price_usd_per_mwh"].values * multiplier
        generation = results["generation_mw"].values
        earned = earned + (generation * np.maximum(-source_price, 0.0)).sum(axis=(0, 1))
    return float((earned * weight_hours).sum())


def utilisation_kpis(results: xr.Dataset, inputs: xr.Dataset, weight_hours: np.ndarray) -> dict:
    """Share of the fleet's chip-hours that worked, beside the most that can (NaN: no chips).

    Chips are installed plus built; a training job's chips count the hours its window
    covers of each step (``job_weight x dt_hours``), serving's the step's weighted hours.
    """
    chips = inputs["chips_installed"].values.astype(float)
    if "built_chips" in results:
        chips = chips + results["built_chips"].values
    fleet = float(chips.sum())
    if fleet <= 0:
        return {"chip_utilisation": float("nan"), "achievable_utilisation": float("nan")}
    job_hours = inputs["job_weight"] * inputs["dt_hours"]
    worked = float((results["training_chips"] * job_hours).sum()) + float(
        (results["inference_chips"] * xr.DataArray(weight_hours, dims="time")).sum()
    )
    achievable = float((chips.sum(axis=1) * inputs["availability"].values).sum()) / fleet
    return {
        "chip_utilisation": worked / (fleet * float(np.sum(weight_hours))),
        "achievable_utilisation": achievable,
    }


def compute_kpis(results: xr.Dataset, inputs: xr.Dataset, weight_hours: np.ndarray) -> dict:
    """Energy, cost, emissions, latency and service KPIs from a results Dataset."""
    weights = xr.DataArray(weight_hours, dims="time")
    energy = float(results["energy_mwh"].sum())
    kpis: dict = {
        "energy_mwh": energy,
        "cost_usd": float(results["energy_cost_usd"].sum()),
        "negative_price_earnings_usd": negative_price_earnings_usd(results, inputs, weight_hours),
        "emissions_tco2": float(results["emissions_tco2"].sum()),
        "water_m3": float(results["water_m3"].sum()),
    }
    served = results["served_tokens_per_s"] * weights  # token-hours/s, proportional to tokens
    if "latency_ms" in results and served.size:
        latency = results["latency_ms"].broadcast_like(served)
        total = float(served.sum())
        kpis["latency_ms_mean"] = float((served * latency).sum() / total) if total > 0 else float("nan")
        kpis["latency_ms_p95"] = weighted_quantile(latency.values.ravel(), served.values.ravel(), 0.95)
        demand = float((inputs["demand_tokens_per_s"] * weights).sum())
        unserved = float((results["unserved_tokens_per_s"] * weights).sum())
        kpis["unserved_fraction"] = unserved / demand if demand > 0 else 0.0
    else:
        kpis.update(latency_ms_mean=float("nan"), latency_ms_p95=float("nan"), unserved_fraction=0.0)
    generation = results["generation_mw"]
    if generation.sizes.get("source", 0):
        renewable = generation.where(generation["source_kind"].isin(list(RENEWABLE_KINDS)), 0.0)
        supplied = float(((results["grid_import_mw"] + generation.sum("source")) * weights).sum())
        share = float((renewable * weights).sum()) / supplied if supplied > 0 else 0.0
        kpis["renewable_share"] = share
    else:
        kpis["renewable_share"] = 0.0
    kpis.update(planning_kpis(results, inputs, weight_hours))
    kpis.update(utilisation_kpis(results, inputs, weight_hours))
    add_job_kpis(kpis, results)
    return kpis
