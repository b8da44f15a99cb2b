"""Training jobs in the inputs Dataset: YAML jobs and job-table rows, merged into classes.

:func:`plan_jobs` turns the scenario's jobs into columns with their per-system
rates and their distinct windows (the time steps need those);
:func:`job_variables` merges interchangeable jobs into classes
(:mod:`geomodel.inputs.job_classes`) and writes what the model reads on the
``job`` dimension (one entry per class; a job alone keeps its name) and what
the results need to split a class back on ``job_member`` (one entry per job).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.catalog import Catalog
from geomodel.inputs.data_movement import TransferCosts
from geomodel.inputs.dataset import variable
from geomodel.inputs.job_classes import JobClasses, merge_classes
from geomodel.scenario.job_columns import (
    JobColumns,
    SystemRates,
    may_span,
    scenario_job_columns,
    system_rates,
    usable_chips,
)
from geomodel.scenario.schema import Scenario

#: DP gradient exchange moves about 2x the gradient bytes per sync at each site
#: (ring all-reduce: reduce-scatter plus all-gather); docs/model.md.
ALLREDUCE_TRAFFIC_FACTOR = 2.0


@dataclass
class PlannedJobs:
    """The scenario's training jobs, one entry per job, ready to be merged into classes."""

    columns: JobColumns
    rates: SystemRates
    chips_at: np.ndarray  #: (job, site, system) chips the job could use there
    spans: np.ndarray  #: the job may span sites joined by a link
    window_id: np.ndarray  #: (job,) index into ``windows``
    windows: np.ndarray  #: (window, hour) bool: the hour lies wholly inside the window
    total_chips: float  #: installed chips of the whole fleet


def plan_jobs(
    scenario: Scenario, catalog: Catalog, systems: list[str], links: list, hours: pd.DatetimeIndex
) -> PlannedJobs:
    """Columns, rates and distinct windows of every training job of ``scenario``."""
    columns = scenario_job_columns(scenario, catalog)
    specs = [catalog.hardware_system(s) for s in systems]
    # every chip there could be: installed, or the build maximum (planning)
    installed = np.array(
        [
            [
                site.most_systems.get(s, 0) * h.chips_per_system
                for s, h in zip(systems, specs, strict=True)
            ]
            for site in scenario.sites.values()
        ],
        dtype=float,
    ).reshape(len(scenario.sites), len(systems))
    available = installed * np.array([s.utilisation for s in scenario.sites.values()])[:, None]
    total = float(installed.sum())
    rates = system_rates(columns, systems, catalog, total)
    chips_at = usable_chips(columns, rates, available)
    spans = may_span(columns, (chips_at > 0).any(axis=2), links, list(scenario.sites))
    spans &= columns.synchronous  # a pool's experiments exchange nothing between sites
    bounds = np.stack([columns.start_h, columns.end_h], axis=1).reshape(len(columns), 2)
    unique, window_id = np.unique(bounds, axis=0, return_inverse=True)
    hour = np.arange(len(hours), dtype=float)
    windows = (hour[None, :] >= unique[:, :1]) & (hour[None, :] + 1.0 <= unique[:, 1:])
    return PlannedJobs(columns, rates, chips_at, spans, window_id.ravel(), windows, total)


def first_steps(
    planned: PlannedJobs, transfer: TransferCosts, dt_hours: float, n_sites: int
) -> np.ndarray:
    """(job, site) first step a job may use at a site: its data must have arrived first.

    Only with ``data_movement.delay`` (plain steps of ``dt_hours``): away from its
    origin, a job starts no earlier than its window start + data x hours per GB.
    """
    columns = planned.columns
    first = np.zeros((len(columns), n_sites), dtype=np.int64)
    if not transfer.delay_hours_per_gb or not len(columns):
        return first
    moved = (columns.origin >= 0) & (columns.data_gb > 0)
    arrival = columns.start_h + columns.data_gb * transfer.delay_hours_per_gb
    away = np.ceil(arrival / dt_hours - 1e-9).astype(np.int64)
    for s in range(n_sites):
        elsewhere = moved & (columns.origin != s)
        first[elsewhere, s] = away[elsewhere]
    return first


