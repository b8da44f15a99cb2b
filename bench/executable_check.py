"""Can a saved plan be carried out? An independent check of a geomodel result file.

Written apart from ``geomodel.results.executable`` and importing nothing of geomodel: it
reads the NetCDF file alone (results in the root group, inputs in the ``inputs`` group)
and applies the rules of docs/model.md, "Executable plans", as the docs state them:

* a synchronous job uses, in a step, only sites joined pairwise by a link;
* the links carry the gradient exchange of every synchronous job at both ends
  (its ``dp_traffic_gbit_s``) within their capacity, lit plus built fibre pairs;
* a job with a pipeline budget is never at both ends of a link slower than it;
* nothing is built at or towards a new site beyond its build maximum x its opening;
* builds asked for in whole units (solver.integer) are whole.

    python bench/executable_check.py RESULT.nc [RESULT.nc ...] [--json]

prints, per file, the rules broken as ``rule | job | sites | step`` (nothing: the plan can
be carried out). tests/results/test_executable_examples.py compares its answer with the
library's checker on every example and variant.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import xarray as xr

#: a job is at a site when it has more chips there than this share of its most chips
AT_SITE_SHARE = 1e-6
#: slack of a quantity against its limit (solver tolerances), relative and absolute
SLACK = 1e-6
BUILT_AT_SITE = {
    "built_systems": "build_max_systems",
    "built_envelope_mw": "build_max_envelope_mw",
    "built_source_mw": "build_max_source_mw",
    "built_battery_mw": "build_max_battery_mw",
    "built_battery_mwh": "build_max_battery_mwh",
}
WHOLE = {"whole_systems": "built_systems", "whole_fibre_pairs": "built_fibre_pairs"}


def load(path: Path) -> tuple[xr.Dataset, xr.Dataset]:
    results = xr.load_dataset(path, engine="h5netcdf")
    inputs = xr.load_dataset(path, engine="h5netcdf", group="inputs")
    return results, inputs


def over(value: float, limit: float) -> bool:
    return value > limit + SLACK * max(abs(limit), 1.0)


def findings(results: xr.Dataset, inputs: xr.Dataset) -> list[tuple[str, str, tuple[str, ...], int]]:
    """(rule, job, sites sorted, step; -1 for no step) of every rule broken."""
    if "training_chips" not in results:
        return []
    out = []
    sites = [str(s) for s in inputs["site"].values]
    jobs = [str(j) for j in inputs["job"].values] if "job" in inputs.coords else []
    ends = []
    if "link" in inputs.coords:
        ends = [
            (str(a), str(b))
            for a, b in zip(inputs["link_site_a"].values, inputs["link_site_b"].values, strict=True)
        ]
    capacity = np.zeros(len(ends))
    if ends:
        capacity = inputs["link_capacity_gbit_s"].values.astype(float).copy()
        if "built_fibre_pairs" in results:
            per_pair = inputs["link_capacity_gbit_s_per_pair"].values
            capacity += results["built_fibre_pairs"].values * per_pair
    if "job_synchronous" in inputs:
        synchronous = inputs["job_synchronous"].values.astype(bool)
    else:
        synchronous = inputs["job_members"].values == 1
    chips = results["training_chips"].sum("system")  # job, site, time
    traffic = np.zeros((len(ends), inputs.sizes["time"]))
    for j, job in enumerate(jobs):
        if not synchronous[j]:
            continue
        most = max(float(inputs["max_chips"].values[j]), 1.0)
        budget = float(inputs["pipeline_budget_ms"].values[j])
        for t in range(inputs.sizes["time"]):
            here = [sites[s] for s in range(len(sites)) if chips.values[j, s, t] > AT_SITE_SHARE * most]
            if len(here) < 2:
                continue
            joined = {frozenset(pair) for pair in ends}
            if any(frozenset((a, b)) not in joined for i, a in enumerate(here) for b in here[i + 1 :]):
                out.append(("unlinked_sites", job, tuple(sorted(here)), t))
            for link, (a, b) in enumerate(ends):
                if a in here and b in here:
                    traffic[link, t] += float(inputs["dp_traffic_gbit_s"].values[j])
                    if np.isfinite(budget) and inputs["link_latency_ms"].values[link] > budget:
                        out.append(("pipeline_budget", job, tuple(sorted((a, b))), t))
    for link, (a, b) in enumerate(ends):
        for t in range(inputs.sizes["time"]):
            if over(traffic[link, t], capacity[link]):
                out.append(("link_capacity", "", tuple(sorted((a, b))), t))
    if "site_opened" in results:
        out.extend(_opening(results, inputs, sites, ends))
    return out


def _opening(results, inputs, sites, ends) -> list[tuple[str, str, tuple[str, ...], int]]:
    out = []
    opened = dict(zip(sites, results["site_opened"].values.tolist(), strict=True))
    new = {s for s, flag in zip(sites, inputs["site_new"].values, strict=True) if flag}
    for name, most_name in BUILT_AT_SITE.items():
        if name not in results:
            continue
        built = results[name].values.reshape(len(sites), -1)
        most = inputs[most_name].values.reshape(len(sites), -1)
        for s, site in enumerate(sites):
            for k in range(built.shape[1]):
                if site in new and over(built[s, k], most[s, k] * opened[site]):
                    out.append(("opening_share", "", (site,), -1))
    if "built_fibre_pairs" in results:
        for link, (a, b) in enumerate(ends):
            pairs = float(results["built_fibre_pairs"].values[link])
            most = float(inputs["build_max_fibre_pairs"].values[link])
            for end in (a, b):
                if end in new and over(pairs, most * opened[end]):
                    out.append(("opening_share", "", (end,), -1))
    integer = json.loads(inputs.attrs.get("solver_options", "{}")).get("integer", {})
    for option, name in WHOLE.items():
        if integer.get(option) and name in results:
            values = results[name].values
            for index in zip(*np.nonzero(np.abs(values - np.round(values)) > SLACK), strict=True):
                where = str(inputs[results[name].dims[0]].values[index[0]])
                out.append(("fractional_build", "", (where,), -1))
    if integer.get("site_opening"):
        for site in sorted(new):
            if abs(opened[site] - round(opened[site])) > SLACK:
                out.append(("fractional_build", "", (site,), -1))
    return out


def counted(found: list[tuple[str, str, tuple[str, ...], int]]) -> Counter:
    """The findings as a multiset, to compare with another checker's."""
    return Counter(found)


