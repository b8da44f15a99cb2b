"""Where each job and service ran: its share of work or demand by site, with chips and MWh.

Read from the results Dataset and the inputs it was solved from, so a saved result
gives the same summary as the run that wrote it:

* a training job's **work** at a site is its chips there x EFLOP per chip-hour (peak
  at the job's precision x MFU x goodput) x the hours each step counts for the job;
  its share is of the work it did in all;
* an inference service's **served demand** at a site is the tokens served there; its
  share is of the service's whole demand, so the shares and the ``unserved`` row add
  up to 1;
* **energy** is the working chips' power x PUE over those hours, as the results'
  ``job_energy_mwh`` and ``service_energy_mwh`` count it (idle chips and DCI are the
  site's, not a workload's), so a workload's rows add up to those totals;
* **peak chips** is the most chips working in any step, **chip-hours** their sum
  over the hours the steps stand for.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.model.basics import EFLOP_PER_PFLOPS_HOUR, SECONDS_PER_HOUR, TOKENS_PER_MTOKEN

#: Column -> units of :func:`placement_table`.
PLACEMENT_UNITS: dict[str, str] = {
    "workload": "",
    "kind": "",
    "site": "",
    "share": "1",
    "work_eflop": "EFLOP",
    "served_mtoken": "Mtoken",
    "latency_ms_mean": "ms",
    "peak_chips": "chips",
    "chip_hours": "chip-h",
    "energy_mwh": "MWh",
}
#: The site of the row that holds a service's unserved demand.
UNSERVED = "(unserved)"


def placement_table(results: xr.Dataset, inputs: xr.Dataset, threshold: float = 1e-6) -> pd.DataFrame:
    """A row per (workload, site) where the workload ran, largest share first; a service
    with unserved demand gets a last row ``site = "(unserved)"``. Shares below ``threshold``
    are left out (solver round-off)."""
    rows = _job_rows(results, inputs, threshold) + _service_rows(results, inputs, threshold)
    return pd.DataFrame(rows, columns=list(PLACEMENT_UNITS))


def _site_power_mw(inputs: xr.Dataset, load: str) -> xr.DataArray:
    """MW one chip of each system draws at each site at ``load`` (training or serving),
    PUE included."""
    return inputs[f"{load}_power_kw_per_chip"] / 1000.0 * inputs["pue"]


def _job_rows(results: xr.Dataset, inputs: xr.Dataset, threshold: float) -> list[dict]:
    if not results.sizes.get("job", 0) or "training_chips" not in results:
        return []
    chips = results["training_chips"]  # (job, site, system, time)
    rate = (
        inputs["job_pflops_per_chip"] * inputs["mfu"] * inputs["goodput"] * EFLOP_PER_PFLOPS_HOUR
    )  # EFLOP per chip-hour (job, system)
    hours = inputs["job_weight"] * inputs["dt_hours"]  # (job, time)
    work = (chips * rate * hours).sum(("system", "time"))  # (job, site)
    chip_hours = (chips * hours).sum(("system", "time"))
    energy = (chips * _site_power_mw(inputs, "training") * hours).sum(("system", "time"))
    peak = chips.sum("system").max("time")
    rows = []
    for job in results["job"].values:
        total = float(work.sel(job=job).sum())
        for site in results["site"].values:
            done = float(work.sel(job=job, site=site))
            if total <= 0 or done <= threshold * total:
                continue
            rows.append(
                {
                    "workload": str(job),
                    "kind": "job",
                    "site": str(site),
                    "share": done / total,
                    "work_eflop": done,
                    "served_mtoken": np.nan,
                    "latency_ms_mean": np.nan,
                    "peak_chips": float(peak.sel(job=job, site=site)),
                    "chip_hours": float(chip_hours.sel(job=job, site=site)),
                    "energy_mwh": float(energy.sel(job=job, site=site)),
                }
            )
    return sorted(rows, key=lambda r: (r["workload"], -r["share"]))


def _service_rows(results: xr.Dataset, inputs: xr.Dataset, threshold: float) -> list[dict]:
    if not results.sizes.get("service", 0) or "served_tokens_per_s" not in results:
        return []
    step_hours = inputs["weight"] * inputs["dt_hours"]  # (time)
    to_mtoken = step_hours * SECONDS_PER_HOUR / TOKENS_PER_MTOKEN  # token/s over a step -> Mtoken
    served = results["served_tokens_per_s"]  # (service, region, site, time)
    served_mtoken = (served * to_mtoken).sum(("region", "time"))  # (service, site)
    demand = (inputs["demand_tokens_per_s"] * to_mtoken).sum(("region", "time"))  # (service)
    unserved = (results["unserved_tokens_per_s"] * to_mtoken).sum(("region", "time"))
    weighted_latency = (served * to_mtoken * inputs["latency_ms"]).sum(("region", "time"))
    chips = results["inference_chips"]  # (service, site, system, time)
    chip_hours = (chips * step_hours).sum(("system", "time"))
    energy = (chips * _site_power_mw(inputs, "serving") * step_hours).sum(("system", "time"))
    peak = chips.sum("system").max("time")
    rows = []
    for service in results["service"].values:
        total = float(demand.sel(service=service))
        if total <= 0:
            continue
        own = []
        for site in results["site"].values:
            done = float(served_mtoken.sel(service=service, site=site))
            if done <= threshold * total:
                continue
            own.append(
                {
                    "workload": str(service),
                    "kind": "service",
                    "site": str(site),
                    "share": done / total,
                    "work_eflop": np.nan,
                    "served_mtoken": done,
                    "latency_ms_mean": float(weighted_latency.sel(service=service, site=site)) / done,
                    "peak_chips": float(peak.sel(service=service, site=site)),
                    "chip_hours": float(chip_hours.sel(service=service, site=site)),
                    "energy_mwh": float(energy.sel(service=service, site=site)),
                }
            )
        rows += sorted(own, key=lambda r: -r["share"])
        missing = float(unserved.sel(service=service))
        if missing > threshold * total:
            rows.append(
                {
                    "workload": str(service),
                    "kind": "service",
                    "site": UNSERVED,
                    "share": missing / total,
                    "work_eflop": np.nan,
                    "served_mtoken": missing,
                    "latency_ms_mean": np.nan,
                    "peak_chips": np.nan,
                    "chip_hours": np.nan,
                    "energy_mwh": np.nan,
                }
            )
    return rows
