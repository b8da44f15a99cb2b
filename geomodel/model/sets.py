"""Index sets of the model: which variables can be non-zero (docs/model.md, "Sets").

Computed with numpy from the inputs Dataset, so the model holds a variable only
for an eligible (job, site, system, step), (service, region, site, step) and so
on, never a dense array bounded to zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import xarray as xr

from geomodel.model.capacity import most_chips, most_job_chips, most_source_mw


@dataclass
class ModelSets:
    """Positions (integers) into the Dataset's dimensions, per variable."""

    n_time: int
    sites: list[str]
    systems: list[str]
    jobs: list[str]
    services: list[str]
    regions: list[str]
    sources: list[str]
    links: list[str]
    train: list[tuple[int, int, int, int]] = field(default_factory=list)  # j, s, h, t
    infer: list[tuple[int, int, int, int]] = field(default_factory=list)  # i, s, h, t
    serve: list[tuple[int, int, int, int]] = field(default_factory=list)  # i, r, s, t
    unserved: list[tuple[int, int, int]] = field(default_factory=list)  # i, r, t
    gen: list[tuple[int, int, int]] = field(default_factory=list)  # s, k, t
    grid: list[tuple[int, int]] = field(default_factory=list)  # s, t
    #: j, s, t: only for jobs with a flow or group row (or binary spans)
    span: list[tuple[int, int, int]] = field(default_factory=list)
    #: j, l, t: only on link-steps whose capacity can bind (_congestible_flows)
    flow: list[tuple[int, int, int]] = field(default_factory=list)
    #: job -> its maximal groups of mutually linked sites (links fast enough for its
    #: pipeline); a job runs within one group at a time. Absent when one group holds
    #: every site the job may use, or when the rows could not bind (_drop_slack_spans).
    site_groups: dict[int, list[tuple[int, ...]]] = field(default_factory=dict)
    #: link position of each unordered site pair that has a link
    link_of_pair: dict[tuple[int, int], int] = field(default_factory=dict)


def _names(inputs: xr.Dataset, dim: str) -> list[str]:
    return [str(v) for v in inputs[dim].values] if dim in inputs.coords else []


def _named_sets(inputs: xr.Dataset) -> ModelSets:
    """The names of every dimension, no index tuples yet."""
    return ModelSets(
        n_time=inputs.sizes["time"],
        sites=_names(inputs, "site"),
        systems=_names(inputs, "system"),
        jobs=_names(inputs, "job"),
        services=_names(inputs, "service"),
        regions=_names(inputs, "region"),
        sources=_names(inputs, "source"),
        links=_names(inputs, "link"),
    )


def build_sets(inputs: xr.Dataset, binary_spans: bool = False) -> ModelSets:
    """Eligible index tuples of every variable; ``binary_spans``: the spans are binary
    (``site_participation``), so every span row the job may need is kept."""
    sets = _named_sets(inputs)
    installed = most_chips(inputs) > 0  # (s, h): installed, or may be built
    _training_sets(inputs, sets, installed, binary_spans)
    _inference_sets(inputs, sets, installed)
    capacity = most_source_mw(inputs) if sets.sources else np.zeros((len(sets.sites), 0))
    every_step = np.ones(sets.n_time, dtype=bool)
    sets.gen = tuples(capacity[:, :, None] > 0, every_step[None, None, :])
    sets.grid = tuples(inputs["grid_import_limit_mw"].values[:, None] > 0, every_step[None, :])
    return sets


def training_columns(inputs: xr.Dataset, binary_spans: bool = False) -> int:
    """Columns of the training block (train, span, flow, group) the model will build:
    its index sets alone, with what cannot bind left out as in :func:`build_sets`."""
    sets = _named_sets(inputs)
    _training_sets(inputs, sets, most_chips(inputs) > 0, binary_spans)
    steps = (inputs["job_weight"].values > 0).sum(axis=1) if sets.jobs else np.zeros(0)
    groups = sum(  # a group column per step for each group of more than one site
        sum(len(group) > 1 for group in job_groups) * int(steps[j])
        for j, job_groups in sets.site_groups.items()
    )
    return len(sets.train) + len(sets.span) + len(sets.flow) + groups


