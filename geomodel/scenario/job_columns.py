"""Training jobs as columns: one array entry per job, YAML jobs and table rows alike.

A scenario's ``training`` section and its job tables both become one
:class:`JobColumns` in the scenario's units (EFLOP, chips, hours from the start
of the horizon, GB), so the checks and the inputs Dataset treat a job from a
table of 100,000 rows exactly as one written in YAML, with numpy, not a loop.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog, LanguageModel
from geomodel.performance.jobs import JobEstimates, job_shape
from geomodel.scenario.schema import JobPool, JobTable, Scenario, TrainingJob, window_bounds

#: MFU of work given in chip-hours without a model shape: the job tables' default.
TIME_WORK_MFU = JobTable.model_fields["mfu"].default

#: 1 PFLOPS sustained for one hour, in EFLOP (3600 s x 1e15 FLOP / 1e18); the model's
#: work rows use the same factor (geomodel.model.basics, kept free of Pyomo here).
EFLOP_PER_PFLOPS_HOUR = 3.6


@dataclass
class JobColumns:
    """Training jobs as parallel arrays (length = number of jobs)."""

    name: np.ndarray  #: str
    table: np.ndarray  #: str: the job table a row came from, "" for a YAML job
    row: np.ndarray  #: int: 1-based data row in its table (0 for a YAML job)
    work_eflop: np.ndarray  #: work to deliver, EFLOP
    #: true when the work was given in chip-hours on any system alike: every system then
    #: runs the job at ``reference_pflops`` per chip
    uniform_rate: np.ndarray
    reference_pflops: np.ndarray  #: PFLOPS per chip of a uniform-rate job
    mfu: np.ndarray  #: the flat override; NaN: the performance model's per system
    precision: np.ndarray  #: "fp4", "fp8" or "bf16"
    model: np.ndarray  #: str: catalogue language model trained, "" for none
    params: np.ndarray  #: total parameters (NaN: unknown; the MFU model derives them)
    active_params: np.ndarray  #: parameters a token passes through (NaN: params)
    sequence_tokens: np.ndarray
    batch_tokens: np.ndarray  #: NaN: the step model's default for the job's chips
    max_chips: np.ndarray  #: NaN: every installed chip
    min_chips: np.ndarray  #: chips kept in every step of the window (0: may pause)
    tp: np.ndarray
    ep: np.ndarray
    pp: np.ndarray
    start_h: np.ndarray  #: window start, hours after the horizon's start (clipped to it)
    end_h: np.ndarray  #: window end (deadline, exclusive), hours after the horizon's start
    origin: np.ndarray  #: int: site index of the job's data, -1 for none
    data_gb: np.ndarray  #: data moved to any site other than the origin
    allowed: np.ndarray  #: bool (job, site): the job may run there
    gradient_gb: np.ndarray  #: NaN when unknown
    sync_interval_s: np.ndarray
    pipeline_budget_ms: np.ndarray  #: NaN: pipelines stay inside a site
    checkpoint_minutes: np.ndarray
    restart_minutes: np.ndarray
    #: false: the work already includes failures (goodput 1), as measured traces do
    goodput_modelled: np.ndarray
    #: false: a pool of independent experiments, placed at any sites at once (no exchange)
    synchronous: np.ndarray
    #: the job runs at one site at a time (a pool's members, sized to fit one)
    one_site: np.ndarray

    def __len__(self) -> int:
        return len(self.name)

    def take(self, index: np.ndarray) -> JobColumns:
        """The jobs at ``index`` (positions or a boolean mask)."""
        return JobColumns(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    @staticmethod
    def concat(parts: list[JobColumns], n_sites: int) -> JobColumns:
        """One set of columns from several (YAML jobs first, then each table)."""
        if not parts:
            return empty_columns(n_sites)
        return JobColumns(
            **{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(JobColumns)}
        )


def empty_columns(n_sites: int) -> JobColumns:
    """No jobs."""
    values = {f.name: np.zeros(0) for f in fields(JobColumns)}
    values.update(
        name=np.zeros(0, dtype=object),
        table=np.zeros(0, dtype=object),
        precision=np.zeros(0, dtype=object),
        model=np.zeros(0, dtype=object),
        row=np.zeros(0, dtype=np.int64),
        origin=np.zeros(0, dtype=np.int64),
        tp=np.zeros(0, dtype=np.int64),
        ep=np.zeros(0, dtype=np.int64),
        pp=np.zeros(0, dtype=np.int64),
        uniform_rate=np.zeros(0, dtype=bool),
        goodput_modelled=np.zeros(0, dtype=bool),
        synchronous=np.zeros(0, dtype=bool),
        one_site=np.zeros(0, dtype=bool),
        allowed=np.zeros((0, n_sites), dtype=bool),
    )
    return JobColumns(**values)


def peak_pflops(catalog: Catalog, system: str, precision: str) -> float:
    """Dense peak per chip of a catalogue system at ``precision``."""
    return catalog.hardware_system(system).dense_pflops_per_chip(precision)


def eflop_of_chip_hours(chip_hours, pflops, mfu):
    """Chip-hours at a peak (PFLOPS per chip) and an MFU, in EFLOP: the conversion of
    GPU-hours (docs/scenarios.md): 1 PFLOPS sustained for an hour is 3.6 EFLOP."""
    return chip_hours * pflops * mfu * EFLOP_PER_PFLOPS_HOUR


def yaml_job_columns(scenario: Scenario, catalog: Catalog) -> JobColumns:
    """The scenario's ``training`` section as columns, a pool as one column per member."""
    sites = list(scenario.sites)
    jobs = list(scenario.training.items())
    columns = empty_columns(len(sites))
    if not jobs:
        return columns
    horizon = scenario.time.start
    rows: dict[str, list] = {f.name: [] for f in fields(JobColumns)}
    members: list[list[tuple[str, float, float]]] = []  # (name, chips, share of work) per job
    pool_tables = getattr(scenario.origin, "pool_sizes", {}) if scenario.origin else {}
    for name, job in jobs:
        model = _language_model(job, catalog)
        params = model.params if model is not None else job.params
        active = model.active_params if model is not None else (job.active_params or job.params)
        work, uniform, reference = yaml_work(job, catalog, model)
        start, end = window_bounds(job, scenario.time)
        allowed = [
            (job.sites is None or site in job.sites)
            and (job.jurisdictions is None or spec.jurisdiction in job.jurisdictions)
            for site, spec in scenario.sites.items()
        ]
        gradient_gb = job.gradient_size or (2.0 * params / 1e9 if params else np.nan)
        checkpoint_gb = job.checkpoint_size or (14.0 * params / 1e9 if params else 0.0)
        values = {
            "name": name,
            "table": "",
            "row": 0,
            "work_eflop": work,
            "uniform_rate": uniform,
            "reference_pflops": reference,
            "mfu": _flat_mfu(job, params),
            "precision": job.precision,
            "model": job.model or "",
            "params": np.nan if params is None else params,
            "active_params": np.nan if active is None else active,
            "sequence_tokens": job.sequence_length,
            "batch_tokens": np.nan if job.batch_tokens is None else job.batch_tokens,
            "max_chips": np.nan if job.max_chips is None else float(job.max_chips),
            "min_chips": float(job.min_chips or 0),
            "tp": job.tp,
            "ep": job.ep,
            "pp": job.pp,
            "start_h": (start - horizon).total_seconds() / 3600.0,
            "end_h": (end - horizon).total_seconds() / 3600.0,
            "origin": sites.index(job.origin) if job.origin in sites else -1,
            "data_gb": job.data_size,
            "allowed": allowed,
            "gradient_gb": gradient_gb,
            "sync_interval_s": job.sync_interval,
            "pipeline_budget_ms": np.nan
            if job.pipeline_latency_budget is None
            else job.pipeline_latency_budget,
            "checkpoint_minutes": checkpoint_gb / job.checkpoint_bandwidth / 60.0,
            "restart_minutes": job.restart,
            "goodput_modelled": True,
            "synchronous": job.synchronous,
            "one_site": job.pool is not None,
        }
        for key, value in values.items():
            rows[key].append(value)
        single = [(name, values["max_chips"], 1.0)]
        members.append(
            single if job.pool is None else pool_members(name, job.pool, pool_tables.get(name))
        )
    dtypes = {
        "name": object,
        "table": object,
        "precision": object,
        "model": object,
        "allowed": bool,
        "one_site": bool,
    }
    # one column per member: a job's values repeated, with the member's name, chips and work
    counts = [len(m) for m in members]
    arrays = {
        key: np.repeat(np.array(values, dtype=dtypes.get(key)), counts, axis=0)
        for key, values in rows.items()
    }
    names, chips, shares = zip(*(member for m in members for member in m), strict=True)
    arrays["name"] = np.array(names, dtype=object)
    arrays["max_chips"] = np.array(chips, dtype=float)
    arrays["work_eflop"] = arrays["work_eflop"] * np.array(shares, dtype=float)
    return JobColumns(**arrays)


