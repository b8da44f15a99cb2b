"""Energy, emissions and cost by what used them: each job and service, idle chips, DCI.

The rows add up to the KPIs. At each site and step the facility energy
(``energy_mwh``) is split into

* each job's and service's **working chips** at their training or serving power x PUE over the
  hours they run (a job only in the hours of its window);
* **idle chips**: PUE x the rest of the IT power (``it_power_mw``), i.e. installed
  (or switched-on) chips not working, at idle power;
* **DCI**: facility power beyond PUE x IT power, the transceivers of the links;

and each part is priced at the step's average cost and carbon per MWh at that
site (``energy_cost_usd`` / ``energy_mwh``), so a battery's cheaper or dearer
energy is shared by whoever used power in that hour. Energy bought in a step
where the site used none (a battery charging at an empty site) has no user and
stays **unattributed**. Data that jobs moved away from their origin adds the
network's emissions (in ``emissions_tco2``) in a row of its own, with no MWh (the
network's energy is not the sites', ``transfer_energy_mwh``) and no energy cost (its
transfer price is ``transfer_cost_usd``). Every part is read from Dataset variables,
so the rows stay true when the power model changes (e.g. idle chips switched off).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.inputs.dataset import variable

#: the breakdown's columns: Dataset variable suffix -> (units, shown name)
MEASURES = {
    "energy_mwh": ("MWh", "energy (MWh)"),
    "emissions_tco2": ("tCO2e", "emissions (tCO2e)"),
    "cost_usd": ("USD", "energy cost (USD)"),
}


def _working_mwh(results: xr.Dataset, inputs: xr.Dataset, weight_hours: np.ndarray) -> dict:
    """(kind) -> (kind, site, time) facility MWh of the working chips of each job/service."""
    chip_mw = {
        kind: inputs[f"{load}_power_kw_per_chip"] / 1000.0 * inputs["pue"]
        for kind, load in (("job", "training"), ("service", "serving"))
    }
    running_hours = {
        "job": inputs["job_weight"] * inputs["dt_hours"],
        "service": xr.DataArray(weight_hours, dims="time"),
    }
    chips = {"job": results["training_chips"], "service": results["inference_chips"]}
    return {kind: (chips[kind] * chip_mw[kind]).sum("system") * running_hours[kind] for kind in chips}


def add_energy_breakdown(results: xr.Dataset, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """Add ``{job,service}_{energy_mwh,emissions_tco2,cost_usd}``, ``idle_*`` and ``dci_*``
    by site, and ``unattributed_{emissions_tco2,cost_usd}`` by site, to ``results``."""
    hours = xr.DataArray(weight_hours, dims="time")
    energy = results["energy_mwh"]
    used = energy.where(energy > 0)
    price = (results["energy_cost_usd"] / used).fillna(0.0)
    carbon = (results["emissions_tco2"] / used).fillna(0.0)
    working = _working_mwh(results, inputs, weight_hours)
    for kind, mwh in working.items():
        described = f"each {kind}'s working chips at their load power x PUE over the hours it runs"
        for suffix, per_mwh, what in (
            ("energy_mwh", 1.0, "energy of"),
            ("emissions_tco2", carbon, "emissions, at its sites' average carbon per MWh, of"),
            ("cost_usd", price, "energy cost, at its sites' average price, of"),
        ):
            results[f"{kind}_{suffix}"] = variable(
                kind,
                (mwh * per_mwh).sum(("site", "time")).values,
                MEASURES[suffix][0],
                f"{what} {described}",
            )
    all_working = sum(mwh.sum(mwh.dims[0]) for mwh in working.values())
    it_mwh = results["it_power_mw"] * inputs["pue"] * hours
    parts = {
        "idle": (
            it_mwh - all_working,
            "installed (or switched-on) chips not working, at idle power x PUE",
        ),
        "dci": (energy - it_mwh, "the DCI links' transceivers (facility power beyond PUE x IT)"),
    }
    for part, (mwh, what) in parts.items():
        for suffix, per_mwh in (("energy_mwh", 1.0), ("emissions_tco2", carbon), ("cost_usd", price)):
            results[f"{part}_{suffix}"] = variable(
                "site",
                (mwh * per_mwh).sum("time").values,
                MEASURES[suffix][0],
                f"{MEASURES[suffix][1].split(' (')[0]} of {what}, by site",
            )
    idle_steps = energy <= 0
    for suffix, total in (("emissions_tco2", "emissions_tco2"), ("cost_usd", "energy_cost_usd")):
        results[f"unattributed_{suffix}"] = variable(
            "site",
            results[total].where(idle_steps, 0.0).sum("time").values,
            MEASURES[suffix][0],
            f"{MEASURES[suffix][1].split(' (')[0]} of energy bought in steps where the site "
            "used none (e.g. a battery charging at an empty site), by site",
        )


def breakdown_table(results: xr.Dataset) -> pd.DataFrame:
    """One row per job, service, idle chips and DCI (and data moved and unattributed supply
    if any), with energy (MWh), emissions (tCO2e) and energy cost (USD); the columns sum to
    the KPIs."""
    rows = []
    for kind, shown in (("job", "training job"), ("service", "inference service")):
        if not results.sizes.get(kind) or f"{kind}_energy_mwh" not in results:
            continue
        for name in results[kind].values:
            pick = {kind: name}
            rows.append(
                {
                    "kind": shown,
                    "name": str(name),
                    **{s: float(results[f"{kind}_{s}"].sel(pick)) for s in MEASURES},
                }
            )
    for part, shown, name in (
        ("idle", "overhead", "idle chips"),
        ("dci", "overhead", "DCI links"),
    ):
        if f"{part}_energy_mwh" in results:
            rows.append(
                {
                    "kind": shown,
                    "name": name,
                    **{s: float(results[f"{part}_{s}"].sum()) for s in MEASURES},
                }
            )
    moved = (
        float(results["job_transfer_emissions_tco2"].sum())
        if "job_transfer_emissions_tco2" in results
        else 0.0
    )
    if moved > 0:  # the network's energy is not the sites' energy: no MWh, no energy cost
        rows.append(
            {
                "kind": "overhead",
                "name": "data moved (network)",
                "energy_mwh": np.nan,
                "emissions_tco2": moved,
                "cost_usd": 0.0,
            }
        )
    if "unattributed_cost_usd" in results:
        extra = {s: float(results[f"unattributed_{s}"].sum()) for s in ("emissions_tco2", "cost_usd")}
        if any(abs(v) > 0 for v in extra.values()):
            rows.append({"kind": "overhead", "name": "supply with no load", "energy_mwh": 0.0, **extra})
    return pd.DataFrame(rows, columns=["kind", "name", *MEASURES])
