"""Plugins page: loaded plugins, what each contributes, failures, and the catalogue."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from geomodel.catalog import CATALOG_KINDS
from geomodel.cli.plugins_command import plugins_report
from geomodel.ui import loaders
from geomodel.ui.components.tables import show_table
from geomodel.ui.format import human

#: catalogue columns worth a glance, per kind (the rest is in the entry's expander)
COLUMNS = {
    "hardware systems": [
        "vendor",
        "system",
        "chip",
        "chips_per_system",
        "scale_up_domain_chips",
        "active_power_kw_per_chip",
        "mtbf_hours_per_chip",
    ],
    "link technologies": [
        "fibre_kind",
        "optics",
        "latency_us_per_km",
        "capacity_gbit_s_per_fibre_pair",
        "reach_km",
    ],
    "power sources": ["kind", "price_usd_per_mwh", "carbon_kg_per_mwh", "capacity_factor", "country"],
    "build costs": [
        "asset_class",
        "unit",
        "capex_usd_per_unit",
        "fixed_om_usd_per_unit_year",
        "lifetime_years",
    ],
    "weather points": ["zone", "reach_km", "basis", "licence"],
    "language models": [
        "params",
        "active_params",
        "layers",
        "hidden_size",
        "experts",
        "experts_per_token",
        "context_tokens",
    ],
}


def main() -> None:
    st.title("Plugins")
    catalog = loaders.catalog()
    report = plugins_report(catalog)
    st.subheader(f"Loaded plugins ({len(report['plugins'])})")
    rows = [
        {
            "plugin": p["name"],
            "distribution": p["distribution"],
            "version": p["version"],
            "module": p["module"],
            **{kind: ", ".join(names) for kind, names in p["contributes"].items()},
        }
        for p in report["plugins"]
    ]
    frame = pd.DataFrame(rows)
    show_table(frame, {c: (c.capitalize(), None) for c in frame.columns}, "plugins", rows=None)
    st.subheader("Failures")
    if report["failed"]:
        st.error(f"{len(report['failed'])} plugin problem(s); the other plugins still loaded.")
        failed = pd.DataFrame(report["failed"])
        show_table(
            failed, {c: (c.capitalize(), None) for c in failed.columns}, "plugin-failures", rows=None
        )
    else:
        st.success("No plugin failed to load.", icon=":material/check_circle:")
    st.subheader("Catalogue")
    tabs = st.tabs([f"{kind} ({len(catalog.entries(kind))})" for kind in CATALOG_KINDS])
    for tab, kind in zip(tabs, CATALOG_KINDS, strict=True):
        with tab:
            entries = catalog.entries(kind)
            frame = pd.DataFrame(
                [
                    {
                        "name": name,
                        "plugin": catalog.provider.get((kind, name), ""),
                        **{c: getattr(entry, c, None) for c in COLUMNS[kind]},
                        "source": entry.source,
                        "source type": entry.source_type,
                    }
                    for name, entry in sorted(entries.items())
                ]
            )
            show_table(
                frame, {c: (human(c).capitalize(), None) for c in frame.columns}, f"catalogue-{kind}"
            )


main()
