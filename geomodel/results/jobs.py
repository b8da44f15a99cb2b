"""Results of training jobs split back from their classes, data moved, idle power, earnings.

The model sees one job per class (geomodel.inputs.job_classes); here every
training job gets its own share back: its work at each site, the data it moved
and what that cost, and its energy, cost and emissions. A class's members split
its plan as the aggregation allows (docs/model.md, "Job classes"): each member of
a proportional class takes its share of the work at every site; a member of a
freely split class takes its own work away from its data (``away``) and the rest
at its origin. :func:`member_schedule` gives one job's chips step by step.

The fleet side: chips powered on, and the idle power and energy of chips that are
on but not working.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.inputs.dataset import variable

#: KPIs this module adds: name -> (units, description)
JOB_KPI_SPECS: dict[str, tuple[str, str]] = {
    "idle_energy_mwh": ("MWh", "facility energy of chips powered on but not working"),
    "idle_energy_share": ("1", "idle_energy_mwh / energy_mwh"),
    "transfer_gb": ("GB", "data moved to run jobs away from their origin"),
    "transfer_cost_usd": ("USD", "transfer price of the data moved"),
    "transfer_energy_mwh": ("MWh", "network energy of the data moved"),
    "transfer_emissions_tco2": ("tCO2e", "emissions of that energy (included in emissions_tco2)"),
}


def add_job_results(model, results: xr.Dataset) -> None:
    """Per-class moved data, per-job shares, powered-on and idle chips, into ``results``."""
    inputs: xr.Dataset = model.inputs
    moved = _moved_gb(model, inputs)
    n_jobs = inputs.sizes.get("job", 0)
    origin = inputs["job_origin"].values if "job_origin" in inputs else np.full(n_jobs, -1)
    price = _pair_values(inputs, "transfer_usd_per_gb", origin)
    energy = _pair_values(inputs, "transfer_kwh_per_gb", origin) / 1000.0
    carbon = _pair_values(inputs, "transfer_kg_per_gb", origin) / 1000.0
    results["job_moved_gb"] = variable(
        ("job", "site"), moved, "GB", "data each job (class) moved to each site from its origin"
    )
    results["job_transfer_cost_usd"] = variable(
        "job", (moved * price).sum(axis=1), "USD", "transfer price of the data each job moved"
    )
    results["job_transfer_energy_mwh"] = variable(
        "job", (moved * energy).sum(axis=1), "MWh", "network energy of the data each job moved"
    )
    results["job_transfer_emissions_tco2"] = variable(
        "job",
        (moved * carbon).sum(axis=1),
        "tCO2e",
        "emissions of the network energy of each job's data",
    )
    if "member_class" in inputs:
        _member_results(model, inputs, results, price, energy, carbon)
    _idle_results(model, inputs, results)


def _pair_values(inputs: xr.Dataset, name: str, origin: np.ndarray) -> np.ndarray:
    """(job, site) per-GB figure from each job's origin to each site (0 without an origin)."""
    n_sites = inputs.sizes.get("site", 0)
    if name not in inputs:
        return np.zeros((len(origin), n_sites))
    table = inputs[name].values
    rows = table[np.maximum(origin, 0)] if len(origin) else np.zeros((0, n_sites))
    return np.where(origin[:, None] >= 0, rows, 0.0)


def _moved_gb(model, inputs: xr.Dataset) -> np.ndarray:
    moved = np.zeros((inputs.sizes.get("job", 0), inputs.sizes.get("site", 0)))
    for (j, s), terms in getattr(model, "moved_gb", {}).items():
        moved[j, s] = sum(gb * (var.value or 0.0) for gb, var in terms)
    return moved


def _work_at_sites(results: xr.Dataset, inputs: xr.Dataset) -> xr.DataArray:
    """Useful EFLOP of each class at each site (MFU and goodput applied)."""
    rate = inputs["job_pflops_per_chip"] * inputs["goodput"] * inputs["mfu"] * 3.6
    hours = inputs["job_weight"] * inputs["dt_hours"]
    return (results["training_chips"] * rate * hours).sum(("system", "time"))


