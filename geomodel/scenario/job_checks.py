"""Checks of every training job, YAML and table rows alike, on whole columns.

* names a YAML job refers to (``system``, ``origin``) and what table rows need;
* a job that may span sites joined by a link needs its gradient size (and only then);
* the TP x EP group fits a system the job may use, one replica fits its chips;
* the job can deliver its work in its window at its chips, and when only the
  goodput factor stops it, the warning names the defaults behind that factor.

The window checks are necessary conditions (a job alone on the fleet), reported
as warnings: such a job makes the model infeasible, and the solve explains it;
the model may also be infeasible when jobs compete for the same chips.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from geomodel.scenario.job_columns import (
    JobColumns,
    may_span,
    scenario_job_columns,
    system_rates,
    usable_chips,
)
from geomodel.scenario.jobtable import row_problem
from geomodel.scenario.network import scenario_links
from geomodel.tools.work_bound import fastest_chips_rates

#: Relative slack when comparing the work a window allows with the work asked for.
TOLERANCE = 1e-9


def check_jobs(c: Any) -> None:
    """Every training-job check that needs the catalogue (``c`` is a scenario Checker)."""
    scenario, catalog = c.scenario, c.catalog
    for name, job in scenario.training.items():
        path = ("training", name)
        if job.system is not None:
            c.known((*path, "system"), job.system, catalog.hardware, "hardware system")
        if job.origin is not None and job.origin not in scenario.sites:
            c.add(
                (*path, "origin"),
                f"unknown site {job.origin!r}; known sites: {', '.join(scenario.sites)}",
            )
        if job.data_size > 0 and job.origin is None:
            c.add((*path, "data_size"), "data needs an 'origin' site to move from")
    if scenario.data_movement.delay and scenario.time.aggregation is not None:
        c.add(
            ("data_movement", "delay"),
            "the data-movement delay needs plain time steps: typical days have no calendar "
            "to wait on (drop time.aggregation or the delay)",
        )
    installed = {s for site in scenario.sites.values() for s in site.most_systems}
    if not installed <= set(catalog.hardware) or any(
        job.system is not None and job.system not in catalog.hardware
        for job in scenario.training.values()
    ):
        return  # unknown names are reported by the other checks
    columns = scenario_job_columns(scenario, catalog)
    if not len(columns):
        return
    _Judge(c, columns).run()


class _Judge:
    """The column checks of one scenario's jobs, reporting per YAML job or per table rows."""

    def __init__(self, c: Any, columns: JobColumns) -> None:
        self.c = c
        self.columns = columns
        scenario, catalog = c.scenario, c.catalog
        self.systems = sorted({s for site in scenario.sites.values() for s in site.most_systems})
        specs = [catalog.hardware_system(s) for s in self.systems]
        # chips there could be: installed, or the build maximum where systems may be added
        self.installed = np.array(
            [
                [
                    site.most_systems.get(s, 0) * h.chips_per_system * site.utilisation
                    for s, h in zip(self.systems, specs, strict=True)
                ]
                for site in scenario.sites.values()
            ],
            dtype=float,
        ).reshape(len(scenario.sites), len(self.systems))
        self.domains = np.array([h.scale_up_domain_chips for h in specs], dtype=float)
        self.rates = system_rates(columns, self.systems, catalog, float(self.installed.sum()))
        origin = scenario.origin
        self.labels = getattr(origin, "job_table_labels", {}) if origin else {}

    def report(
        self,
        bad: np.ndarray,
        yaml_field: str | None,
        column: str | None,
        message: str,
        detail=None,
        warning: bool = False,
    ) -> None:
        """``message`` for each YAML job in ``bad`` and one line per table for its rows.

        ``detail(j)`` adds the figures of one job: each YAML job gets its own, a
        table's line gets those of its first bad row.
        """
        columns = self.columns
        for j in np.flatnonzero(bad & (columns.table == "")):
            path = ("training", str(columns.name[j]), *([yaml_field] if yaml_field else []))
            self.c.add(path, message + (f": {detail(j)}" if detail else ""), warning=warning)
        for table in pd.unique(columns.table[bad & (columns.table != "")]):
            rows = np.flatnonzero(bad & (columns.table == table))
            first = rows[0]
            text = message + (f"; first, job {columns.name[first]}: {detail(first)}" if detail else "")
            self.c.problems.append(
                row_problem(table, self.labels[table], columns.row[rows], column, text, warning=warning)
            )

    def run(self) -> None:
        columns = self.columns
        chips = usable_chips(columns, self.rates, self.installed)
        usable = chips > 0
        tables = columns.table != ""
        fits = usable.any(axis=(1, 2))
        largest = self.domains.max() if len(self.domains) else 0
        self.report(
            tables & ~fits & columns.allowed.any(axis=1),
            None,
            "tp",
            f"the TP x EP group fits the scale-up domain of no installed system at the allowed sites "
            f"(largest: {largest:g} chips)",
            lambda j: f"TP x EP = {columns.tp[j] * columns.ep[j]}",
        )
        replica = columns.tp * columns.ep * columns.pp
        self.report(
            tables & (columns.max_chips < replica),
            None,
            "chips",
            "its chips are fewer than one replica of TP x EP x PP",
            lambda j: f"{columns.max_chips[j]:g} < {replica[j]}",
        )
        spans = self._may_span(usable)
        self.report(
            spans & np.isnan(columns.gradient_gb),
            "gradient_size",
            "gradient_gb",
            "the job may span sites joined by a link, so its data-parallel exchange needs "
            "'gradient_size' (YAML) or 'gradient_gb' (tables), or 'params' to derive it",
        )
        self._window(chips, spans, fits)

    def _may_span(self, usable: np.ndarray) -> np.ndarray:
        """Jobs with two usable sites joined by a link fast enough for their pipeline."""
        scenario = self.c.scenario
        try:
            links = scenario_links(scenario, self.c.catalog)
        except LookupError:
            return np.zeros(len(self.columns), dtype=bool)  # reported by the link checks
        return may_span(self.columns, usable.any(axis=2), links, list(scenario.sites))

    def _window(self, chips_at: np.ndarray, spans: np.ndarray, fits: np.ndarray) -> None:
        """The work fits the window at the job's chips, with and without the goodput factor."""
        columns, rates, time = self.columns, self.rates, self.c.scenario.time
        usable = chips_at > 0
        site_chips = chips_at.sum(axis=2)  # (job, site)
        reachable = np.where(spans, site_chips.sum(axis=1), site_chips.max(axis=1, initial=0))
        chips = np.fmin(columns.max_chips, reachable)
        step = 1.0 if time.aggregation is not None else float(time.resolution)
        steps = np.floor(columns.end_h / step + 1e-9) - np.ceil(columns.start_h / step - 1e-9)
        window_h = np.maximum(steps, 0) * step
        any_usable = usable.any(axis=1)  # (job, system)
        ideal = np.where(any_usable, np.nan_to_num(rates.pflops * 3.6 * rates.mfu), 0.0)
        actual = ideal * rates.goodput
        need = columns.work_eflop * (1 - TOLERANCE)
        at_best = window_h * _fastest_first(chips_at, ideal, columns.max_chips, spans)
        with_goodput = window_h * _fastest_first(chips_at, actual, columns.max_chips, spans)
        # an empty window is reported by the training checks
        known = fits & ~np.isnan(columns.work_eflop) & (columns.end_h > columns.start_h)
        short = known & (at_best < need)
        # quoted as the run's precheck quotes it (geomodel/solver/precheck.py): EFLOP with
        # MFU and goodput applied, in whole numbers, so both name the same limit
        self.report(
            short,
            "window",
            None,
            "cannot deliver its work in its window",
            lambda j: (
                f"at most {chips[j]:,.0f} chips for {window_h[j]:g} h give at most "
                f"{with_goodput[j]:,.0f} of the {columns.work_eflop[j]:,.0f} EFLOP it needs "
                "(MFU and goodput applied)"
            ),
            warning=True,
        )
        self.report(
            known & ~short & (with_goodput < need),
            "restart",
            None,
            "cannot deliver its work in its window once failures are counted",
            lambda j: self._goodput_reason(j, chips[j], window_h[j], with_goodput[j]),
            warning=True,
        )
        slowest = np.where(any_usable, actual, np.inf).min(axis=1, initial=np.inf)
        with np.errstate(invalid="ignore"):
            floor = np.where(columns.min_chips > 0, columns.min_chips * window_h * slowest, 0.0)
        self.report(
            known & (columns.min_chips > 0) & (floor > columns.work_eflop * (1 + TOLERANCE)),
            "min_chips",
            "min_chips",
            "keeping min_chips in every step of the window does more work than the job needs "
            "(work is delivered exactly, never exceeded)",
            lambda j: (
                f"{columns.min_chips[j]:g} chips for {window_h[j]:g} h give at least "
                f"{floor[j]:,.4g} of {columns.work_eflop[j]:,.4g} EFLOP"
            ),
            warning=True,
        )

    def _goodput_reason(self, j: int, chips: float, window_h: float, delivered: float) -> str:
        """Which figures the goodput factor came from, defaults named as such."""
        columns, c = self.columns, self.c
        best = int(np.argmax(np.where(self.rates.eligible[j], self.rates.goodput[j], 0)))
        goodput = self.rates.goodput[j, best]
        if columns.table[j] == "":
            job = c.scenario.training[str(columns.name[j])]
            given = job.model_fields_set
            restart = f"restart {job.restart:g} min" + ("" if "restart" in given else " (default)")
            if "checkpoint_size" in given:
                checkpoint = f"checkpoint {job.checkpoint_gb:g} GB"
            elif job.params is not None:
                checkpoint = f"checkpoint {job.checkpoint_gb:g} GB (default 14 B/param)"
            else:
                checkpoint = "no checkpoint"
            if "checkpoint_bandwidth" not in given and job.checkpoint_gb:
                checkpoint += f" at {job.checkpoint_bandwidth:g} GB/s (default)"
        else:
            spec = c.scenario.job_tables[str(columns.table[j])]
            restart = f"restart {spec.restart:g} min" + (
                "" if "restart" in spec.model_fields_set else " (default)"
            )
            checkpoint = "failures_in_work: false"
        return (
            f"{chips:,.0f} chips for {window_h:g} h give {delivered:,.4g} of the "
            f"{columns.work_eflop[j]:,.4g} EFLOP at goodput {goodput:.4f} on {self.systems[best]} "
            f"({restart}, {checkpoint}, MTBF of {chips:,.0f} chips)"
        )


def _fastest_first(
    chips_at: np.ndarray, rate: np.ndarray, max_chips: np.ndarray, spans: np.ndarray
) -> np.ndarray:
    """(job) work per hour of each job's fastest usable chips, at most max_chips: over all
    its sites where it may span them, else at its best site."""
    jobs, sites, systems = chips_at.shape
    rates = np.broadcast_to(np.asarray(rate, dtype=float)[:, None, :], chips_at.shape)
    at_best_site = fastest_chips_rates(chips_at, rates, max_chips).max(axis=1, initial=0.0)
    flat = (jobs, 1, sites * systems)  # every (site, system) of a job in one group
    spanning = fastest_chips_rates(chips_at.reshape(flat), rates.reshape(flat), max_chips)[:, 0]
    return np.where(spans, spanning, at_best_site)