def pool_members(name: str, pool: JobPool, table: pd.DataFrame | None) -> list[tuple[str, float, float]]:
    """(member name, chips, share of the pool's work) of each member of a pool.

    Jobs are dealt to the sizes by their shares (largest remainder, every size with work
    keeping one job while there are jobs enough); work goes to each size in proportion
    to its GPU-hours (given by the table, or chips x jobs: equal durations) and evenly to
    the jobs of a size.
    """
    if table is None:
        chips = np.array(list(pool.sizes), dtype=float)
        share = np.array(list(pool.sizes.values()), dtype=float)
        hours = share * chips
    else:
        chips = table["chips"].to_numpy(dtype=float)
        share = table["jobs"].to_numpy(dtype=float)
        hours = table["gpu_hours"].to_numpy(dtype=float) if "gpu_hours" in table else share * chips
    chips = np.maximum(1.0, np.round(chips * pool.scale))
    counts = _deal(pool.jobs, share / share.sum())
    kept = counts > 0
    work = np.where(kept, hours, 0.0)
    work = work / work.sum()
    members = []
    for size, count, part in zip(chips[kept], counts[kept], work[kept], strict=True):
        members.extend((f"{name}.{size:g}c.{k + 1}", size, part / count) for k in range(count))
    return members


def _deal(jobs: int, shares: np.ndarray) -> np.ndarray:
    """``jobs`` whole jobs over the sizes by ``shares`` (largest remainder), each size
    at least one while there are as many jobs as sizes."""
    floor = np.floor(shares * jobs).astype(np.int64)
    if jobs >= len(shares):
        floor = np.maximum(floor, 1)
    while floor.sum() > jobs:
        floor[np.argmax(np.where(floor > 1, floor - shares * jobs, -np.inf))] -= 1
    remainder = shares * jobs - floor
    for k in np.argsort(-remainder)[: jobs - floor.sum()]:
        floor[k] += 1
    return floor


