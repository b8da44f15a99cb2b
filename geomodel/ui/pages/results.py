"""Results page: what a run is, its KPIs, and its views: the map, energy, jobs, shadow
prices, placement, latency, utilisation, links, workloads and every KPI.

Each tab is a fragment: a widget inside it reruns that tab alone, and every chart, map
and table comes from ``ui.figures`` (cached by run), so a rerun draws nothing anew.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from geomodel.inputs.dataset import is_planning
from geomodel.ui import figures, loaders, sessions, state
from geomodel.ui.components import charts, energy
from geomodel.ui.components.deck import WIDE
from geomodel.ui.components.jobs_view import has_jobs, show_jobs
from geomodel.ui.components.kpis import kpi_frame, kpi_text_frame, show_kpis
from geomodel.ui.components.map_panels import map_option, show_map
from geomodel.ui.components.pathway_view import show_pathway
from geomodel.ui.components.plan_view import show_plan
from geomodel.ui.components.problems import plain, show_messages
from geomodel.ui.components.result_map import ALL, SITES_SHOW
from geomodel.ui.components.run_panel import (
    cache_folder,
    record_plan_kind,
    run_label,
    show_plan_kind,
    show_quality,
    show_status,
)
from geomodel.ui.components.shadow_view import show_shadow_prices
from geomodel.ui.components.tables import show_table
from geomodel.ui.format import human
from geomodel.ui.paths import page_file
from geomodel.ui.run_store import RunStore


def pick_run(records: list[dict]) -> dict:
    """The run to show: the one the scenario page showed last, else the one picked here
    before, else the one in the address (a reload, a shared link), else the session's
    last, else the newest."""
    by_hash = {r["hash"]: r for r in records}
    requested = state.pop(state.OPEN_RUN)
    if requested in by_hash:
        state.put(state.RESULT_PICK, requested)
    elif state.get(state.RESULT_PICK) not in by_hash:
        wanted = [st.query_params.get(state.RUN_PARAM), state.get(state.LAST_RUN)]
        state.put(state.RESULT_PICK, next((h for h in wanted if h in by_hash), records[0]["hash"]))
    chosen = st.selectbox(
        "Run", list(by_hash), format_func=lambda h: run_label(by_hash[h]), key=state.RESULT_PICK
    )
    st.query_params[state.RUN_PARAM] = chosen  # a browser reload comes back here
    state.put(state.LAST_RUN, chosen)
    return by_hash[chosen]


def main() -> None:
    st.title("Results")
    folder = cache_folder()
    runner = loaders.runner(folder)
    linked = st.query_params.get(state.RUN_PARAM)
    if linked and RunStore(folder).record(linked) is not None:
        sessions.remember(linked)  # shared by link, or this session's own after a reload
    last = state.get(state.LAST_RUN)
    with st.container():  # a run's progress or failure above: the result below keeps its
        # place in the element tree either way, so the browser keeps its map as drawn
        if last:
            status = runner.status(last)
            if status.state in ("running", "failed", "cancelled"):
                show_status(status)
    records = sessions.records(folder)
    if not records:
        st.info("No finished runs of yours yet: run a scenario first, or open a run's link.")
        st.caption(sessions.statement())
        st.page_link(page_file("scenario"), label="Pick a scenario", icon=":material/tune:")
        return
    record = pick_run(records)
    result = loaders.result(folder, record["hash"])
    st.caption(
        f"Scenario hash {record['hash'][:12]} · solved in {record.get('wall_seconds', 0):.1f} s · "
        "the same run on the command line:"
    )
    st.code(record.get("command", ""), language="bash")
    quality = show_quality(record)
    _downloads(folder, record, result)
    if result.dataset.attrs.get("pathway"):  # periods: the timeline and a map per period
        show_pathway(result.dataset, RunStore(folder).result_path(record["hash"]))
        return
    if not quality.solved:
        st.markdown("**Why**")
        show_messages(result.messages)
        return
    for message in result.messages:
        st.warning(plain(message), icon=":material/warning:")
    planning = is_planning(result.inputs)
    if planning:
        show_plan_kind(record_plan_kind(record))
    show_kpis(result.kpis, planning=planning)
    _tabs(folder, record, result)


def _downloads(folder: str, record: dict, result) -> None:
    path = RunStore(folder).result_path(record["hash"])
    name = record.get("scenario_name") or "result"
    left, right = st.columns([1, 1])
    left.download_button(
        "Results (NetCDF)",
        data=lambda: Path(path).read_bytes(),
        file_name=f"{name}-{record['hash'][:8]}.nc",
        mime="application/x-netcdf",
        icon=":material/download:",
        on_click="ignore",
    )
    right.download_button(
        "KPI table (CSV)",
        data=kpi_frame(result.kpis).to_csv(index=False),
        file_name=f"{name}-{record['hash'][:8]}-kpis.csv",
        mime="text/csv",
        icon=":material/table:",
        on_click="ignore",
    )


#: the results page's tabs, in order; a plan's first tab shows what it built, a run with
#: training jobs has a Jobs tab after the map
TABS = [
    "Map",
    "Energy",
    "Placement",
    "Latency",
    "Utilisation",
    "DCI links",
    "Per workload",
    "Shadow prices",
    "All KPIs",
]
BUILD_TAB, JOBS_TAB = "Build", "Jobs"
BREAKDOWN_TABLE = {
    "kind": ("Kind", None),
    "name": ("Name", None),
    "energy_mwh": ("Energy (MWh)", 1),
    "emissions_tco2": ("Emissions (tCO2e)", 2),
    "cost_usd": ("Energy cost (USD)", 0),
}
KPI_TABLE = {
    "kpi": (None, None),
    "name": ("KPI", None),
    "value": ("Value", None),
    "units": ("Units", None),
    "description": ("What it is", None),
}


def tab_names(result) -> list[str]:
    names = list(TABS)
    if has_jobs(result.inputs):
        names.insert(1, JOBS_TAB)
    return [BUILD_TAB, *names] if is_planning(result.inputs) else names


def _tabs(folder: str, record: dict, result) -> None:
    """The views as tabs; only the open one runs (its name is in the page's address, so a
    reload or a link opens the same view)."""
    names = tab_names(result)
    wanted = st.query_params.get(state.VIEW_PARAM)
    if wanted is not None and wanted not in names:
        del st.query_params[state.VIEW_PARAM]  # a view this run has not (another run's)
    tabs = dict(zip(names, st.tabs(names, key=state.VIEW_PARAM, bind="query-params"), strict=True))
    scenario_hash = record["hash"]
    views = {
        BUILD_TAB: lambda: show_plan(folder, scenario_hash),
        "Map": lambda: _result_map(folder, scenario_hash),
        "Energy": lambda: _energy(folder, scenario_hash),
        JOBS_TAB: lambda: show_jobs(folder, record),
        "Placement": lambda: _placement(folder, scenario_hash),
        "Latency": lambda: _latency(folder, scenario_hash),
        "Utilisation": lambda: _utilisation(folder, scenario_hash),
        "DCI links": lambda: _links(folder, scenario_hash),
        "Per workload": lambda: _breakdown(folder, scenario_hash),
        "Shadow prices": lambda: show_shadow_prices(folder, record),
        "All KPIs": lambda: show_table(
            kpi_text_frame(result.kpis), KPI_TABLE, f"kpis-{scenario_hash[:8]}", rows=None
        ),
    }
    for name, tab in tabs.items():
        if tab.open:
            with tab:
                st.fragment(views[name])()


def _sites(folder: str, scenario_hash: str) -> list[str]:
    return [str(s) for s in loaders.result(folder, scenario_hash).dataset["site"].values]


def _result_map(folder: str, scenario_hash: str) -> None:
    """The result on the map, for all work or one job or service, mean or one step (the
    time slider: typical days by their segments)."""
    data = loaders.result(folder, scenario_hash).dataset
    steps = figures.steps(folder, scenario_hash)
    options = [ALL, *charts.workloads(data)]
    left, middle, right = st.columns([2, 2, 2])
    work = left.selectbox(
        "Work shown",
        options,
        format_func=lambda w: "all work" if w == ALL else f"{w[0]} {human(w[1])}",
        key=state.RESULT_MAP_WORK,
    )
    show = map_option(middle, "Sites show", SITES_SHOW, state.RESULT_MAP_SHOW)
    mode = right.radio(
        "When", ["mean over the horizon", "one step"], horizontal=True, key=state.RESULT_MAP_WHEN
    )
    when = None
    if mode == "one step":
        order = steps.steps_in_order()
        when = st.select_slider(
            "Time slider: step" + (" (typical day, weight and segment)" if steps.typical else " (UTC)"),
            options=order,
            format_func=steps.step_label,
            key=state.RESULT_MAP_STEP,
        )
    show_map(
        figures.panels(folder, scenario_hash, WIDE),
        lambda names, width: figures.result_map_drawing(
            folder, scenario_hash, tuple(work), when, width, names, show
        ),
    )


def _energy(folder: str, scenario_hash: str) -> None:
    """Power by source at a site (per typical day, or the rebuilt year), the energy
    balance and generation by source of every site, curtailment and capacity factors,
    duration curves."""
    steps = figures.steps(folder, scenario_hash)
    sites = _sites(folder, scenario_hash)
    left, right = st.columns([2, 3])
    site = left.selectbox("Site", sites, format_func=human, key=state.RESULT_ENERGY_SITE)
    year = False
    if steps.typical:
        shown = right.radio(
            "Drawn as",
            ["typical days", "the year rebuilt"],
            horizontal=True,
            key=state.RESULT_ENERGY_AS,
            help="Typical days: each typical day as a block of 24 hours, its segments as bars as "
            "long as they last, with the days it stands for. The year rebuilt: every day of the "
            "horizon drawn as its typical day (Result.calendar()).",
        )
        year = shown == "the year rebuilt"
    st.plotly_chart(figures.power(folder, scenario_hash, site, year))
    if steps.typical and not year:
        st.caption(
            f"{len(steps.order)} typical days of {len(steps.start) // len(steps.order)} segments each; "
            "each block is one typical day (hours 0-24, UTC), named by the first day it stands for "
            "and the number of days it stands for. Its bars are its segments, as wide as they last."
        )
    st.markdown("**Energy balance of each site over the horizon**")
    balance = figures.balance(folder, scenario_hash)
    show_table(balance, energy.balance_spec(balance), f"energy-balance-{scenario_hash[:8]}", rows=None)
    st.caption(
        "Grid import, generation, battery (discharge less charging) and extensions add up to "
        "the facility energy. Renewable: solar, wind, hydro, geothermal and biomass of what "
        "the grid and the sources supplied."
    )
    st.plotly_chart(figures.generation(folder, scenario_hash))
    st.markdown("**Curtailment and capacity factors**")
    table = figures.curtailment(folder, scenario_hash)
    if table.empty:
        st.caption("No site has power sources of its own.")
    else:
        show_table(table, energy.CURTAILMENT_TABLE, f"curtailment-{scenario_hash[:8]}", rows=None)
        st.caption(
            "Capacity factor: energy generated / (capacity x hours of the horizon); available "
            "factor: what the weather allowed; curtailed: available but not taken."
        )
    what = st.radio(
        "Duration curves of",
        list(energy.DURATION),
        format_func=lambda k: energy.DURATION[k][1],
        horizontal=True,
        key=state.RESULT_DURATION,
    )
    st.plotly_chart(figures.duration(folder, scenario_hash, what))


def _placement(folder: str, scenario_hash: str) -> None:
    found = charts.workloads(loaders.result(folder, scenario_hash).dataset)
    if not found:
        st.info("The scenario has no training jobs or inference services.")
        return
    kind, name = st.selectbox(
        "Training job or inference service",
        found,
        format_func=lambda w: f"{w[0]} {human(w[1])}",
        key=state.RESULT_WORKLOAD,
    )
    st.plotly_chart(figures.placement(folder, scenario_hash, kind, name))


def _latency(folder: str, scenario_hash: str) -> None:
    st.plotly_chart(figures.latency(folder, scenario_hash))
    st.caption("Round trip from each user region to the site serving it, weighted by served tokens.")


def _utilisation(folder: str, scenario_hash: str) -> None:
    measure = st.radio(
        "Measure", list(charts.UTILISATION), horizontal=True, key=state.RESULT_UTILISATION
    )
    st.plotly_chart(figures.utilisation(folder, scenario_hash, measure))


def _links(folder: str, scenario_hash: str) -> None:
    measure = st.radio(
        "Measure",
        ["traffic", "utilisation"],
        format_func=lambda m: {
            "traffic": "required traffic (Gb/s)",
            "utilisation": "required traffic / capacity (%)",
        }[m],
        horizontal=True,
        key=state.RESULT_LINKS,
    )
    figure, undercharged = figures.links(folder, scenario_hash, measure)
    st.plotly_chart(figure)
    st.caption(
        "The traffic the placement needs: the full data-parallel gradient exchange of every "
        "job with chips at both ends of a link in the step; a job at one site needs none."
    )
    if undercharged:
        st.warning(
            f"In {undercharged} link-steps the LP charged the links less than this (it splits "
            "jobs over part-used sites, docs/model.md (6)); solve with "
            "solver.participation: exact (the default) for a plan without such splits.",
            icon=":material/warning:",
        )


def _breakdown(folder: str, scenario_hash: str) -> None:
    frame, bars = figures.workloads(folder, scenario_hash)
    if frame.empty:
        st.info("The result has no energy breakdown.")
        return
    total = {
        "kind": "total",
        "name": "= the KPIs",
        **{m: float(frame[m].sum()) for m in ("energy_mwh", "emissions_tco2", "cost_usd")},
    }
    table = pd.concat([frame, pd.DataFrame([total])], ignore_index=True)
    show_table(table, BREAKDOWN_TABLE, f"workloads-{scenario_hash[:8]}")
    st.caption(
        "Working chips at full power x PUE over the hours each job or service runs; idle chips "
        "and the DCI transceivers are the rest of the facility energy; each priced at its site's "
        "cost and carbon per MWh in each step. The rows add up to the energy, emissions and "
        "energy cost KPIs."
    )
    st.plotly_chart(bars)


main()
