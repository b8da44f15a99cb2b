"""Tools page: sizing (scale up vs scale out), reliability and the DCI latency calculator."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st
from pydantic import ValidationError

from geomodel.errors import GeomodelError
from geomodel.geo import Location
from geomodel.tools import compare_systems, reliability_report
from geomodel.tools.dci import assess_route
from geomodel.tools.reliability import DEFAULT_CHECKPOINT_MINUTES, DEFAULT_RESTART_MINUTES
from geomodel.tools.sizing import DEFAULT_PUE, DEFAULT_SITE_MW
from geomodel.ui import loaders, state
from geomodel.ui.components.problems import plain
from geomodel.ui.components.tables import show_table
from geomodel.ui.format import format_number

SIZING_TABLE = {
    "system": ("System", None),
    "systems": ("Systems", 0),
    "chips_installed": ("Chips", 0),
    "racks": ("Racks", 0),
    "it_mw": ("IT (MW)", 1),
    "facility_mw": ("Facility (MW)", 1),
    "sites": ("Sites", 0),
    "bf16_dense_eflops": ("BF16 EFLOPS", 1),
    "bf16_dense_pflops_per_facility_mw": ("PFLOPS per MW", 0),
    "capex_usd": ("Capex (USD)", 0),
    "note": ("Note", None),
}
DCI_TABLE = {
    "technology": ("Technology", None),
    "fibre_kind": ("Fibre", None),
    "route_km": ("Route (km)", 0),
    "one_way_ms": ("One way (ms)", 2),
    "round_trip_ms": ("Round trip (ms)", 2),
    "reach_km": ("Reach (km)", 0),
    "regenerators": ("Regenerators", 0),
    "amplifier_sites": ("Amplifier sites", 0),
    "capacity_gbit_s_per_fibre_pair": ("Gb/s per fibre pair", 0),
    "power_w_per_gbit_s": ("W per Gb/s", 3),
    "max_separation_km": ("Most km within budget", 0),
}


def sizing(catalog) -> None:
    st.caption("N chips as whole systems, racks, IT and facility MW and sites, one row per system.")
    cells = st.columns(3)
    chips = cells[0].number_input(
        "Chips", min_value=1, value=100_000, step=1000, key=state.tool_key("sizing", "chips")
    )
    pue = cells[1].number_input(
        "PUE", min_value=1.0, value=DEFAULT_PUE, step=0.05, key=state.tool_key("sizing", "pue")
    )
    site_mw = cells[2].number_input(
        "Site envelope (MW)",
        min_value=1.0,
        value=DEFAULT_SITE_MW,
        step=10.0,
        key=state.tool_key("sizing", "site_mw"),
    )
    names = sorted(catalog.hardware)
    chosen = st.multiselect("Systems", names, default=names, key=state.tool_key("sizing", "systems"))
    if not chosen:
        st.info("Pick at least one system.")
        return
    try:
        rows = compare_systems(
            [catalog.hardware[n] for n in chosen], int(chips), pue=pue, site_mw=site_mw
        )
    except GeomodelError as error:
        st.error(plain(str(error)))
        return
    frame = pd.DataFrame([r.as_dict() for r in rows])
    spec = {k: v for k, v in SIZING_TABLE.items() if k != "note" or frame["note"].astype(bool).any()}
    show_table(frame, spec, "sizing", rows=None)
    frame["scale-up domain"] = frame["scale_up_domain_chips"].map(lambda n: f"{n} chips")
    figure = px.bar(frame, x="system", y="facility_mw", color="scale-up domain", text="sites")
    figure.update_layout(yaxis_title="facility MW (bar label: sites needed)")
    st.plotly_chart(figure)


def reliability(catalog) -> None:
    st.caption("Cluster MTBF, Young/Daly checkpoint interval and the goodput the optimiser applies.")
    names = sorted(catalog.hardware)
    cells = st.columns(4)
    system = cells[0].selectbox("System", names, key=state.tool_key("reliability", "system"))
    chips = cells[1].number_input(
        "Chips", min_value=1, value=16_384, step=1024, key=state.tool_key("reliability", "chips")
    )
    checkpoint = cells[2].number_input(
        "Checkpoint (min)",
        min_value=0.0,
        value=DEFAULT_CHECKPOINT_MINUTES,
        step=0.5,
        key=state.tool_key("reliability", "ckpt"),
    )
    restart = cells[3].number_input(
        "Restart (min)",
        min_value=0.0,
        value=DEFAULT_RESTART_MINUTES,
        step=1.0,
        key=state.tool_key("reliability", "restart"),
    )
    try:
        report = reliability_report(catalog.hardware[system], int(chips), checkpoint, restart)
    except GeomodelError as error:
        st.error(plain(str(error)))
        return
    cells = st.columns(4)
    cells[0].metric("Cluster MTBF (h)", format_number(report.cluster_mtbf_hours))
    cells[1].metric("Interruptions per day", format_number(report.interruptions_per_day))
    cells[2].metric("Checkpoint interval (min)", format_number(report.daly_interval_minutes))
    cells[3].metric("Goodput (%)", format_number(report.goodput * 100))
    if report.reason:
        st.warning(plain(report.reason))
    details = pd.DataFrame(
        [
            {
                "quantity": k.replace("_", " "),
                "value": format_number(v) if isinstance(v, float) else str(v),
            }
            for k, v in report.as_dict().items()
            if k != "reason"
        ]
    )
    show_table(
        details, {"quantity": ("Quantity", None), "value": ("Value", None)}, "reliability", rows=None
    )


def dci(catalog) -> None:
    st.caption("Route length, latency, reach and power of each link technology between two points.")
    cells = st.columns(4)
    from_lat = cells[0].number_input(
        "From latitude", -90.0, 90.0, 41.15, key=state.tool_key("dci", "from_lat")
    )
    from_lon = cells[1].number_input(
        "From longitude", -180.0, 180.0, 114.70, key=state.tool_key("dci", "from_lon")
    )
    to_lat = cells[2].number_input(
        "To latitude", -90.0, 90.0, 39.90, key=state.tool_key("dci", "to_lat")
    )
    to_lon = cells[3].number_input(
        "To longitude", -180.0, 180.0, 116.40, key=state.tool_key("dci", "to_lon")
    )
    cells = st.columns(2)
    budget = cells[0].number_input(
        "Latency budget, one way (ms; 0: none)",
        min_value=0.0,
        value=5.0,
        step=0.5,
        key=state.tool_key("dci", "budget"),
    )
    factor = cells[1].number_input(
        "Route factor (0: each technology's)",
        min_value=0.0,
        max_value=3.0,
        value=0.0,
        step=0.1,
        key=state.tool_key("dci", "factor"),
    )
    try:
        report = assess_route(
            Location(lat=from_lat, lon=from_lon),
            Location(lat=to_lat, lon=to_lon),
            list(catalog.links.values()),
            route_factor=factor or None,
            budget_ms=budget or None,
        )
    except (GeomodelError, ValidationError, ValueError) as error:
        st.error(plain(str(error)))
        return
    cells = st.columns(3)
    cells[0].metric("Great-circle distance (km)", format_number(report.geodesic_km))
    cells[1].metric("Internet round trip (ms)", format_number(report.internet_round_trip_ms))
    cells[2].metric(
        "Internet round trip, indirect (ms)", format_number(report.internet_round_trip_ms_high)
    )
    frame = pd.DataFrame([t.as_dict() for t in report.technologies])
    show_table(frame, DCI_TABLE, "dci-latency", rows=None)


def main() -> None:
    st.title("Tools")
    catalog = loaders.catalog()
    tab_sizing, tab_reliability, tab_dci = st.tabs(["Sizing", "Reliability", "DCI latency"])
    with tab_sizing:
        sizing(catalog)
    with tab_reliability:
        reliability(catalog)
    with tab_dci:
        dci(catalog)


main()