def _flat_mfu(job: TrainingJob, params: float | None) -> float:
    """A job's MFU override: its own, or for work given in chip-hours with no model shape
    the job tables' default (the step model cannot tell how such a job runs); NaN: the
    step model's, per system."""
    if job.mfu is not None:
        return job.mfu
    in_hours = job.gpu_hours is not None or job.chip_hours is not None
    return TIME_WORK_MFU if in_hours and params is None else np.nan


def _language_model(job: TrainingJob, catalog: Catalog) -> LanguageModel | None:
    """The catalogue model a job names (None when it names none or an unknown one, which
    the checks report)."""
    if job.model is None or job.model not in catalog.language_models:
        return None
    return catalog.language_model(job.model)


def yaml_work(
    job: TrainingJob, catalog: Catalog, model: LanguageModel | None = None
) -> tuple[float, bool, float]:
    """(work in EFLOP, uniform rate?, reference PFLOPS per chip) of a YAML job.

    GPU-hours convert through the named system's dense peak and the job's MFU there (its
    override, or the performance model's at the job's size); chip-hours count alike on
    every system, at the named system's peak (1 PFLOPS when none is named, a unit that
    cancels out, as does the MFU).
    """
    if job.compute_eflop is not None:
        return job.compute_eflop, False, np.nan
    if model is not None and job.tokens is not None:
        return 6.0 * model.active_params * job.tokens / 1e18, False, np.nan
    known = job.system is not None and job.system in catalog.hardware
    pflops = peak_pflops(catalog, job.system, job.precision) if known else 1.0
    if job.gpu_hours is not None:
        # an unknown system is reported by the checks; NaN keeps the job out of the model
        mfu = _flat_mfu(job, job.params or (model and model.params))
        if np.isnan(mfu) and known:
            mfu = _measured_mfu(job, catalog, model)
        return (eflop_of_chip_hours(job.gpu_hours, pflops, mfu) if known else np.nan), False, np.nan
    return eflop_of_chip_hours(job.chip_hours, pflops, _flat_mfu(job, None)), True, pflops


