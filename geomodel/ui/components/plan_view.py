"""A plan on the page: the Build tab of a planning run (map, cost breakdown, build table)
and two plans side by side on the Compare page."""

from __future__ import annotations

import streamlit as st

from geomodel.results.planning import build_rows
from geomodel.ui import figures, loaders, state
from geomodel.ui.components.build_map import SIZE_BY, build_site_frame, largest_after_building
from geomodel.ui.components.deck import WIDE
from geomodel.ui.components.map_panels import map_option, show_map
from geomodel.ui.components.plan import (
    BUILD_TABLE,
    build_comparison,
    cost_breakdown,
    cost_chart,
    cost_comparison,
    cost_table,
)
from geomodel.ui.components.tables import show_table
from geomodel.ui.format import NAME, format_number

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
    "what": ("What", NAME),
    "where": ("Where", NAME),
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


#: what sites may be sized by on a plan's map: key -> name in the picker
SIZE_PICKER = {key: words for key, (_, _, words) in SIZE_BY.items()}


def _size_by(key: str) -> str:
    return map_option(st, "Size sites by", SIZE_PICKER, key)


def show_plan(folder: str, scenario_hash: str) -> None:
    """What a planning run built and what it costs: the map, the cost breakdown, the table."""
    size_by = _size_by(state.RESULT_BUILD_SIZE)
    show_map(
        figures.panels(folder, scenario_hash, WIDE),
        lambda names, width: figures.build_map_drawing(
            folder, scenario_hash, size_by, width, None, names
        ),
    )
    table, breakdown = figures.builds(folder, scenario_hash)
    st.markdown("**What the plan costs a year**")
    st.plotly_chart(cost_chart({"plan": breakdown}))
    show_table(cost_table(breakdown), COST_TABLE, f"plan-costs-{scenario_hash[:8]}", rows=None)
    st.caption(COST_NOTE)
    st.markdown("**What was built**")
    if table.empty:
        st.info("The plan builds nothing: what is installed is the cheapest way to do the work.")
        return
    show_table(table, BUILD_TABLE, f"plan-build-{scenario_hash[:8]}", rows=None)
    capex, annual = table["capex_usd"].sum(), table["annual_cost_usd_per_year"].sum()
    st.caption(
        "The build table of `geomodel report`: capex is the overnight cost, the annual cost "
        f"its annuity plus fixed O&M. In all: {format_number(capex)} USD of capex, "
        f"{format_number(annual)} USD a year (the capex and fixed O&M KPIs)."
    )


def show_plan_comparison(folder: str, hash_a: str, hash_b: str) -> None:
    """Two plans side by side: what differs in their builds, their costs, their maps (one
    above the other, each as wide as the page, on one scale)."""
    result_a, result_b = loaders.result(folder, hash_a), loaders.result(folder, hash_b)
    st.markdown("**What was built: the decisions that differ**")
    rows_a = build_rows(result_a.dataset, result_a.inputs)
    rows_b = build_rows(result_b.dataset, result_b.inputs)
    both = build_comparison(rows_a, rows_b)
    differs = both[both["differs"]]
    if differs.empty:
        st.caption("Both plans build the same.")
    else:
        show_table(differs, BUILD_COMPARISON, f"build-differences-{hash_a[:8]}-{hash_b[:8]}")
    same = len(both) - len(differs)
    if same:
        with st.expander(f"Both builds in full ({same} decision{'s' if same != 1 else ''} the same)"):
            show_table(both, BUILD_COMPARISON, f"builds-{hash_a[:8]}-{hash_b[:8]}")
    st.markdown("**What each plan costs a year**")
    a = cost_breakdown(result_a.dataset, result_a.inputs)
    b = cost_breakdown(result_b.dataset, result_b.inputs)
    st.plotly_chart(cost_chart({"Run A": a, "Run B": b}))
    show_table(
        cost_comparison(a, b), COST_COMPARISON, f"cost-comparison-{hash_a[:8]}-{hash_b[:8]}", rows=None
    )
    st.markdown("**Where each plan builds**")
    size_by = _size_by(state.COMPARE_BUILD_SIZE)
    frames = [build_site_frame(r.dataset, r.inputs) for r in (result_a, result_b)]
    largest = max(largest_after_building(frame, size_by) for frame in frames)
    for name, scenario_hash in (("Run A", hash_a), ("Run B", hash_b)):
        st.markdown(name)
        show_map(
            figures.panels(folder, scenario_hash, WIDE),
            lambda names, width, h=scenario_hash: figures.build_map_drawing(
                folder, h, size_by, width, largest, names
            ),
        )
