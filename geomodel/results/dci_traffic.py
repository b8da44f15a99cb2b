"""DCI traffic of a solution, from where each training job's chips are (docs/model.md (6)).

The model's ``flow`` and ``span`` variables carry no cost, so a solver may leave
them anywhere their bounds allow (every link at its capacity, a job "using" a
site where it has no chips). What a placement means for the fibre is read from
the chips instead:

* **required**: a job with chips at both ends of a link in a step exchanges its
  whole data-parallel gradient over it, ``dp_traffic_gbit_s[j]``; a job at one
  site needs no DCI. This is what the fibre must carry.
* **accounted**: what the model's ``dp_traffic`` rows charge against the link
  capacity at the least, ``dp_traffic_gbit_s[j] x max(0, span_a + span_b - 1)``, where
  a span is the job's share of the chips it could use at the site (continuous spans,
  the LP relaxation) or 1 wherever it has chips (binary: ``solver.participation`` exact
  or relax_fix).
  Below the required traffic when an LP splits a job over part-used sites.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.inputs.dataset import variable

#: chips of a job at a site below this share of its ``max_chips`` are solver noise
PRESENT_SHARE = 1e-6


def _job_chips_at_sites(inputs: xr.Dataset, training_chips: np.ndarray) -> np.ndarray:
    """(job, site, time) chips, summed over systems."""
    return training_chips.sum(axis=2) if training_chips.ndim == 4 else training_chips


def _link_ends(inputs: xr.Dataset) -> tuple[np.ndarray, np.ndarray]:
    sites = [str(s) for s in inputs["site"].values]
    a = np.array([sites.index(str(x)) for x in inputs["link_site_a"].values], dtype=int)
    b = np.array([sites.index(str(x)) for x in inputs["link_site_b"].values], dtype=int)
    return a, b


def present(inputs: xr.Dataset, training_chips: np.ndarray) -> np.ndarray:
    """(job, site, time) True where the job has chips at the site in the step."""
    chips = _job_chips_at_sites(inputs, training_chips)
    floor = PRESENT_SHARE * np.maximum(inputs["max_chips"].values, 1.0)
    return chips > floor[:, None, None]


def required_traffic_by_job(inputs: xr.Dataset, training_chips: np.ndarray) -> np.ndarray:
    """(job, link, time) Gb/s each job's placement needs on each link."""
    n_jobs, n_links = inputs.sizes.get("job", 0), inputs.sizes.get("link", 0)
    n_time = inputs.sizes["time"]
    if not n_jobs or not n_links:
        return np.zeros((n_jobs, n_links, n_time))
    at = present(inputs, training_chips)
    a, b = _link_ends(inputs)
    both = at[:, a, :] & at[:, b, :]  # (job, link, time)
    return both * inputs["dp_traffic_gbit_s"].values[:, None, None]


def usable_chips(inputs: xr.Dataset) -> np.ndarray:
    """(job, site) the most chips a job can use at a site: U[j,s] of docs/model.md (6), with
    the most that may be built in planning mode (as the model's span rows have it)."""
    eligible = inputs["job_system_eligible"].values.astype(float)  # (job, system)
    installed = inputs["chips_installed"].values  # (site, system)
    if "build_max_systems" in inputs:
        installed = installed + inputs["build_max_systems"].values * inputs["chips_per_system"].values
    site_chips = (eligible @ installed.T) * inputs["availability"].values[None, :]
    return np.minimum(site_chips, inputs["max_chips"].values[:, None])


def accounted_traffic(inputs: xr.Dataset, training_chips: np.ndarray, binary_spans: bool) -> np.ndarray:
    """(link, time) Gb/s the model's capacity rows charge at the least for this placement."""
    n_jobs, n_links = inputs.sizes.get("job", 0), inputs.sizes.get("link", 0)
    n_time = inputs.sizes["time"]
    if not n_jobs or not n_links:
        return np.zeros((n_links, n_time))
    if binary_spans:
        span = present(inputs, training_chips).astype(float)
    else:
        usable = usable_chips(inputs)
        chips = _job_chips_at_sites(inputs, training_chips)
        span = np.minimum(chips / np.where(usable > 0, usable, 1.0)[:, :, None], 1.0)
    a, b = _link_ends(inputs)
    share = np.maximum(span[:, a, :] + span[:, b, :] - 1.0, 0.0)  # (job, link, time)
    return (share * inputs["dp_traffic_gbit_s"].values[:, None, None]).sum(axis=0)


def required_by_job(results: xr.Dataset, inputs: xr.Dataset) -> xr.DataArray:
    """:func:`required_traffic_by_job` of a results Dataset, labelled (job, link, time)."""
    values = required_traffic_by_job(inputs, results["training_chips"].values)
    return xr.DataArray(
        values,
        dims=("job", "link", "time"),
        coords={d: inputs[d].values for d in ("job", "link", "time") if d in inputs.coords},
        attrs={"units": "Gb/s", "description": "DCI traffic each job's placement requires"},
    )


def link_capacity(results: xr.Dataset, inputs: xr.Dataset) -> xr.DataArray:
    """(link) Gb/s each link carries: lit fibre pairs plus those built (planning mode)."""
    capacity = inputs["link_capacity_gbit_s"]
    if "built_fibre_pairs" in results:
        capacity = capacity + results["built_fibre_pairs"] * inputs["link_capacity_gbit_s_per_pair"]
    return capacity


def add_required_utilisation(results: xr.Dataset, inputs: xr.Dataset) -> None:
    """``link_required_utilisation``: required traffic over the capacity, built pairs
    included (so it is added after the planning results)."""
    capacity = link_capacity(results, inputs).values[:, None]
    required = results["link_required_gbit_s"].values
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(required > 0, required / capacity, 0.0)
    results["link_required_utilisation"] = variable(
        ("link", "time"),
        share,
        "1",
        "link_required_gbit_s / link capacity, built pairs included (above 1: the placement "
        "needs more fibre than the link has; inf: it needs a link that has none)",
    )