def job_variables(
    planned: PlannedJobs,
    window_weight: np.ndarray,
    dt_hours: np.ndarray,
    first_step: np.ndarray,
    merge: bool,
    integer_options: dict,
    participation: str = "exact",
) -> tuple[dict[str, xr.Variable], JobClasses]:
    """The model's job variables (one entry per class) and the classes.

    ``participation`` is ``solver.participation``: with ``exact`` and ``relax_fix`` every
    synchronous job that could use two sites gets site-use variables (binary in the
    model), with ``relaxed`` only those whose LP rows can bind (docs/model.md (6)).
    """
    columns, rates = planned.columns, planned.rates
    whole = not integer_options.get("dp_replicas")
    classes = merge_classes(
        columns,
        rates,
        planned.window_id,
        window_weight * dt_hours[None, :],
        planned.chips_at,
        planned.spans,
        first_step,
        enabled=merge and whole,
    )
    rep = classes.representative
    cap = np.where(np.isnan(columns.max_chips), planned.total_chips, columns.max_chips)
    site_chips = planned.chips_at.sum(axis=2)
    several = (site_chips > 0).sum(axis=1) > 1
    smallest = np.where(site_chips > 0, site_chips, np.inf).min(axis=1)
    # one synchronous run: a class of several jobs is a pool of independent ones
    synchronous = columns.synchronous[rep] & (classes.size == 1)
    if participation == "relaxed":
        binds = (planned.spans | (several & (cap > smallest)))[rep]
    else:
        binds = several[rep]
    needs_span = binds & synchronous
    gradient = np.nan_to_num(columns.gradient_gb[rep], nan=0.0)
    traffic = ALLREDUCE_TRAFFIC_FACTOR * gradient * 8.0 / columns.sync_interval_s[rep]
    traffic = np.where(synchronous, traffic, 0.0)
    return (
        {
            "work_eflop": variable(
                "job", classes.total(columns.work_eflop), "EFLOP", "training compute to deliver"
            ),
            "mfu": variable(
                ("job", "system"),
                np.nan_to_num(rates.mfu[rep]),
                "1",
                "model FLOPs utilisation at the job's size on each system: the job's override, or "
                "the training step model's (docs/compute.md); 0 where no layout fits",
            ),
            "goodput": variable(
                ("job", "system"),
                rates.goodput[rep],
                "1",
                "fraction of time doing useful work after failures and checkpoints",
            ),
            "max_chips": variable("job", classes.total(cap), "chips", "most chips at any step"),
            "min_chips": variable(
                "job",
                classes.total(columns.min_chips),
                "chips",
                "chips kept in every step of the window",
            ),
            "tp": variable("job", columns.tp[rep], "1", "tensor-parallel degree"),
            "ep": variable("job", columns.ep[rep], "1", "expert-parallel degree"),
            "pp": variable("job", columns.pp[rep], "1", "pipeline-parallel degree"),
            "job_site_allowed": variable(
                ("job", "site"), columns.allowed[rep], "1", "job may run at the site (data residency)"
            ),
            "job_system_eligible": variable(
                ("job", "system"),
                rates.eligible[rep],
                "1",
                "the system's scale-up domain holds the TP x EP group",
            ),
            "job_pflops_per_chip": variable(
                ("job", "system"),
                rates.pflops[rep],
                "PFLOPS",
                "dense peak per chip at the job's precision (chip-hour jobs: one rate on every system)",
            ),
            "dp_traffic_gbit_s": variable(
                "job",
                traffic,
                "Gb/s",
                "DCI traffic at each site of a job split across sites (0 for a pool)",
            ),
            "pipeline_budget_ms": variable(
                "job",
                columns.pipeline_budget_ms[rep],
                "ms",
                "most one-way latency a pipeline stage may cross (NaN: none)",
            ),
            "job_weight": variable(
                ("job", "time"),
                window_weight[planned.window_id[rep]],
                "1",
                "how many times a step counts for a job: its weight where the step lies in the job's "
                "window (for typical days: the member days whose hour lies in the window; for a "
                "segment, the member-day hours in the window per hour of the segment)",
            ),
            "job_needs_span": variable(
                "job",
                needs_span,
                "1",
                "the job gets site-use variables (docs/model.md (6)): a synchronous job with two "
                "usable sites (with participation 'relaxed': one that may span linked sites or has "
                "more chips than a usable site; otherwise those LP rows could never bind)",
            ),
            "job_synchronous": variable(
                "job",
                synchronous,
                "1",
                "the job is one synchronous run, at each step only at sites linked pairwise "
                "(false: a pool of independent experiments, or a class of several jobs)",
            ),
            "job_members": variable("job", classes.size, "1", "training jobs merged into this class"),
            "job_cap_binds": variable(
                "job",
                ~classes.cap_redundant,
                "1",
                "the job's max_chips can bind (false: its work fits one step at its most chips on its "
                "slowest system, so the model leaves the rows out)",
            ),
            "job_free_split": variable(
                "job",
                classes.free,
                "1",
                "the class's members may split its plan any way (each fits one step at its chips)",
            ),
            "job_origin": variable(
                "job", columns.origin[rep], "1", "site index of the job's data (-1: none)"
            ),
            "job_data_gb": variable(
                "job",
                classes.total(columns.data_gb),
                "GB",
                "data moved to any site other than the origin",
            ),
            "job_first_step": variable(
                ("job", "site"),
                first_step[rep],
                "1",
                "first step the job may use at each site (its data must have arrived first)",
            ),
            **_member_variables(columns, classes),
        },
        classes,
    )


