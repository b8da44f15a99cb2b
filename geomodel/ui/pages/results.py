"""Results page: KPIs, power, placement, latency, utilisation, links and workloads of a run."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from geomodel.inputs.dataset import is_planning
from geomodel.results.breakdown import breakdown_table
from geomodel.ui import loaders, state
from geomodel.ui.components import charts
from geomodel.ui.components.deck import HEIGHT
from geomodel.ui.components.kpis import kpi_frame, show_kpis
from geomodel.ui.components.pathway_view import show_pathway
from geomodel.ui.components.plan import build_table
from geomodel.ui.components.plan_view import show_plan
from geomodel.ui.components.problems import plain, show_messages
from geomodel.ui.components.result_map import ALL, result_deck
from geomodel.ui.components.run_panel import cache_folder, run_label, show_status
from geomodel.ui.components.tables import show_table
from geomodel.ui.paths import page_file
from geomodel.ui.runs import RunStore

SOLVED = ("optimal", "time_limit")


def pick_run(records: list[dict]) -> dict:
    """The run to show: the one the scenario page showed last, else the one picked here
    before, else the one in the address (a reload), else the session's last, else the newest."""
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
    last = state.get(state.LAST_RUN)
    if last:
        status = runner.status(last)
        if status.state in ("running", "failed"):
            show_status(status)
    records = RunStore(folder).records()
    if not records:
        st.info("No finished runs yet: run a scenario first.")
        st.page_link(page_file("scenario"), label="Pick a scenario", icon=":material/tune:")
        return
    record = pick_run(records)
    result = loaders.result(folder, record["hash"])
    st.caption(
        f"Scenario hash {record['hash'][:12]} · solved in {record.get('wall_seconds', 0):.1f} s · "
        "the same run on the command line:"
    )
    st.code(record.get("command", ""), language="bash")
    _downloads(folder, record, result)
    if result.dataset.attrs.get("pathway"):  # periods: the timeline and a map per period
        show_pathway(result.dataset, RunStore(folder).result_path(record["hash"]))
        return
    if result.status not in SOLVED:
        st.error(f"No solution: the solver reports **{result.status}**.", icon=":material/block:")
        st.markdown("**Why**")
        show_messages(result.messages)
        return
    for message in result.messages:
        st.warning(plain(message), icon=":material/warning:")
    show_kpis(result.kpis, planning=is_planning(result.inputs))
    _tabs(result)


def _downloads(folder: str, record: dict, result) -> None:
    path = RunStore(folder).result_path(record["hash"])
    name = record.get("scenario_name") or "result"
    left, right, build = st.columns([1, 1, 2])
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
    if result.status in SOLVED and is_planning(result.inputs):
        build.download_button(
            "Build table (CSV)",
            data=build_table(result.dataset, result.inputs).to_csv(index=False),
            file_name=f"{name}-{record['hash'][:8]}-build.csv",
            mime="text/csv",
            icon=":material/construction:",
            on_click="ignore",
        )


#: the results page's tabs, in order; a plan's first tab shows what it built
TABS = ["Map", "Power", "Placement", "Latency", "Utilisation", "DCI links", "Per workload", "All KPIs"]
BUILD_TAB = "Build"
SITE_TABLE = {
    "site": ("Site", None),
    "energy (MWh)": ("Energy (MWh)", 1),
    "emissions (tCO2e)": ("Emissions (tCO2e)", 1),
    "energy cost (USD)": ("Energy cost (USD)", 0),
    "peak facility power (MW)": ("Peak facility power (MW)", 1),
}
BREAKDOWN_TABLE = {
    "kind": ("Kind", None),
    "name": ("Name", None),
    "energy_mwh": ("Energy (MWh)", 1),
    "emissions_tco2": ("Emissions (tCO2e)", 2),
    "cost_usd": ("Energy cost (USD)", 0),
}
KPI_TABLE = {
    "kpi": (None, None),
    "description": ("KPI", None),
    "value": ("Value", None),
    "units": ("Units", None),
}


