"""Training constraint groups: work delivered (1) and cross-site training (6)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import EFLOP_PER_PFLOPS_HOUR, IntegerChoices, linear
from geomodel.model.capacity import at_most, most_job_chips
from geomodel.model.sets import ModelSets


def define_training_work(
    m, sets: ModelSets, inputs: xr.Dataset, weight_hours: np.ndarray, integer: IntegerChoices
) -> None:
    """(1) Work: sum of wj dt x chips x PFLOPS x MFU x goodput = W_j; between min_chips and
    max_chips per step (the max_chips rows only where they can bind).

    ``wj`` is the job's own weight of a step (``job_weight``): the step's weight where
    it lies in the job's window. Work is delivered exactly, never exceeded, so a step
    with a negative price cannot buy extra work; with whole replicas (``dp_replicas``)
    the work row is ``>=``, since whole replicas rarely add up to W_j exactly.
    ``m.work_at[j, s]`` keeps each site's (coefficient, chips) terms for data movement (7).
    """
    job_hours = inputs["job_weight"].values * inputs["dt_hours"].values[None, :]
    pflops = inputs["job_pflops_per_chip"].values
    mfu = inputs["mfu"].values
    goodput = inputs["goodput"].values
    by_job: dict[int, list] = defaultdict(list)
    by_job_time: dict[tuple[int, int], list] = defaultdict(list)
    m.work_at = defaultdict(list)
    if sets.train:
        j, s, h, t = np.array(sets.train).T
        coefs = (
            job_hours[j, t] * pflops[j, h] * EFLOP_PER_PFLOPS_HOUR * mfu[j, h] * goodput[j, h]
        ).tolist()
        for (j, s, _, t), coef, var in zip(sets.train, coefs, m.train.values(), strict=True):
            by_job[j].append((coef, var))
            by_job_time[j, t].append(var)
            m.work_at[j, s].append((coef, var))
    work = inputs["work_eflop"].values

    def delivered(_, j):
        if not by_job[j]:
            return pyo.Constraint.Infeasible
        done = linear(*zip(*by_job[j], strict=True))
        return done >= float(work[j]) if integer.dp_replicas else done == float(work[j])

    m.work = pyo.Constraint(range(len(sets.jobs)), rule=delivered, doc="training work delivered, EFLOP")
    max_chips = inputs["max_chips"].values
    # a job whose work fits one step at its most chips never meets its cap (inputs: job_cap_binds)
    binds = (
        inputs["job_cap_binds"].values if "job_cap_binds" in inputs else np.ones(len(sets.jobs), bool)
    )
    m.max_chips = pyo.Constraint(
        [(j, t) for j, t in by_job_time if binds[j]],
        rule=lambda _, j, t: (
            linear([1.0] * len(by_job_time[j, t]), by_job_time[j, t]) <= float(max_chips[j])
        ),
        doc="most chips of job j at any step",
    )
    min_chips = inputs["min_chips"].values if "min_chips" in inputs else np.zeros(len(sets.jobs))
    kept = [(j, t) for j, t in by_job_time if min_chips[j] > 0]
    m.min_chips = pyo.Constraint(
        kept,
        rule=lambda _, j, t: (
            linear([1.0] * len(by_job_time[j, t]), by_job_time[j, t]) >= float(min_chips[j])
        ),
        doc="chips job j keeps in every step of its window",
    )


def define_cross_site_training(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """(6) A job split over sites: span, linked sites only, DP traffic within link capacity."""
    at_site: dict[tuple[int, int, int], list] = defaultdict(list)
    for (j, s, _, t), var in zip(sets.train, m.train.values(), strict=True):
        at_site[j, s, t].append(var)

    # (job, site): the most chips j may have at s, once for every step (not per row)
    upper = most_job_chips(inputs)

    m.span_link = pyo.Constraint(
        sets.span,
        rule=lambda _, j, s, t: (
            linear(
                [1.0] * len(at_site[j, s, t]) + [-float(upper[j, s])],
                [*at_site[j, s, t], m.span[j, s, t]],
            )
            <= 0.0
        ),
        doc="chips of a job at a site only where the job uses the site",
    )
    define_linked_groups(m, sets, inputs["job_weight"].values > 0)
    traffic = inputs["dp_traffic_gbit_s"].values
    site_a = [sets.sites.index(str(a)) for a in inputs["link_site_a"].values]
    site_b = [sets.sites.index(str(b)) for b in inputs["link_site_b"].values]
    m.dp_traffic = pyo.Constraint(
        sets.flow,
        rule=lambda _, j, link, t: (
            linear(
                [1.0, -float(traffic[j]), -float(traffic[j])],
                [m.flow[j, link, t], m.span[j, site_a[link], t], m.span[j, site_b[link], t]],
            )
            >= -float(traffic[j])
        ),
        doc="gradient exchange of a job spanning both ends of a link, Gb/s",
    )
    by_link: dict[tuple[int, int], list] = defaultdict(list)
    for j, link, t in sets.flow:
        by_link[link, t].append(m.flow[j, link, t])
    capacity = m.capacity.link_gbit_s  # lit (+ built) capacity
    m.link_capacity = pyo.Constraint(
        list(by_link),
        rule=lambda _, link, t: at_most([1.0] * len(by_link[link, t]), by_link[link, t], capacity(link)),
        doc="DCI traffic within link capacity, Gb/s",
    )
    if integer.dp_replicas:
        replica = inputs["tp"].values * inputs["ep"].values
        crosses = np.isfinite(inputs["pipeline_budget_ms"].values)
        replica = np.where(crosses, replica, replica * inputs["pp"].values)
        m.replicas = pyo.Var(
            sorted(at_site),
            domain=pyo.NonNegativeIntegers,
            doc="whole replicas (or TP x EP groups) of j at s in t",
        )
        m.whole_replicas = pyo.Constraint(
            sorted(at_site),
            rule=lambda _, j, s, t: (
                linear(
                    [1.0] * len(at_site[j, s, t]) + [-float(replica[j])],
                    [*at_site[j, s, t], m.replicas[j, s, t]],
                )
                == 0.0
            ),
            doc="chips of a job at a site come in whole replicas",
        )


def define_linked_groups(m, sets: ModelSets, window: np.ndarray) -> None:
    """A job runs within one group of mutually linked sites at a time.

    For a job whose sites are not all linked pairwise, ``group[j,g,t]`` says it runs
    within group ``g`` (a maximal set of sites linked pairwise); it uses at most one
    group, and a site only as far as a group holding it is used. A site with no usable
    link is a group of its own and counts with its span directly. This is exact for
    binary spans (docs/model.md) with one row per site instead of one per unlinked pair.
    """
    group_index, one_group_index, in_group_index = [], [], []
    holders: dict[tuple[int, int], list[int]] = defaultdict(list)  # (j, s) -> its groups
    shared: dict[int, list[int]] = {}  # j -> groups of more than one site
    alone: dict[int, list[int]] = {}  # j -> sites linked to none of its other sites
    has_span = set(sets.span)  # a site opens later than the window when data must arrive first
    for j, groups in sets.site_groups.items():
        shared[j] = [g for g, group in enumerate(groups) if len(group) > 1]
        alone[j] = [group[0] for group in groups if len(group) == 1]
        for g in shared[j]:
            for s in groups[g]:
                holders[j, s].append(g)
        linked_sites = sorted({s for g in shared[j] for s in groups[g]})
        for t in np.flatnonzero(window[j]).tolist():
            group_index.extend((j, g, t) for g in shared[j])
            one_group_index.append((j, t))
            in_group_index.extend((j, s, t) for s in linked_sites if (j, s, t) in has_span)
    m.group = pyo.Var(group_index, domain=pyo.UnitInterval, doc="job j runs within site group g in t")
    lone = {
        (j, t): [m.span[j, s, t] for s in alone[j] if (j, s, t) in has_span] for j, t in one_group_index
    }
    m.one_group = pyo.Constraint(
        one_group_index,
        rule=lambda _, j, t: (
            linear(
                [1.0] * (len(shared[j]) + len(lone[j, t])),
                [m.group[j, g, t] for g in shared[j]] + lone[j, t],
            )
            <= 1.0
            if shared[j] or lone[j, t]
            else pyo.Constraint.Skip
        ),
        doc="a job runs within one group of linked sites at a time",
    )
    m.in_group = pyo.Constraint(
        in_group_index,
        rule=lambda _, j, s, t: (
            linear(
                [1.0] + [-1.0] * len(holders[j, s]),
                [m.span[j, s, t]] + [m.group[j, g, t] for g in holders[j, s]],
            )
            <= 0.0
        ),
        doc="a job uses a site only within a group of linked sites it runs in",
    )