def tuples(*masks: np.ndarray) -> list[tuple[int, ...]]:
    """Index tuples where the broadcast product of boolean ``masks`` is true, in C order."""
    mask = masks[0]
    for other in masks[1:]:
        mask = mask & other
    return list(zip(*(axis.tolist() for axis in np.nonzero(mask)), strict=True))


def _training_sets(
    inputs: xr.Dataset, sets: ModelSets, installed: np.ndarray, binary_spans: bool
) -> None:
    if not sets.jobs:
        return
    allowed = inputs["job_site_allowed"].values.astype(bool)  # (j, s)
    eligible = inputs["job_system_eligible"].values.astype(bool)  # (j, h)
    window = inputs["job_weight"].values > 0  # (j, t)
    # (j, s, t): in the window, and not before the job's data can have arrived at s
    first = (
        inputs["job_first_step"].values if "job_first_step" in inputs else np.zeros(allowed.shape, int)
    )
    open_at = window[:, None, :] & (np.arange(sets.n_time)[None, None, :] >= first[:, :, None])
    # (j, s, h): allowed site, eligible system, installed there
    usable = allowed[:, :, None] & eligible[:, None, :] & installed[None, :, :]
    sets.train = tuples(usable[:, :, :, None], open_at[:, :, None, :])
    # site-use variables only for jobs whose rows (6) can bind (inputs: job_needs_span)
    needs = (
        inputs["job_needs_span"].values.astype(bool)
        if "job_needs_span" in inputs
        else np.ones(len(sets.jobs), dtype=bool)
    )
    used = usable.any(axis=2) & needs[:, None]  # (j, s)
    used_sites = set(zip(*(axis.tolist() for axis in np.nonzero(used)), strict=True))
    site_a = [sets.sites.index(str(a)) for a in inputs["link_site_a"].values]
    site_b = [sets.sites.index(str(b)) for b in inputs["link_site_b"].values]
    for position, (a, b) in enumerate(zip(site_a, site_b, strict=True)):
        sets.link_of_pair[(min(a, b), max(a, b))] = position
    latency = inputs["link_latency_ms"].values
    budget = inputs["pipeline_budget_ms"].values
    sites_of: dict[int, list[int]] = {}
    for j, s in sorted(used_sites):
        sites_of.setdefault(j, []).append(s)
    flows: list[tuple[int, int, int]] = []
    for j, job_sites in sites_of.items():
        linked: set[tuple[int, int]] = set()
        for x, a in enumerate(job_sites):
            for b in job_sites[x + 1 :]:
                link = sets.link_of_pair.get((a, b))
                too_slow = link is not None and np.isfinite(budget[j]) and latency[link] > budget[j]
                if link is not None and not too_slow:
                    linked.add((a, b))
                    both = open_at[j, a] & open_at[j, b]
                    flows.extend((j, link, int(t)) for t in np.flatnonzero(both))
        groups = maximal_cliques(job_sites, linked)
        if len(groups) > 1:
            sets.site_groups[j] = groups
    sets.flow = _congestible_flows(inputs, flows)
    if not binary_spans:
        _drop_slack_spans(inputs, sets, used)
    sets.span = tuples(used[:, :, None], open_at)


