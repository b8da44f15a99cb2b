"""A pathway on the Results page: the build timeline as a chart and a table, the periods'
costs, and the map of any one period (docs/planning.md, "Pathways")."""

from __future__ import annotations

from pathlib import Path

import plotly.express as px
import plotly.graph_objects as go
import streamlit as st
import xarray as xr

from geomodel.results.pathway import open_period, period_table, timeline_frame
from geomodel.ui import state
from geomodel.ui.components.build_map import build_deck
from geomodel.ui.components.deck import HEIGHT


def timeline_chart(dataset: xr.Dataset) -> go.Figure:
    """Capex of what comes online in each period, stacked by asset, with when it was decided."""
    frame = timeline_frame(dataset)
    if frame.empty:
        return go.Figure()
    frame["decided in"] = frame["decided"].astype(str)
    grouped = frame.groupby(["online", "asset", "decided in"], as_index=False)["capex_usd"].sum()
    figure = px.bar(
        grouped,
        x="online",
        y="capex_usd",
        color="asset",
        pattern_shape="decided in",
        labels={"online": "online in period", "capex_usd": "capex (USD)"},
    )
    figure.update_xaxes(type="category")
    figure.update_layout(height=360, margin={"l": 10, "r": 10, "t": 30, "b": 10})
    return figure


def show_pathway(dataset: xr.Dataset, path: str | Path) -> None:
    """The timeline, the period table and one period's map."""
    npc = float(dataset.attrs.get("net_present_cost_usd", float("nan")))
    foresight = dataset.attrs.get("foresight", "perfect")
    st.metric("Net present cost (USD)", f"{npc:,.0f}", help=f"{foresight} foresight")
    st.markdown("**Build timeline**: capex of what comes online in each period")
    st.plotly_chart(timeline_chart(dataset))
    st.dataframe(timeline_frame(dataset), hide_index=True)
    st.markdown("**Periods**")
    st.dataframe(period_table(dataset), hide_index=True)
    years = [int(y) for y in dataset["period"].values]
    year = st.select_slider("Map of period", years, key=state.RESULT_PATHWAY_PERIOD)
    results, inputs = open_period(path, year)
    drawing = build_deck(results, inputs)
    st.pydeck_chart(drawing.deck, height=HEIGHT)
    st.html(drawing.legend)


__all__ = ["show_pathway", "timeline_chart"]