def _member_variables(columns: JobColumns, classes: JobClasses) -> dict[str, xr.Variable]:
    """One entry per training job, to split each class back in the results."""
    return {
        "member_class": variable(
            "job_member", classes.member_class, "1", "class (model job) of each training job"
        ),
        "member_work_eflop": variable(
            "job_member", columns.work_eflop, "EFLOP", "training compute of each job"
        ),
        "member_data_gb": variable(
            "job_member",
            columns.data_gb,
            "GB",
            "data of each job, moved when it runs away from its origin",
        ),
        "member_max_chips": variable(
            "job_member",
            columns.max_chips,
            "chips",
            "most chips of each job (NaN: every installed chip)",
        ),
        "member_start_h": variable(
            "job_member",
            columns.start_h,
            "h",
            "window start of each job, hours after the horizon's start",
        ),
        "member_end_h": variable(
            "job_member",
            columns.end_h,
            "h",
            "window end (deadline) of each job, hours after the horizon's start",
        ),
        "member_source": variable(
            "job_member",
            np.array([f"job_tables.{t}" if t else "training" for t in columns.table], dtype=str),
            "1",
            "where each job was given: the 'training' section or a job table",
        ),
        "member_row": variable(
            "job_member", columns.row, "1", "data row of each job in its table (0: YAML)"
        ),
    }


def transfer_variables(transfer: TransferCosts) -> dict[str, xr.Variable]:
    """Per GB moved between every pair of sites (rows: from, columns: to)."""
    return {
        "transfer_usd_per_gb": variable(
            ("site", "to_site"),
            transfer.usd_per_gb,
            "USD/GB",
            "transfer price of data moved between sites",
        ),
        "transfer_kwh_per_gb": variable(
            ("site", "to_site"),
            transfer.kwh_per_gb,
            "kWh/GB",
            "network energy of data moved between sites",
        ),
        "transfer_kg_per_gb": variable(
            ("site", "to_site"),
            transfer.kg_per_gb,
            "kgCO2e/GB",
            "emissions of that network energy at the mean grid carbon of the two sites",
        ),
    }
