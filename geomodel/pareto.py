"""Pareto mode: an epsilon-constraint sweep between the ends of a trade-off.

For ``latency`` the swept quantity is the mean round trip of served demand (ms),
for ``carbon`` total emissions (tCO2e). One end is the weighted optimum, the
other the least the term can be; the points in between minimise the weighted
objective with the term bounded (Haimes et al. 1971). The model changes this
needs live in :mod:`geomodel.pareto_model`; the front as a table in
:mod:`geomodel.results.front`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import xarray as xr

from geomodel.api import Progress, solve_epsilon_points, solve_inputs
from geomodel.inputs.dataset import variable
from geomodel.plugin_loader import PluginHost
from geomodel.results.front import PARETO_DIM
from geomodel.results.result import Result, attach_kpis
from geomodel.results.stack import stack_results

#: term -> (KPI that measures it, units)
PARETO_TERMS = {"latency": ("latency_ms_mean", "ms"), "carbon": ("emissions_tco2", "tCO2e")}


@dataclass
class ParetoFront:
    """All points of a sweep, in order of the bound from tight to loose."""

    term: str
    bounds: list[float]
    points: list[Result]

    def dataset(self) -> xr.Dataset:
        """The points' results along a ``pareto`` dimension, with each KPI as a variable.

        The attributes (KPIs, messages) are those of the weighted optimum, the last
        point, so a saved front's ``kpis`` are the plan an ordinary run gives; the
        other points' messages follow, each with its point's number.
        """
        combined = stack_results(
            [p.dataset for p in self.points], [p.kpis for p in self.points], PARETO_DIM
        )
        kpi, units = PARETO_TERMS[self.term]
        combined = combined.assign_coords(epsilon=(PARETO_DIM, np.asarray(self.bounds)))
        combined["epsilon"].attrs.update(
            units=units,
            description=f"bound on {kpi} (the weighted optimum's own value at the last point)",
        )
        combined["point_status"] = variable(
            PARETO_DIM, [p.status for p in self.points], "", "solver status of each point"
        )
        last = self.points[-1]
        messages = list(last.messages) + [
            f"point {n}: {message}"
            for n, point in enumerate(self.points[:-1], start=1)
            for message in point.messages
        ]
        combined.attrs = dict(last.dataset.attrs)
        attach_kpis(combined, last.kpis, messages)
        combined.attrs.update(pareto_term=self.term, pareto_points=len(self.points))
        return combined

    def result(self) -> Result:
        """The front as one :class:`Result`: ``.front`` is the table, ``.kpis`` the
        weighted optimum's, ``.dataset`` every point along ``pareto``."""
        combined = self.dataset()
        last = self.points[-1]
        return Result(
            inputs=last.inputs,
            dataset=combined,
            kpis=dict(last.kpis),
            messages=json.loads(combined.attrs["messages"]),
        )


def pareto_front(
    inputs: xr.Dataset,
    term: str,
    points: int,
    host: PluginHost | None = None,
    progress: Progress | None = None,
    solve_points: Callable[..., list[Result]] = solve_epsilon_points,
    allow_broken_extensions: bool | None = None,
) -> ParetoFront:
    """Solve ``points`` epsilon-bounded problems between the two ends of ``term``.

    ``solve_points(inputs, term, bounds, host=, progress=)`` solves the points
    between the ends (bench/resolve.py compares ways of doing it).
    """
    allow = {"allow_broken_extensions": allow_broken_extensions}
    if term not in PARETO_TERMS:
        raise ValueError(f"unknown Pareto term {term!r}; use {' or '.join(PARETO_TERMS)}")
    if points < 2:
        raise ValueError(f"a Pareto sweep needs at least 2 points, got {points}")
    kpi, _ = PARETO_TERMS[term]
    loose = solve_inputs(inputs, host=host, progress=progress, **allow)
    tight = solve_inputs(inputs, host=host, progress=progress, minimise=term, **allow)
    if not (loose.ok and tight.ok):
        failed = loose if not loose.ok else tight
        return ParetoFront(term, [float("nan")], [failed])
    low, high = float(tight.kpis[kpi]), float(loose.kpis[kpi])
    bounds = list(np.linspace(low, high, points))
    bounds[0] = low * (1 + 1e-7) + 1e-9  # a hair above the minimum, against round-off
    extra = allow if allow_broken_extensions is not None else {}  # bench stand-ins lack it
    results = solve_points(inputs, term, bounds[:-1], host=host, progress=progress, **extra)
    return ParetoFront(term, bounds, [*results, loose])