def _member_results(model, inputs, results, price, energy, carbon) -> None:
    """Each job's share of its class: work, moved data and its cost, energy, cost, emissions."""
    member_class = inputs["member_class"].values
    work = inputs["member_work_eflop"].values
    data = inputs["member_data_gb"].values
    class_work = inputs["work_eflop"].values
    at_site = _work_at_sites(results, inputs).values  # (class, site)
    origin = inputs["job_origin"].values[member_class]
    share = work / np.where(class_work[member_class] > 0, class_work[member_class], 1.0)
    member_at = at_site[member_class] * share[:, None]  # a proportional split
    away = getattr(model, "away", {})
    split = sorted({k for k, _ in away})  # members of freely split classes: their own away work
    member_at[split] = 0.0
    for (k, s), var in away.items():
        member_at[k, s] = var.value or 0.0
    for k in split:
        member_at[k, origin[k]] = work[k] - member_at[k].sum()
    n_sites = member_at.shape[1]
    elsewhere = (origin[:, None] >= 0) & (np.arange(n_sites)[None, :] != origin[:, None])
    per_work = data / np.where(work > 0, work, np.inf)
    moved = np.where(elsewhere, per_work[:, None] * member_at, 0.0)
    fraction = member_at / np.where(at_site[member_class] > 0, at_site[member_class], np.inf)
    per_site = {name: _class_site_totals(results, inputs, name) for name in ("mwh", "usd", "tco2")}
    figures = {
        "member_moved_gb": (
            moved.sum(axis=1),
            "GB",
            "data each training job moved away from its origin",
        ),
        "member_transfer_cost_usd": (
            (moved * price[member_class]).sum(axis=1),
            "USD",
            "transfer price of the data each training job moved",
        ),
        "member_transfer_energy_mwh": (
            (moved * energy[member_class]).sum(axis=1),
            "MWh",
            "network energy of the data each training job moved",
        ),
        "member_transfer_emissions_tco2": (
            (moved * carbon[member_class]).sum(axis=1),
            "tCO2e",
            "emissions of the network energy of each training job's data",
        ),
        "member_energy_mwh": (
            (fraction * per_site["mwh"][member_class]).sum(axis=1),
            "MWh",
            "energy of each training job's working chips (x PUE), its share of its class's",
        ),
        "member_cost_usd": (
            (fraction * per_site["usd"][member_class]).sum(axis=1),
            "USD",
            "energy cost of each training job at its sites' average price",
        ),
        "member_emissions_tco2": (
            (fraction * per_site["tco2"][member_class]).sum(axis=1),
            "tCO2e",
            "emissions of each training job's energy at its sites' average carbon intensity",
        ),
    }
    results["member_work_eflop"] = variable(
        ("job_member", "site"), member_at, "EFLOP", "useful work each training job did at each site"
    )
    for name, (values, units, description) in figures.items():
        results[name] = variable("job_member", values, units, description)


def _class_site_totals(results: xr.Dataset, inputs: xr.Dataset, what: str) -> np.ndarray:
    """(class, site) energy, cost or emissions of each class's working chips (as job_energy_mwh)."""
    chip_mw = inputs["training_power_kw_per_chip"] / 1000.0 * inputs["pue"]
    hours = inputs["job_weight"] * inputs["dt_hours"]
    mwh = (results["training_chips"] * chip_mw).sum("system") * hours  # (job, site, time)
    if what == "mwh":
        return mwh.sum("time").values
    energy = results["energy_mwh"].where(results["energy_mwh"] > 0)
    rate = results["energy_cost_usd" if what == "usd" else "emissions_tco2"] / energy
    return (mwh * rate.fillna(0.0)).sum("time").values