def _congestible_flows(
    inputs: xr.Dataset, flows: list[tuple[int, int, int]]
) -> list[tuple[int, int, int]]:
    """The ``flow`` index tuples on link-steps whose ``link_capacity`` row can bind.

    A job never needs more than its whole exchange on a link (``dp_traffic`` asks at most
    ``dp_traffic_gbit_s[j]``), so where the jobs that may use a link in a step exchange
    no more together than its lit capacity, flows of that size always fit: the
    ``dp_traffic`` and ``link_capacity`` rows of that link-step can never bind, and
    leaving them (and their flows) out keeps the optimum (docs/model.md (6)).
    """
    if not flows:
        return []
    j, link, t = np.array(flows).T
    load = np.zeros((inputs.sizes["link"], inputs.sizes["time"]))
    np.add.at(load, (link, t), inputs["dp_traffic_gbit_s"].values[j])
    binds = load > inputs["link_capacity_gbit_s"].values[:, None]
    return [flow for flow, kept in zip(flows, binds[link, t].tolist(), strict=True) if kept]


def _drop_slack_spans(inputs: xr.Dataset, sets: ModelSets, used: np.ndarray) -> None:
    """With continuous spans, leave out the group rows and spans that can never bind.

    A job whose ``max_chips`` rows hold and who could use ``max_chips`` at every one of
    its sites (``U[j,s] = max_chips[j]``) has spans of at most ``chips at s / max_chips``
    summing to at most 1 at every step, and such spans meet ``one_group`` and
    ``in_group`` whatever the groups: those rows can never bind. A job left with no
    flow and no group rows has spans in ``span_link`` alone, so it needs none
    (``used`` loses its sites). docs/model.md (6).
    """
    cap_binds = (
        inputs["job_cap_binds"].values.astype(bool)
        if "job_cap_binds" in inputs
        else np.ones(len(sets.jobs), dtype=bool)
    )
    full = (most_job_chips(inputs) >= inputs["max_chips"].values[:, None]) | ~used  # (j, s)
    for j in [j for j in sets.site_groups if cap_binds[j] and full[j].all()]:
        del sets.site_groups[j]
    keep = np.zeros(len(sets.jobs), dtype=bool)
    keep[list(sets.site_groups)] = True
    keep[[j for j, _, _ in sets.flow]] = True
    used &= keep[:, None]


def maximal_cliques(nodes: list[int], edges: set[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Maximal groups of ``nodes`` joined pairwise by ``edges`` ((low, high) pairs), sorted.

    Bron and Kerbosch (1973) with pivoting; sites are few and links sparse, so the
    groups are few.
    """
    neighbours = {v: {u for u in nodes if (min(u, v), max(u, v)) in edges} for v in nodes}
    cliques: list[tuple[int, ...]] = []

    def expand(clique: set[int], candidates: set[int], excluded: set[int]) -> None:
        if not candidates and not excluded:
            cliques.append(tuple(sorted(clique)))
            return
        pivot = max(candidates | excluded, key=lambda v: (len(neighbours[v] & candidates), -v))
        for v in sorted(candidates - neighbours[pivot]):
            expand(clique | {v}, candidates & neighbours[v], excluded & neighbours[v])
            candidates = candidates - {v}
            excluded = excluded | {v}

    if nodes:
        expand(set(), set(nodes), set())
    return sorted(cliques)


def _inference_sets(inputs: xr.Dataset, sets: ModelSets, installed: np.ndarray) -> None:
    if not sets.services or not sets.regions:
        return
    demand = inputs["demand_tokens_per_s"].values  # (i, r, t)
    reachable = inputs["latency_ms"].values[None, :, :] <= inputs["sla_ms"].values[:, None, None]
    allowed = inputs["service_system_allowed"].values.astype(bool)  # (i, h)
    can_serve = (allowed[:, None, :] & installed[None, :, :]).any(axis=2)  # (i, s)
    reachable &= can_serve[:, None, :]  # (i, r, s)
    for i, r, t in zip(*np.nonzero(demand > 0), strict=True):
        sets.unserved.append((int(i), int(r), int(t)))
        sets.serve.extend((int(i), int(r), int(s), int(t)) for s in np.flatnonzero(reachable[i, r]))
    served_at = {(i, s, t) for i, _, s, t in sets.serve}
    for i, s, t in sorted(served_at):
        sets.infer.extend((i, s, int(h), t) for h in np.flatnonzero(allowed[i] & installed[s]))
