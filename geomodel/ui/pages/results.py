"""Results page: KPIs, power, placement, latency, utilisation, links and workloads of a run."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from geomodel.ui import loaders, state
from geomodel.ui.components import charts
from geomodel.ui.components.deck import LINK_COLOUR_BY, SIZE_BY, scenario_deck
from geomodel.ui.components.kpis import kpi_frame, show_kpis
from geomodel.ui.components.problems import plain, show_messages
from geomodel.ui.components.run_panel import cache_folder, run_label, show_status
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
        f"Scenario hash `{record['hash'][:12]}` · solved in {record.get('wall_seconds', 0):.1f} s · "
        f"`{record.get('command', '')}`"
    )
    _downloads(folder, record, result)
    if result.status not in SOLVED:
        st.error(f"No solution: the solver reports **{result.status}**.", icon=":material/block:")
        st.markdown("**Why**")
        show_messages(result.messages)
        return
    for message in result.messages:
        st.warning(plain(message), icon=":material/warning:")
    show_kpis(result.kpis)
    _tabs(result)


def _downloads(folder: str, record: dict, result) -> None:
    path = RunStore(folder).result_path(record["hash"])
    name = record.get("scenario_name") or "result"
    left, right, _ = st.columns([1, 1, 2])
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


def _tabs(result) -> None:
    data, inputs = result.dataset, result.inputs
    power, placement, latency, utilisation, links, workloads, where, table = st.tabs(
        ["Power", "Placement", "Latency", "Utilisation", "DCI links", "Per workload", "Map", "All KPIs"]
    )
    with power:
        st.plotly_chart(charts.power_by_source(data))
        st.dataframe(charts.site_energy_table(data), hide_index=True)
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
        measure = st.radio(
            "Measure",
            ["traffic", "utilisation"],
            format_func=lambda m: {"traffic": "traffic (Gb/s)", "utilisation": "utilisation (%)"}[m],
            horizontal=True,
            key=state.RESULT_LINKS,
        )
        st.plotly_chart(charts.link_traffic(data, measure))
    with workloads:
        frame = charts.workload_table(data)
        if frame.empty:
            st.info("The scenario has no training jobs or inference services.")
        else:
            st.dataframe(frame, hide_index=True)
            st.plotly_chart(charts.workload_bars(frame))
    with where:
        st.pydeck_chart(scenario_deck(inputs, "chips", "latency"), height=460)
        st.caption(f"Sites sized by {SIZE_BY['chips']}, links coloured by {LINK_COLOUR_BY['latency']}.")
    with table:
        st.dataframe(kpi_frame(result.kpis, as_text=True), hide_index=True)


main()
