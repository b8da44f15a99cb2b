"""The result's views, cached: every chart, map and table of a finished run, built once
per (run cache, scenario hash, options) and reused on every rerun of any session (the
scenario page's views are in ``ui.scenario_views``).

A finished run never changes (its hash names its inputs), so what is drawn from it can be
kept: a widget change, a page switch or a run ending elsewhere reruns the script, and each
view is then a cache hit instead of a redraw (docs/app.md, "Caching"). The builders are
the plain functions of ``components``; these wrappers only key them.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from geomodel.results.breakdown import breakdown_table
from geomodel.ui import loaders
from geomodel.ui.components import charts, energy, result_map
from geomodel.ui.components import jobs as trace
from geomodel.ui.components.build_map import build_deck
from geomodel.ui.components.deck import MapDrawing, map_panels
from geomodel.ui.components.plan import build_table, cost_breakdown
from geomodel.ui.timeline import Timeline, timeline

ENTRIES = 64


def _result(folder: str, scenario_hash: str):
    return loaders.result(folder, scenario_hash)


def _both(folder: str, scenario_hash: str) -> tuple:
    """The run's results and inputs Datasets."""
    result = loaders.result(folder, scenario_hash)
    return result.dataset, result.inputs


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def steps(folder: str, scenario_hash: str) -> Timeline:
    return timeline(_result(folder, scenario_hash).inputs)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def power(folder: str, scenario_hash: str, site: str, year: bool = False) -> go.Figure:
    result = _result(folder, scenario_hash)
    if year:
        return energy.year_figure(result.calendar(), site)
    return energy.power_figure(result.dataset, steps(folder, scenario_hash), site)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def balance(folder: str, scenario_hash: str) -> pd.DataFrame:
    return energy.energy_balance(*_both(folder, scenario_hash))


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def generation(folder: str, scenario_hash: str) -> go.Figure:
    return energy.generation_figure(
        balance(folder, scenario_hash), _result(folder, scenario_hash).dataset
    )


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def curtailment(folder: str, scenario_hash: str) -> pd.DataFrame:
    return energy.curtailment_table(*_both(folder, scenario_hash))


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def duration(folder: str, scenario_hash: str, what: str) -> go.Figure:
    return energy.duration_figure(
        _result(folder, scenario_hash).dataset, steps(folder, scenario_hash), what
    )


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def placement(folder: str, scenario_hash: str, kind: str, name: str) -> go.Figure:
    data = _result(folder, scenario_hash).dataset
    return charts.placement_heatmap(data, steps(folder, scenario_hash), kind, name)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def latency(folder: str, scenario_hash: str) -> go.Figure:
    return charts.latency_distribution(*_both(folder, scenario_hash))


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def utilisation(folder: str, scenario_hash: str, measure: str) -> go.Figure:
    return charts.utilisation(*_both(folder, scenario_hash), steps(folder, scenario_hash), measure)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def links(folder: str, scenario_hash: str, measure: str) -> tuple[go.Figure, int]:
    result = _result(folder, scenario_hash)
    data, inputs = result.dataset, result.inputs
    figure = charts.link_traffic(data, inputs, steps(folder, scenario_hash), measure)
    return figure, charts.undercharged_steps(data, inputs)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def workloads(folder: str, scenario_hash: str) -> tuple[pd.DataFrame, go.Figure | None]:
    frame = breakdown_table(_result(folder, scenario_hash).dataset)
    return frame, (charts.workload_bars(frame) if not frame.empty else None)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def panels(folder: str, scenario_hash: str, width: float) -> list[tuple[frozenset[str], float]]:
    """The panels the run's maps are drawn in (two when an ocean lies between its sites)."""
    inputs = _result(folder, scenario_hash).inputs
    points = {}
    for kind in ("site", "region"):
        if inputs.sizes.get(kind):
            lons, lats = inputs[f"{kind}_lon"].values, inputs[f"{kind}_lat"].values
            where = zip(inputs[kind].values, lons, lats, strict=True)
            points.update({str(n): (float(x), float(y)) for n, x, y in where})
    return map_panels(points, width)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def result_map_drawing(
    folder: str,
    scenario_hash: str,
    work: tuple[str, str],
    when: int | None,
    width: float,
    framed: frozenset[str] | None = None,
    show: str = "use",
) -> MapDrawing:
    result = _result(folder, scenario_hash)
    return result_map.result_deck(
        result.dataset, result.inputs, work, when, width=width, framed=framed, show=show
    )


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def build_map_drawing(
    folder: str,
    scenario_hash: str,
    size_by: str,
    width: float,
    largest: float | None = None,
    framed: frozenset[str] | None = None,
) -> MapDrawing:
    result = _result(folder, scenario_hash)
    return build_deck(
        result.dataset, result.inputs, size_by, width=width, largest=largest, framed=framed
    )


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def builds(folder: str, scenario_hash: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The build table and the cost breakdown of a plan."""
    result = _result(folder, scenario_hash)
    return build_table(result.dataset, result.inputs), cost_breakdown(result.dataset, result.inputs)


@st.cache_data(max_entries=ENTRIES, show_spinner="Following every job…")
def jobs(folder: str, scenario_hash: str) -> pd.DataFrame:
    return trace.job_outcomes(*_both(folder, scenario_hash))


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def job_summary(folder: str, scenario_hash: str) -> pd.DataFrame:
    return trace.outcome_summary(jobs(folder, scenario_hash))


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def job_table(folder: str, scenario_hash: str, text: str, outcome: str | None) -> pd.DataFrame:
    """The jobs matching a search, with their times as UTC date-times."""
    start = _result(folder, scenario_hash).inputs["time"].values[0]
    return trace.with_clock(trace.matching(jobs(folder, scenario_hash), text, outcome), start)