def _tabs(result) -> None:
    data, inputs = result.dataset, result.inputs
    planning = is_planning(inputs)
    tabs = st.tabs([BUILD_TAB, *TABS] if planning else TABS)
    if planning:
        with tabs[0]:
            show_plan(result)
    where, power, placement, latency, utilisation, links, workloads, table = tabs[-len(TABS) :]
    with where:
        _result_map(data, inputs)
    with power:
        st.plotly_chart(charts.power_by_source(data))
        show_table(charts.site_energy_table(data), SITE_TABLE)
    with placement:
        found = charts.workloads(data)
        if found:
            kind, name = st.selectbox(
                "Training job or inference service",
                found,
                format_func=lambda w: f"{w[0]} {w[1]}",
                key=state.RESULT_WORKLOAD,
            )
            st.plotly_chart(charts.placement_heatmap(data, kind, name))
        else:
            st.info("The scenario has no training jobs or inference services.")
    with latency:
        st.plotly_chart(charts.latency_distribution(data, inputs))
        st.caption("Round trip from each user region to the site serving it, weighted by served tokens.")
    with utilisation:
        measure = st.radio(
            "Measure",
            ["chips in use (%)", "power of envelope (%)"],
            horizontal=True,
            key=state.RESULT_UTILISATION,
        )
        st.plotly_chart(charts.utilisation(data, inputs, measure))
    with links:
        _links(data, inputs)
    with workloads:
        _breakdown(result)
    with table:
        show_table(kpi_frame(result.kpis, as_text=True), KPI_TABLE)


def _result_map(data, inputs) -> None:
    """The result on the map, for all work or one job or service, mean or one step."""
    options = [ALL, *charts.workloads(data)]
    left, middle, right = st.columns([2, 2, 3])
    work = left.selectbox(
        "Work shown",
        options,
        format_func=lambda w: "all work" if w == ALL else f"{w[0]} {w[1]}",
        key=state.RESULT_MAP_WORK,
    )
    mode = middle.radio(
        "When", ["mean over the horizon", "one step"], horizontal=True, key=state.RESULT_MAP_WHEN
    )
    when = None
    if mode == "one step":
        times = [str(t)[:16].replace("T", " ") for t in data["time"].values]
        when = right.select_slider(
            "Step (UTC)",
            options=list(range(len(times))),
            format_func=lambda i: times[i],
            key=state.RESULT_MAP_STEP,
        )
    drawing = result_deck(data, inputs, tuple(work), when)
    st.pydeck_chart(drawing.deck, height=HEIGHT)
    st.html(drawing.legend)


def _links(data, inputs) -> None:
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
    st.plotly_chart(charts.link_traffic(data, inputs, measure))
    st.caption(
        "The traffic the placement needs: the full data-parallel gradient exchange of every "
        "job with chips at both ends of a link in the step; a job at one site needs none."
    )
    undercharged = charts.undercharged_steps(data, inputs)
    if undercharged:
        st.warning(
            f"In {undercharged} link-steps the LP charged the links less than this (it splits "
            "jobs over part-used sites, docs/model.md (6)); solve with "
            "solver.integer.site_participation to check such splits.",
            icon=":material/warning:",
        )


def _breakdown(result) -> None:
    frame = breakdown_table(result.dataset)
    if frame.empty:
        st.info("The result has no energy breakdown.")
        return
    total = {
        "kind": "total",
        "name": "= the KPIs",
        **{m: float(frame[m].sum()) for m in ("energy_mwh", "emissions_tco2", "cost_usd")},
    }
    show_table(pd.concat([frame, pd.DataFrame([total])], ignore_index=True), BREAKDOWN_TABLE)
    st.caption(
        "Working chips at full power x PUE over the hours each job or service runs; idle chips "
        "and the DCI transceivers are the rest of the facility energy; each priced at its site's "
        "cost and carbon per MWh in each step. The rows add up to the energy, emissions and "
        "energy cost KPIs."
    )
    st.plotly_chart(charts.workload_bars(frame))


main()
