"""Can the plan be carried out? Rules checked on any result, saved or not (docs/model.md (6),
"Executable plans").

Read from the placement and the builds only, never from the model's ``span`` or
``flow`` (which a solver may leave anywhere their bounds allow):

* ``unlinked_sites``: a synchronous job at two sites in a step with no link between them;
* ``link_capacity``: the gradient exchange of the jobs at both ends of a link in a step
  (``link_required_gbit_s``) above the link's capacity, lit plus built pairs;
* ``pipeline_budget``: a job with a pipeline budget at both ends of a link slower than it;
* ``opening_share``: something built at or towards a new site beyond its build maximum x
  the share the site is opened;
* ``fractional_build``: a build the scenario asked for in whole units (``whole_systems``,
  ``whole_fibre_pairs``, ``site_opening``) that is not whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.inputs.dataset import is_planning
from geomodel.results.dci_traffic import link_capacity, present, required_traffic_by_job

#: relative (and absolute) slack of a quantity against its limit: solver tolerances
TOLERANCE = 1e-6
#: results variable built at a site -> its build maximum in the inputs
SITE_BUILDS = {
    "built_systems": "build_max_systems",
    "built_envelope_mw": "build_max_envelope_mw",
    "built_source_mw": "build_max_source_mw",
    "built_battery_mw": "build_max_battery_mw",
    "built_battery_mwh": "build_max_battery_mwh",
}
#: integer option -> the results variable it makes whole
WHOLE_BUILDS = {
    "whole_systems": "built_systems",
    "whole_fibre_pairs": "built_fibre_pairs",
    "site_opening": "site_opened",
}


@dataclass(frozen=True)
class Finding:
    """One rule broken, in words, with the job, sites and step it concerns."""

    rule: str
    text: str
    job: str = ""
    sites: tuple[str, ...] = ()
    step: int | None = None

    def as_dict(self) -> dict:
        return {
            "rule": self.rule,
            "text": self.text,
            "job": self.job,
            "sites": list(self.sites),
            "step": self.step,
        }


def check_executable(results: xr.Dataset, inputs: xr.Dataset) -> list[Finding]:
    """Every rule the plan breaks (empty: it can be carried out as reported)."""
    if "training_chips" not in results:  # no solution
        return []
    return [
        *_placement_findings(results, inputs),
        *_opening_findings(results, inputs),
        *_whole_unit_findings(results, inputs),
    ]


def _names(inputs: xr.Dataset, dim: str) -> list[str]:
    return [str(v) for v in inputs[dim].values] if dim in inputs.coords else []


def _step(inputs: xr.Dataset, t: int) -> str:
    stamp = pd.Timestamp(inputs["time"].values[t]).strftime("%Y-%m-%d %H:%M")
    return f"step {t} ({stamp})"


def synchronous_jobs(inputs: xr.Dataset) -> np.ndarray:
    """(job) True for a synchronous run; results written before pools existed count every
    job of one member as one."""
    if "job_synchronous" in inputs:
        return inputs["job_synchronous"].values.astype(bool)
    if "job_members" in inputs:
        return inputs["job_members"].values == 1
    return np.ones(inputs.sizes.get("job", 0), dtype=bool)


def _placement_findings(results: xr.Dataset, inputs: xr.Dataset) -> list[Finding]:
    jobs, sites, links = _names(inputs, "job"), _names(inputs, "site"), _names(inputs, "link")
    if not jobs:
        return []
    chips = results["training_chips"].values
    at = present(inputs, chips) & synchronous_jobs(inputs)[:, None, None]  # (job, site, time)
    link_of: dict[tuple[int, int], int] = {}
    ends = []
    for position, (a, b) in enumerate(
        zip(inputs["link_site_a"].values, inputs["link_site_b"].values, strict=True)
    ):
        pair = (sites.index(str(a)), sites.index(str(b)))
        ends.append(pair)
        link_of[min(pair), max(pair)] = position
    latency = inputs["link_latency_ms"].values if links else np.zeros(0)
    budget = inputs["pipeline_budget_ms"].values
    findings = []
    for j, t in zip(*np.nonzero(at.sum(axis=1) > 1), strict=True):
        used = np.flatnonzero(at[j, :, t]).tolist()
        pairs = [(a, b) for x, a in enumerate(used) for b in used[x + 1 :]]
        missing = [(a, b) for a, b in pairs if (a, b) not in link_of]
        if missing:
            named = ", ".join(f"{sites[a]}-{sites[b]}" for a, b in missing)
            findings.append(
                Finding(
                    "unlinked_sites",
                    f"synchronous job {jobs[j]} runs at {', '.join(sites[s] for s in used)} in "
                    f"{_step(inputs, t)}, but no link joins {named}",
                    jobs[j],
                    tuple(sites[s] for s in used),
                    int(t),
                )
            )
        slow = [link_of[p] for p in pairs if p in link_of and latency[link_of[p]] > budget[j]]
        for link in slow:  # NaN budget (pipelines inside a site) compares false: no finding
            a, b = ends[link]
            findings.append(
                Finding(
                    "pipeline_budget",
                    f"job {jobs[j]} runs at both ends of link {links[link]} in {_step(inputs, t)}, "
                    f"whose {latency[link]:.2f} ms one way is beyond its pipeline budget of "
                    f"{budget[j]:g} ms",
                    jobs[j],
                    (sites[a], sites[b]),
                    int(t),
                )
            )
    if links:
        findings.extend(_capacity_findings(results, inputs, jobs, sites, links, ends))
    return findings


def _capacity_findings(results, inputs, jobs, sites, links, ends) -> list[Finding]:
    by_job = required_traffic_by_job(inputs, results["training_chips"].values)
    by_job = by_job * synchronous_jobs(inputs)[:, None, None]
    required = by_job.sum(axis=0)  # (link, time)
    capacity = link_capacity(results, inputs).values
    findings = []
    over = required > capacity[:, None] * (1 + TOLERANCE) + TOLERANCE
    for link, t in zip(*np.nonzero(over), strict=True):
        who = [jobs[j] for j in np.flatnonzero(by_job[:, link, t] > 0)]
        a, b = ends[link]
        findings.append(
            Finding(
                "link_capacity",
                f"link {links[link]} must carry {required[link, t]:,.0f} Gb/s of gradient exchange "
                f"({', '.join(who)}) in {_step(inputs, t)}, above its {capacity[link]:,.0f} Gb/s",
                ", ".join(who),
                (sites[a], sites[b]),
                int(t),
            )
        )
    return findings


def _opening_findings(results: xr.Dataset, inputs: xr.Dataset) -> list[Finding]:
    """Builds at or towards a new site beyond the build maximum x its opening share."""
    if not is_planning(inputs) or "site_opened" not in results:
        return []
    sites = _names(inputs, "site")
    new = inputs["site_new"].values.astype(bool)
    opened = results["site_opened"].values
    findings = []
    for name, most_name in SITE_BUILDS.items():
        if name not in results:
            continue
        built, most = results[name].values, inputs[most_name].values
        limit = most * np.reshape(opened, (-1,) + (1,) * (built.ndim - 1))
        beyond = (built > limit * (1 + TOLERANCE) + TOLERANCE) & np.reshape(
            new, (-1,) + (1,) * (built.ndim - 1)
        )
        for index in zip(*np.nonzero(beyond), strict=True):
            s = index[0]
            what = results[name].attrs.get("description", name)
            if built.ndim > 1:
                other = results[name].dims[1]
                what += f" ({inputs[other].values[index[1]]})"
            findings.append(_beyond(sites[s], what, built[index], most[index], opened[s], name))
    if "built_fibre_pairs" in results:
        pairs, most = results["built_fibre_pairs"].values, inputs["build_max_fibre_pairs"].values
        links = _names(inputs, "link")
        for link, (a, b) in enumerate(
            zip(inputs["link_site_a"].values, inputs["link_site_b"].values, strict=True)
        ):
            for end in (sites.index(str(a)), sites.index(str(b))):
                if new[end] and pairs[link] > most[link] * opened[end] * (1 + TOLERANCE) + TOLERANCE:
                    findings.append(
                        _beyond(
                            sites[end],
                            f"fibre pairs on link {links[link]}",
                            pairs[link],
                            most[link],
                            opened[end],
                            "built_fibre_pairs",
                        )
                    )
    return findings


def _beyond(site: str, what: str, built: float, most: float, opened: float, name: str) -> Finding:
    return Finding(
        "opening_share",
        f"{built:.4g} of {what} built at or towards {site}, which is opened at {opened:.4g}: "
        f"beyond {most:.4g} (the most) x {opened:.4g} = {most * opened:.4g}",
        "",
        (site,),
        None,
    )


def _whole_unit_findings(results: xr.Dataset, inputs: xr.Dataset) -> list[Finding]:
    """Builds asked for in whole units that came out fractional."""
    if not is_planning(inputs):
        return []
    asked = json.loads(inputs.attrs.get("solver_options", "{}")).get("integer", {})
    findings = []
    for option, name in WHOLE_BUILDS.items():
        if not asked.get(option) or name not in results:
            continue
        values = results[name].values
        fractional = np.abs(values - np.round(values)) > TOLERANCE
        if name == "site_opened":
            fractional &= inputs["site_new"].values.astype(bool)
        for index in zip(*np.nonzero(fractional), strict=True):
            labels = [str(inputs[d].values[i]) for d, i in zip(results[name].dims, index, strict=True)]
            findings.append(
                Finding(
                    "fractional_build",
                    f"{results[name].attrs.get('description', name)} at {'/'.join(labels)} is "
                    f"{values[index]:.6g}, not whole, though {option} asks for whole units",
                    "",
                    (labels[0],),
                    None,
                )
            )
    return findings
