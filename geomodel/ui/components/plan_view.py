"""A plan on the page: the Build tab of a planning run (map, cost breakdown, build table)
and two plans side by side on the Compare page."""

from __future__ import annotations

import streamlit as st

from geomodel.results.planning import build_rows
from geomodel.ui import state
from geomodel.ui.components.build_map import (
    SIZE_BY,
    build_deck,
    build_site_frame,
    largest_after_building,
)
from geomodel.ui.components.deck import HEIGHT
from geomodel.ui.components.plan import (
    BUILD_TABLE,
    build_comparison,
    build_table,
    cost_breakdown,
    cost_chart,
    cost_comparison,
    cost_table,
)
from geomodel.ui.components.tables import full_height, show_table
from geomodel.ui.format import format_number

#: the map's width in each of two columns at a 1280 px window
HALF = 360
COST_TABLE = {
    "part": ("Part", None),
    "usd_per_year": ("USD/year", 0),
    "share (%)": ("Share (%)", 1),
}
COST_COMPARISON = {
    "part": ("Part", None),
    "A": ("Run A (USD/year)", 0),
    "B": ("Run B (USD/year)", 0),
    "B - A": ("B - A (USD/year)", 0),
}
BUILD_COMPARISON = {
    "asset": ("Asset", None),
    "what": ("What", None),
    "where": ("Where", None),
    "units": ("Units", None),
    "amount_a": ("Run A", 2),
    "amount_b": ("Run B", 2),
    "change": ("B - A", 2),
    "annual_cost_usd_per_year_a": ("Run A (USD/year)", 0),
    "annual_cost_usd_per_year_b": ("Run B (USD/year)", 0),
}
COST_NOTE = (
    "Capex is each asset's yearly annuity at the scenario's discount rate over its lifetime, "
    "fixed O&M its yearly upkeep; energy and carbon are the horizon's energy cost and carbon "
    "price x emissions, scaled to a year. The parts add up to the total cost a year "
    "(total_cost_usd_per_year; docs/planning.md)."
)


def _size_by(key: str) -> str:
    return st.radio(
        "Size sites by",
        list(SIZE_BY),
        format_func=lambda k: SIZE_BY[k][2],
        horizontal=True,
        key=key,
    )


def show_plan(result) -> None:
    """What a planning run built and what it costs: the map, the cost breakdown, the table."""
    data, inputs = result.dataset, result.inputs
    drawing = build_deck(data, inputs, _size_by(state.RESULT_BUILD_SIZE))
    st.pydeck_chart(drawing.deck, height=HEIGHT)
    st.html(drawing.legend)
    st.markdown("**What the plan costs a year**")
    breakdown = cost_breakdown(data, inputs)
    st.plotly_chart(cost_chart({"plan": breakdown}))
    table = cost_table(breakdown)
    show_table(table, COST_TABLE, height=full_height(table))
    st.caption(COST_NOTE)
    st.markdown("**What was built**")
    table = build_table(data, inputs)
    if table.empty:
        st.info("The plan builds nothing: what is installed is the cheapest way to do the work.")
    else:
        show_table(table, BUILD_TABLE)
        capex, annual = table["capex_usd"].sum(), table["annual_cost_usd_per_year"].sum()
        st.caption(
            "The build table of `geomodel report`: capex is the overnight cost, the annual cost "
            f"its annuity plus fixed O&M. In all: {format_number(capex)} USD of capex, "
            f"{format_number(annual)} USD a year (the capex and fixed O&M KPIs)."
        )


def show_plan_comparison(result_a, result_b) -> None:
    """Two plans side by side: what differs in their builds, their costs, their maps."""
    st.markdown("**What was built: the decisions that differ**")
    rows_a = build_rows(result_a.dataset, result_a.inputs)
    rows_b = build_rows(result_b.dataset, result_b.inputs)
    both = build_comparison(rows_a, rows_b)
    differs = both[both["differs"]]
    if differs.empty:
        st.caption("Both plans build the same.")
    else:
        show_table(differs, BUILD_COMPARISON)
    same = len(both) - len(differs)
    if same:
        with st.expander(f"Both builds in full ({same} decision{'s' if same != 1 else ''} the same)"):
            show_table(both, BUILD_COMPARISON)
    st.markdown("**What each plan costs a year**")
    a = cost_breakdown(result_a.dataset, result_a.inputs)
    b = cost_breakdown(result_b.dataset, result_b.inputs)
    st.plotly_chart(cost_chart({"Run A": a, "Run B": b}))
    table = cost_comparison(a, b)
    show_table(table, COST_COMPARISON, height=full_height(table))
    st.markdown("**Where each plan builds**")
    size_by = _size_by(state.COMPARE_BUILD_SIZE)
    results = (result_a, result_b)
    frames = [build_site_frame(r.dataset, r.inputs) for r in results]
    largest = max(largest_after_building(frame, size_by) for frame in frames)
    for cell, name, result in zip(st.columns(2), ("Run A", "Run B"), results, strict=True):
        drawing = build_deck(result.dataset, result.inputs, size_by, width=HALF, largest=largest)
        cell.markdown(name)
        cell.pydeck_chart(drawing.deck, height=HEIGHT)
    st.html(drawing.legend)  # one scale: the legend holds for both maps