def stated_as_here(finding) -> tuple[str, str, tuple[str, ...], int]:
    """Another checker's finding (``rule``, ``job``, ``sites``, ``step`` attributes, as
    geomodel.results.executable.Finding has) as this script states it: the job only for
    the rules about one job, sites sorted, -1 for no step."""
    job = finding.job if finding.rule in ("unlinked_sites", "pipeline_budget") else ""
    step = -1 if finding.step is None else finding.step
    return (finding.rule, job, tuple(sorted(finding.sites)), step)


def agrees(path: Path, other: list) -> bool:
    """Whether this script finds in the file at ``path`` exactly the findings ``other``
    (another checker's, see :func:`stated_as_here`) lists."""
    return counted(findings(*load(path))) == Counter(stated_as_here(f) for f in other)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON object: file -> findings")
    args = parser.parse_args(argv)
    report = {}
    for path in args.files:
        report[str(path)] = findings(*load(path))
    if args.json:
        print(json.dumps({f: [list(x) for x in found] for f, found in report.items()}, indent=1))
    else:
        for path, found in report.items():
            print(f"{path}: {len(found)} rule(s) broken")
            for rule, job, sites, step in found:
                print(f"  {rule} | {job} | {'-'.join(sites)} | {step if step >= 0 else ''}")
    return 1 if any(report.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
