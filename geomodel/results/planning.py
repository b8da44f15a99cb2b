"""Planning results: what was built where, what it costs, and the levelised cost of compute.

:func:`add_planning_results` adds the build decisions (by site, system, source and link,
with units) and the batteries' hourly operation to the results Dataset, and corrects
the few operational variables whose capacity grew (curtailment, link utilisation).
:func:`planning_kpis` gives the cost KPIs of every run, planning or not; :func:`build_rows`
the build table of ``geomodel report``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr

from geomodel.inputs.dataset import is_planning, variable

#: asset classes of the build table and the cost breakdown, in report order
ASSET_CLASSES = ("site", "facility", "systems", "battery", "dci")

#: results variable -> (dims, units, description, inputs prefix of its unit costs, class)
BUILT: dict[str, tuple[tuple[str, ...], str, str, str, str]] = {
    "built_systems": (("site", "system"), "systems", "systems built", "system", "systems"),
    "built_envelope_mw": (("site",), "MW", "facility power added", "envelope", "facility"),
    "built_source_mw": (("site", "source"), "MW", "source capacity built", "source", ""),
    "built_battery_mw": (("site",), "MW", "battery power built", "battery_mw", "battery"),
    "built_battery_mwh": (("site",), "MWh", "battery energy built", "battery_mwh", "battery"),
    "built_fibre_pairs": (("link",), "pairs", "fibre pairs lit on the link", "link_pair", "dci"),
    "site_opened": (("site",), "1", "new site opened (1) or not (0)", "site_open", "site"),
}
#: model variable of each results variable
MODEL_NAMES = {
    "built_systems": "build_systems",
    "built_envelope_mw": "build_envelope_mw",
    "built_source_mw": "build_source_mw",
    "built_battery_mw": "build_battery_mw",
    "built_battery_mwh": "build_battery_mwh",
    "built_fibre_pairs": "build_fibre_pairs",
    "site_opened": "open_site",
}
#: unit-cost variables of the inputs: prefix -> (capex, annuity, fixed O&M)
UNIT_COSTS: dict[str, tuple[str, str, str]] = {
    "system": ("system_capex_usd", "system_annuity_usd_per_year", "system_fixed_om_usd_per_year"),
    "envelope": (
        "envelope_capex_usd_per_mw",
        "envelope_annuity_usd_per_mw_year",
        "envelope_fixed_om_usd_per_mw_year",
    ),
    "source": (
        "source_capex_usd_per_mw",
        "source_annuity_usd_per_mw_year",
        "source_fixed_om_usd_per_mw_year",
    ),
    "battery_mw": (
        "battery_capex_usd_per_mw",
        "battery_annuity_usd_per_mw_year",
        "battery_fixed_om_usd_per_mw_year",
    ),
    "battery_mwh": (
        "battery_capex_usd_per_mwh",
        "battery_annuity_usd_per_mwh_year",
        "battery_fixed_om_usd_per_mwh_year",
    ),
    "link_pair": (
        "link_pair_capex_usd",
        "link_pair_annuity_usd_per_year",
        "link_pair_fixed_om_usd_per_year",
    ),
    "site_open": (
        "site_open_capex_usd",
        "site_open_annuity_usd_per_year",
        "site_open_fixed_om_usd_per_year",
    ),
}
#: what a one-dimensional decision builds, for the build table
SHORT_NAMES = {
    "built_envelope_mw": "facility power",
    "built_battery_mw": "battery power",
    "built_battery_mwh": "battery energy",
    "built_fibre_pairs": "fibre pairs",
    "site_opened": "site opened",
}
STORAGE = {
    "storage_charge_mw": ("MW", "battery charging (built batteries)"),
    "storage_discharge_mw": ("MW", "battery discharging (built batteries)"),
    "storage_soc_mwh": ("MWh", "battery state of charge at the end of each step (built batteries)"),
}


def add_planning_results(model: Any, results: xr.Dataset) -> None:
    """Build decisions, batteries and their costs; nothing for an operational model."""
    inputs: xr.Dataset = model.inputs
    if not is_planning(inputs):
        return
    for name, (dims, units, description, _, _) in BUILT.items():
        shape = tuple(inputs.sizes[d] for d in dims)
        values = np.zeros(shape)
        if name == "site_opened":
            values[:] = 1.0  # a site that is not new is open
        for index, var in getattr(model, MODEL_NAMES[name]).items():
            values[index] = var.value or 0.0
        results[name] = variable(dims, values, units, description)
    results["built_chips"] = variable(
        ("site", "system"),
        results["built_systems"].values * inputs["chips_per_system"].values[None, :],
        "chips",
        "chips built",
    )
    shape = (inputs.sizes["site"], inputs.sizes["time"])
    for name, (units, description) in STORAGE.items():
        values = np.zeros(shape)
        for (s, t), var in getattr(model, name, {}).items():
            values[s, t] = var.value or 0.0
        results[name] = variable(("site", "time"), values, units, description)
    storage_supply = results["storage_discharge_mw"].values - results["storage_charge_mw"].values
    results["extension_supply_mw"].values -= storage_supply  # the batteries are core, not extensions
    _with_built_capacity(results, inputs)
    rows = build_decisions(results, inputs)
    classes = _classes(inputs)
    for name, units, field, what in (
        ("build_capex_usd", "USD", "capex_usd", "overnight capital cost"),
        ("build_annuity_usd_per_year", "USD/year", "annuity_usd_per_year", "yearly annuity"),
        ("build_fixed_om_usd_per_year", "USD/year", "fixed_om_usd_per_year", "fixed O&M a year"),
    ):
        totals = [sum(getattr(row, field) for row in rows if row.asset == asset) for asset in classes]
        results[name] = variable(
            "asset_class", totals, units, f"{what} of what is built, by asset class"
        )
    results.coords["asset_class"] = ("asset_class", np.array(classes, dtype=str))


def _classes(inputs: xr.Dataset) -> list[str]:
    """Asset classes of the cost breakdown: the core ones and those of buildable sources."""
    kinds = sorted(
        {
            source_asset_class(inputs, s, k)
            for s, k in zip(*np.nonzero(inputs["build_max_source_mw"].values > 0), strict=True)
        }
    )
    return [*ASSET_CLASSES[:3], *kinds, *ASSET_CLASSES[3:]]


def source_asset_class(inputs: xr.Dataset, site: int, source: int) -> str:
    """The finance class a source built at a site is priced under (its cost entry's, which
    ``finance.lifetimes`` sets); a result written before inputs carried it: the kind."""
    if "build_source_asset_class" in inputs:
        return str(inputs["build_source_asset_class"].values[site, source])
    return str(inputs["source_kind"].values[source])


def _with_built_capacity(results: xr.Dataset, inputs: xr.Dataset) -> None:
    """Curtailment and link utilisation against installed plus built capacity."""
    if inputs.sizes.get("source", 0):
        capacity = inputs["source_capacity_mw"].values + results["built_source_mw"].values
        available = capacity[:, :, None] * inputs["source_capacity_factor"].values
        results["curtailment_mw"].values[:] = np.maximum(available - results["generation_mw"].values, 0)
    if inputs.sizes.get("link", 0):
        pairs = results["built_fibre_pairs"].values * inputs["link_capacity_gbit_s_per_pair"].values
        capacity = inputs["link_capacity_gbit_s"].values + pairs
        traffic = results["link_traffic_gbit_s"].values
        results["link_utilisation"].values[:] = traffic / np.where(capacity > 0, capacity, 1.0)[:, None]


@dataclass(frozen=True)
class BuildRow:
    """One build decision: what, where, how much, and what it costs."""

    asset: str  #: asset class (systems, facility, site, solar, wind, battery, dci, ...)
    what: str  #: system or source name, or what is built (facility power, battery energy)
    where: str  #: site, or link
    amount: float
    units: str
    capex_usd: float
    annuity_usd_per_year: float
    fixed_om_usd_per_year: float

    @property
    def annual_cost_usd_per_year(self) -> float:
        return self.annuity_usd_per_year + self.fixed_om_usd_per_year


def build_decisions(results: xr.Dataset, inputs: xr.Dataset) -> list[BuildRow]:
    """Every non-zero build decision with its costs (empty for an operational result)."""
    if not is_planning(inputs):
        return []
    rows = []
    for name, (dims, units, _, prefix, asset) in BUILT.items():
        if name not in results:
            continue
        built = results[name].values
        capex, annuity, fixed = (inputs[v].values for v in UNIT_COSTS[prefix])
        for index in zip(*np.nonzero(built > 0), strict=True):
            if name == "site_opened" and not inputs["site_new"].values[index]:
                continue
            amount = float(built[index])
            labels = [str(inputs[d].values[i]) for d, i in zip(dims, index, strict=True)]
            kind = source_asset_class(inputs, *index) if name == "built_source_mw" else asset
            rows.append(
                BuildRow(
                    asset=kind,
                    what=labels[1] if len(labels) > 1 else SHORT_NAMES[name],
                    where=labels[0],
                    amount=amount,
                    units=units,
                    capex_usd=amount * float(capex[index]),
                    annuity_usd_per_year=amount * float(annuity[index]),
                    fixed_om_usd_per_year=amount * float(fixed[index]),
                )
            )
    return rows


def build_rows(results: xr.Dataset, inputs: xr.Dataset) -> list[dict[str, Any]]:
    """The build table of ``geomodel report``: one dict per decision."""
    return [
        {
            "asset": row.asset,
            "what": row.what,
            "where": row.where,
            "amount": row.amount,
            "units": row.units,
            "capex_usd": row.capex_usd,
            "annual_cost_usd_per_year": row.annual_cost_usd_per_year,
        }
        for row in build_decisions(results, inputs)
    ]


def planning_kpis(results: xr.Dataset, inputs: xr.Dataset, weight_hours: np.ndarray) -> dict[str, float]:
    """Capex and fixed O&M a year, opex, total cost a year, and levelised cost of compute.

    ``opex_usd`` is the horizon's energy and carbon cost (and battery wear); a year's
    total adds it scaled to a year to the build's annuities and fixed O&M. The total is
    shared between training and inference by their working chip-hours: ``usd_per_eflop``
    divides training's share by the EFLOP done in a year, ``usd_per_mtoken`` inference's
    by the Mtoken served in a year. Installed capacity's own capital cost is sunk for the
    decision and not counted there; ``installed_capital_usd_per_year`` is its annuity and
    fixed O&M (geomodel.inputs.fleet_costs), and the ``_full`` unit costs share the total
    with it added the same way.
    """
    years = float(np.sum(weight_hours)) / 8760.0
    rows = build_decisions(results, inputs)
    capex = sum(row.annuity_usd_per_year for row in rows)
    fixed = sum(row.fixed_om_usd_per_year for row in rows)
    carbon_price = float(inputs.attrs.get("carbon_price_usd_per_tco2", 0.0))
    opex = float(results["energy_cost_usd"].sum()) + carbon_price * float(
        results["emissions_tco2"].sum()
    )
    if "storage_discharge_mw" in results:
        wear = inputs["battery_cycle_cost_usd_per_mwh"].values[:, None]
        opex += float((results["storage_discharge_mw"].values * wear * weight_hours[None, :]).sum())
    total = capex + fixed + (opex / years if years > 0 else 0.0)
    job_hours = inputs["job_weight"] * inputs["dt_hours"]
    training_chip_hours = float((results["training_chips"] * job_hours).sum())
    serving_chip_hours = float(
        (results["inference_chips"] * xr.DataArray(weight_hours, dims="time")).sum()
    )
    working = training_chip_hours + serving_chip_hours
    eflop_per_year = float(results["job_work_eflop"].sum()) / years if years > 0 else 0.0
    served = results["served_tokens_per_s"] * xr.DataArray(weight_hours, dims="time") * 3600.0
    mtoken_per_year = float(served.sum()) / 1e6 / years if years > 0 else 0.0
    installed = installed_capital_usd_per_year(inputs)
    full = total + installed
    return {
        "capex_usd_per_year": capex,
        "fixed_om_usd_per_year": fixed,
        "opex_usd": opex,
        "total_cost_usd_per_year": total,
        "installed_capital_usd_per_year": installed,
        "usd_per_eflop": _share(total, training_chip_hours, working, eflop_per_year),
        "usd_per_mtoken": _share(total, serving_chip_hours, working, mtoken_per_year),
        "usd_per_eflop_full": _share(full, training_chip_hours, working, eflop_per_year),
        "usd_per_mtoken_full": _share(full, serving_chip_hours, working, mtoken_per_year),
    }


def installed_capital_usd_per_year(inputs: xr.Dataset) -> float:
    """Annuity and fixed O&M of the installed systems and facility power (0 when the
    inputs predate them)."""
    return sum(
        float(inputs[name].sum())
        for name in ("installed_systems_usd_per_year", "installed_facility_usd_per_year")
        if name in inputs
    )


def _share(total: float, part: float, whole: float, output: float) -> float:
    """``total x part / whole / output``; NaN when nothing was produced."""
    if whole <= 0 or output <= 0:
        return math.nan
    return total * part / whole / output
