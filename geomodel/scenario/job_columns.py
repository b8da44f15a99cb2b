"""Training jobs as columns: one array entry per job, YAML jobs and table rows alike.

A scenario's ``training`` section and its job tables both become one
:class:`JobColumns` in the scenario's units (EFLOP, chips, hours from the start
of the horizon, GB), so the checks and the inputs Dataset treat a job from a
table of 100,000 rows exactly as one written in YAML, with numpy, not a loop.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from geomodel.catalog import Catalog
from geomodel.scenario.schema import Scenario, TrainingJob, window_bounds

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
    mfu: np.ndarray
    precision: np.ndarray  #: "bf16" or "fp8"
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
        row=np.zeros(0, dtype=np.int64),
        origin=np.zeros(0, dtype=np.int64),
        tp=np.zeros(0, dtype=np.int64),
        ep=np.zeros(0, dtype=np.int64),
        pp=np.zeros(0, dtype=np.int64),
        uniform_rate=np.zeros(0, dtype=bool),
        goodput_modelled=np.zeros(0, dtype=bool),
        synchronous=np.zeros(0, dtype=bool),
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
    """The scenario's ``training`` section as columns."""
    sites = list(scenario.sites)
    jobs = list(scenario.training.items())
    columns = empty_columns(len(sites))
    if not jobs:
        return columns
    horizon = scenario.time.start
    rows: dict[str, list] = {f.name: [] for f in fields(JobColumns)}
    for name, job in jobs:
        work, uniform, reference = yaml_work(job, catalog)
        start, end = window_bounds(job, scenario.time)
        allowed = [
            (job.sites is None or site in job.sites)
            and (job.jurisdictions is None or spec.jurisdiction in job.jurisdictions)
            for site, spec in scenario.sites.items()
        ]
        values = {
            "name": name,
            "table": "",
            "row": 0,
            "work_eflop": work,
            "uniform_rate": uniform,
            "reference_pflops": reference,
            "mfu": job.mfu,
            "precision": job.precision,
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
            "gradient_gb": np.nan if job.gradient_gb is None else job.gradient_gb,
            "sync_interval_s": job.sync_interval,
            "pipeline_budget_ms": np.nan
            if job.pipeline_latency_budget is None
            else job.pipeline_latency_budget,
            "checkpoint_minutes": job.checkpoint_gb / job.checkpoint_bandwidth / 60.0,
            "restart_minutes": job.restart,
            "goodput_modelled": True,
            "synchronous": job.synchronous,
        }
        for key, value in values.items():
            rows[key].append(value)
    dtypes = {"name": object, "table": object, "precision": object, "allowed": bool}
    return JobColumns(**{key: np.array(values, dtype=dtypes.get(key)) for key, values in rows.items()})


def yaml_work(job: TrainingJob, catalog: Catalog) -> tuple[float, bool, float]:
    """(work in EFLOP, uniform rate?, reference PFLOPS per chip) of a YAML job.

    GPU-hours convert through the named system's dense peak and the job's MFU;
    chip-hours count alike on every system, at the named system's peak (1 PFLOPS
    when none is named, a unit that cancels out).
    """
    if job.compute_eflop is not None:
        return job.compute_eflop, False, np.nan
    known = job.system is not None and job.system in catalog.hardware
    pflops = peak_pflops(catalog, job.system, job.precision) if known else 1.0
    if job.gpu_hours is not None:
        # an unknown system is reported by the checks; NaN keeps the job out of the model
        return (eflop_of_chip_hours(job.gpu_hours, pflops, job.mfu) if known else np.nan), False, np.nan
    return eflop_of_chip_hours(job.chip_hours, pflops, job.mfu), True, pflops


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

    def eflop_per_chip_hour(self, columns: JobColumns) -> np.ndarray:
        """Useful work of one chip for one hour: peak x 3.6 x MFU x goodput, EFLOP."""
        return self.pflops * EFLOP_PER_PFLOPS_HOUR * columns.mfu[:, None] * self.goodput


def system_rates(
    columns: JobColumns, systems: list[str], catalog: Catalog, total_chips: float
) -> SystemRates:
    """Eligibility, peak and goodput of every job on every system.

    The goodput factor is the reliability tool's at the job's most chips (all
    installed chips when it has no maximum), computed once per distinct
    (system, chips, checkpoint, restart); jobs whose work already includes
    failures (measured traces) have goodput 1.
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
        for number_format in ("bf16", "fp8"):
            pflops[columns.precision == number_format, k] = spec.dense_pflops_per_chip(number_format)
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
    return SystemRates(eligible=eligible, pflops=pflops, goodput=goodput)


def usable_chips(columns: JobColumns, rates: SystemRates, chips: np.ndarray) -> np.ndarray:
    """(job, site, system) chips a job could use: allowed site, eligible system, installed there.

    ``chips`` is (site, system): installed chips x availability.
    """
    usable = columns.allowed[:, :, None] & rates.eligible[:, None, :] & (chips[None] > 0)
    return usable * chips[None]


def may_span(at_site: np.ndarray, links: list, sites: list[str], budget_ms: np.ndarray) -> np.ndarray:
    """Jobs with two usable sites (``at_site``: job x site) joined by a link whose one-way
    latency fits the job's pipeline budget (any link when it has none)."""
    spans = np.zeros(at_site.shape[0], dtype=bool)
    for link in links:
        a, b = sites.index(link.site_a), sites.index(link.site_b)
        fast = np.isnan(budget_ms) | (link.latency_ms <= budget_ms)
        spans |= at_site[:, a] & at_site[:, b] & fast
    return spans