def _measured_mfu(job: TrainingJob, catalog: Catalog, model: LanguageModel | None) -> float:
    """The performance model's MFU of a GPU-hours job on the system they were measured on
    (NaN when the job gives no shape: the checks ask for 'mfu', 'params' or 'model')."""
    params = job.params if job.params is not None else np.nan
    batch = np.nan if job.batch_tokens is None else job.batch_tokens
    active = job.active_params if job.active_params is not None else np.nan
    shape = job_shape(model, params, np.nan, job.sequence_length, batch, active)
    if shape is None or job.max_chips is None:
        return np.nan
    system = catalog.hardware_system(job.system)
    active = model.active_params if model else (job.active_params or job.params)
    estimate = JobEstimates().estimate(
        shape, system, job.max_chips, job.precision, active, (job.tp, job.pp, job.ep)
    )
    return estimate.mfu if estimate.feasible else np.nan


def scenario_job_columns(scenario: Scenario, catalog: Catalog) -> JobColumns:
    """Every training job of a loaded scenario: the YAML jobs, then each job table's rows."""
    parts = [yaml_job_columns(scenario, catalog)]
    tables = getattr(scenario.origin, "job_tables", {}) if scenario.origin else {}
    parts.extend(tables[name] for name in scenario.job_tables if name in tables)
    return JobColumns.concat(parts, len(scenario.sites))


@dataclass
class SystemRates:
    """What each job gets from each hardware system, arrays shaped (job, system)."""

    eligible: np.ndarray  #: the system's scale-up domain holds the job's TP x EP group
    pflops: np.ndarray  #: dense peak per chip at the job's precision (or its uniform rate)
    goodput: np.ndarray  #: fraction of time doing useful work after failures and checkpoints
    mfu: np.ndarray  #: model FLOPs utilisation at the job's size (override, or modelled)
    mfu_note: np.ndarray  #: str: why a modelled MFU is missing ("" where it is known)

    def eflop_per_chip_hour(self) -> np.ndarray:
        """Useful work of one chip for one hour: peak x 3.6 x MFU x goodput, EFLOP."""
        return self.pflops * EFLOP_PER_PFLOPS_HOUR * self.mfu * self.goodput


def system_rates(
    columns: JobColumns, systems: list[str], catalog: Catalog, total_chips: float
) -> SystemRates:
    """Eligibility, peak, goodput and MFU of every job on every system.

    Goodput and MFU are evaluated at the job's most chips (all installed chips when it
    has no maximum), each distinct case once: goodput by the reliability tool, MFU by
    the training step model (:mod:`geomodel.performance.training`) unless the job gives
    its own; jobs whose work already includes failures (measured traces) have goodput 1.
    """
    from geomodel.tools.reliability import goodput_factor

    n = len(columns)
    specs = [catalog.hardware_system(s) for s in systems]
    eligible = np.zeros((n, len(systems)), dtype=bool)
    pflops = np.zeros((n, len(systems)))
    goodput = np.ones((n, len(systems)))
    group = columns.tp * columns.ep
    chips = np.where(np.isnan(columns.max_chips), total_chips, columns.max_chips)
    chips = np.maximum(1, chips).astype(np.int64)
    modelled = np.flatnonzero(columns.goodput_modelled)
    for k, spec in enumerate(specs):
        eligible[:, k] = spec.scale_up_domain_chips >= group
        for number_format in np.unique(columns.precision):
            if spec.supports(number_format):
                pflops[columns.precision == number_format, k] = spec.dense_pflops_per_chip(number_format)
            else:
                eligible[columns.precision == number_format, k] = False
        pflops[:, k] = np.where(columns.uniform_rate, columns.reference_pflops, pflops[:, k])
        if len(modelled):
            keys = np.stack(
                [
                    chips[modelled],
                    columns.checkpoint_minutes[modelled],
                    columns.restart_minutes[modelled],
                ]
            )
            unique, inverse = np.unique(keys, axis=1, return_inverse=True)
            values = [goodput_factor(spec, int(c), float(m), float(r)) for c, m, r in unique.T]
            goodput[modelled, k] = np.asarray(values)[inverse.ravel()]
    mfu, note = _job_mfu(columns, specs, chips, catalog)
    eligible &= ~np.isnan(mfu)
    return SystemRates(eligible=eligible, pflops=pflops, goodput=goodput, mfu=mfu, mfu_note=note)