def _idle_results(model, inputs: xr.Dataset, results: xr.Dataset) -> None:
    """Chips powered on, and the power and energy of those on but not working."""
    # the model's modules and Pyomo only here, at extraction: reading a result (the app,
    # `report`) must not import them (Pyomo's import hooks then pull in scipy.stats, 0.5 s)
    import pyomo.environ as pyo

    from geomodel.model.power import shed_idle_power

    installed = inputs["chips_installed"].values.astype(float)
    n_sites, n_systems = installed.shape
    n_time = inputs.sizes["time"]
    integer = model.integer
    capacity = getattr(model, "capacity", None)
    if capacity is not None:  # planning: built chips draw idle power as installed ones do
        installed = np.array(
            [[capacity.chips(s, h).expression() for h in range(n_systems)] for s in range(n_sites)],
            dtype=object,
        )
        installed = np.vectorize(lambda e: float(pyo.value(e)))(installed).astype(float)
    powered = np.broadcast_to(installed[:, :, None], (n_sites, n_systems, n_time)).copy()
    if integer.systems_on_off:
        powered[:] = 0.0
        per_system = inputs["chips_per_system"].values
        for (s, h, t), var in model.systems_on.items():
            powered[s, h, t] = (var.value or 0.0) * per_system[h]
    elif shed_idle_power(inputs, integer):
        powered[:] = 0.0
        for (s, h, t), var in model.chips_on.items():
            powered[s, h, t] = var.value or 0.0
    working = np.zeros_like(powered)
    for (s, h, t), chips in model.active_chips.items():
        working[s, h, t] = sum((var.value or 0.0) * share for var, share, _ in chips)
    idle_kw = inputs["idle_power_kw_per_chip"].values
    idle_mw = (np.maximum(powered - working, 0.0) * idle_kw[None, :, None]).sum(axis=1) / 1000.0
    facility_idle = (
        idle_mw * inputs["pue"].broadcast_like(inputs["dt_hours"]).transpose("site", "time").values
    )
    results["chips_powered_on"] = variable(
        ("site", "system", "time"),
        powered,
        "chips",
        "chips powered on (all installed unless solver.shed_idle_power or systems_on_off)",
    )
    results["idle_power_mw"] = variable(
        ("site", "time"),
        facility_idle,
        "MW",
        "facility power of chips powered on but not working (x PUE)",
    )


def add_job_kpis(kpis: dict, results: xr.Dataset) -> None:
    """Idle energy and data moved; transfer emissions join emissions_tco2."""
    energy = float(results["energy_mwh"].sum())
    idle = float(results["idle_energy_mwh"].sum())
    transfer_emissions = float(results["job_transfer_emissions_tco2"].sum())
    kpis.update(
        idle_energy_mwh=idle,
        idle_energy_share=idle / energy if energy > 0 else 0.0,
        transfer_gb=float(results["job_moved_gb"].sum()),
        transfer_cost_usd=float(results["job_transfer_cost_usd"].sum()),
        transfer_energy_mwh=float(results["job_transfer_energy_mwh"].sum()),
        transfer_emissions_tco2=transfer_emissions,
    )
    kpis["emissions_tco2"] = kpis.get("emissions_tco2", 0.0) + transfer_emissions


def member_schedule(results: xr.Dataset, inputs: xr.Dataset, name: str) -> xr.DataArray:
    """Chips one training job runs on, by site, system and step: its class's chips at each
    site in the share of the class's work there that is the job's."""
    k = list(inputs["job_member"].values).index(name)
    j = int(inputs["member_class"].values[k])
    at_site = _work_at_sites(results, inputs).isel(job=j)
    mine = results["member_work_eflop"].isel(job_member=k)
    fraction = (mine / at_site.where(at_site > 0)).fillna(0.0)
    chips = results["training_chips"].isel(job=j) * fraction
    chips.attrs = {"units": "chips", "description": f"chips running training job {name!r}"}
    return chips.rename(name)