def _job_mfu(columns: JobColumns, specs: list, chips: np.ndarray, catalog: Catalog):
    """(job, system) MFU: the override where a job gives one, else the step model's at the
    job's chips; a uniform-rate job's MFU cancels out (1). NaN, with a note, where the
    model finds no layout that fits."""
    n = len(columns)
    mfu = np.repeat(columns.mfu[:, None], len(specs), axis=1)
    mfu[columns.uniform_rate & np.isnan(columns.mfu)] = 1.0
    note = np.full((n, len(specs)), "", dtype=object)
    estimates = JobEstimates()
    modelled = np.flatnonzero(np.isnan(mfu).any(axis=1))
    _, first, case = np.unique(
        _mfu_cases(columns, chips, modelled), axis=0, return_index=True, return_inverse=True
    )
    for j in modelled[first]:  # one job of each case: a pool's members share one
        model = catalog.language_models.get(columns.model[j]) if columns.model[j] else None
        shape = job_shape(
            model,
            columns.params[j],
            columns.work_eflop[j] * 1e18,
            columns.sequence_tokens[j],
            columns.batch_tokens[j],
            columns.active_params[j],
        )
        if shape is None:
            note[j] = "no shape: give 'mfu', 'params' or 'model'"
            continue
        active = columns.active_params[j]
        active = shape.params if np.isnan(active) else active
        degrees = (int(columns.tp[j]), int(columns.pp[j]), int(columns.ep[j]))
        for k, spec in enumerate(specs):
            if not spec.supports(columns.precision[j]):
                continue
            estimate = estimates.estimate(shape, spec, chips[j], columns.precision[j], active, degrees)
            mfu[j, k] = estimate.mfu if estimate.feasible else np.nan
            note[j, k] = estimate.reason
    source = modelled[first][case.ravel()]
    mfu[modelled], note[modelled] = mfu[source], note[source]
    return mfu, note


def _mfu_cases(columns: JobColumns, chips: np.ndarray, jobs: np.ndarray) -> np.ndarray:
    """A row per job of ``jobs`` of what its MFU depends on (model or shape, layout,
    precision, chips): equal rows, equal MFU. Unknown figures (NaN) read as -1, which no
    figure of a job can be."""
    figures = ("params", "work_eflop", "sequence_tokens", "batch_tokens", "active_params")
    figures += ("tp", "pp", "ep")
    names = [
        np.unique(getattr(columns, name)[jobs], return_inverse=True)[1].ravel()
        for name in ("model", "precision")
    ]
    numbers = [np.nan_to_num(getattr(columns, name)[jobs].astype(float), nan=-1.0) for name in figures]
    return np.column_stack([*names, *numbers, chips[jobs]])


def usable_chips(columns: JobColumns, rates: SystemRates, chips: np.ndarray) -> np.ndarray:
    """(job, site, system) chips a job could use: allowed site, eligible system, installed there.

    ``chips`` is (site, system): installed chips x availability.
    """
    usable = columns.allowed[:, :, None] & rates.eligible[:, None, :] & (chips[None] > 0)
    return usable * chips[None]


def may_span(columns: JobColumns, at_site: np.ndarray, links: list, sites: list[str]) -> np.ndarray:
    """Jobs with two usable sites (``at_site``: job x site) joined by a link whose one-way
    latency fits the job's pipeline budget (any link when it has none); a pool's members
    run at one site."""
    budget_ms = columns.pipeline_budget_ms
    spans = np.zeros(at_site.shape[0], dtype=bool)
    for link in links:
        a, b = sites.index(link.site_a), sites.index(link.site_b)
        fast = np.isnan(budget_ms) | (link.latency_ms <= budget_ms)
        spans |= at_site[:, a] & at_site[:, b] & fast
    return spans & ~columns.one_site
