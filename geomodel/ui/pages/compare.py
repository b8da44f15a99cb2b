"""Compare page: two runs side by side, and a batch folder (table, scatter, Pareto front)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import streamlit as st

from geomodel.batch.store import MANIFEST, PARAM
from geomodel.results.kpis import KPI_SPECS
from geomodel.scenario.problems import ScenarioError
from geomodel.ui import loaders, state
from geomodel.ui.components.charts import batch_scatter, pareto_mask
from geomodel.ui.components.kpis import comparison_frame, show_kpis
from geomodel.ui.components.run_panel import cache_folder, run_label
from geomodel.ui.format import HIGHER_IS_BETTER
from geomodel.ui.runs import RunStore

#: a batch folder to open first (``geomodel batch SWEEP.yaml -o OUTDIR``)
BATCH_ENV = "GEOMODEL_APP_BATCH"


def two_runs() -> None:
    records = RunStore(cache_folder()).records()
    if len(records) < 2:
        st.info("Compare needs two finished runs: run a scenario, change a knob, run it again.")
        return
    by_hash = {r["hash"]: r for r in records}
    hashes = list(by_hash)
    left, right = st.columns(2)
    a = left.selectbox(
        "Run A (reference)",
        hashes,
        index=1,
        format_func=lambda h: run_label(by_hash[h]),
        key=state.COMPARE_A,
    )
    b = right.selectbox(
        "Run B", hashes, index=0, format_func=lambda h: run_label(by_hash[h]), key=state.COMPARE_B
    )
    kpis_a, kpis_b = by_hash[a].get("kpis", {}), by_hash[b].get("kpis", {})
    st.markdown("**Run B, with its change from run A**")
    show_kpis(kpis_b, reference=kpis_a)
    st.dataframe(comparison_frame(kpis_a, kpis_b), hide_index=True)
    commands = pd.DataFrame(
        {"run": ["A", "B"], "command": [by_hash[a].get("command", ""), by_hash[b].get("command", "")]}
    )
    st.dataframe(commands, hide_index=True)


def batch_folder() -> None:
    outdir = st.text_input(
        "Batch folder (the OUTDIR of `geomodel batch SWEEP.yaml -o OUTDIR`)",
        value=os.environ.get(BATCH_ENV, ""),
        key=state.BATCH_DIR,
        placeholder="/path/to/outdir",
    ).strip()
    if not outdir:
        st.info("Give the folder a batch run wrote (it holds manifest.csv and results/).")
        return
    manifest = Path(outdir).expanduser() / MANIFEST
    if not manifest.is_file():
        st.error(f"No {MANIFEST} in {outdir}: not a batch folder.", icon=":material/folder_off:")
        return
    try:
        _, table = loaders.batch(str(manifest.parent), manifest.stat().st_mtime_ns)
    except (ScenarioError, OSError, ValueError) as error:
        st.error(f"Cannot read the batch folder: {error}")
        return
    kpis = [k for k in KPI_SPECS if k in table.columns and pd.api.types.is_numeric_dtype(table[k])]
    params = [c for c in table.columns if c.startswith(PARAM)]
    first = [c for c in ("case", *params, "status", *kpis) if c in table.columns]
    table = table[first + [c for c in table.columns if c not in first]]  # hash and messages last
    st.dataframe(table, hide_index=True)
    if len(kpis) < 2:
        st.info("The batch has fewer than two numeric KPIs (did any case solve?).")
        return
    cells = st.columns(3)
    x = cells[0].selectbox(
        "x", kpis, index=kpis.index("cost_usd") if "cost_usd" in kpis else 0, key=state.BATCH_X
    )
    y_default = kpis.index("emissions_tco2") if "emissions_tco2" in kpis else 1
    y = cells[1].selectbox("y", kpis, index=y_default, key=state.BATCH_Y)
    colour = cells[2].selectbox(
        "Colour by",
        [*params, "status"] if "status" in table.columns else params,
        format_func=lambda c: c.removeprefix(PARAM),
        key=state.BATCH_COLOUR,
    )
    front = pareto_mask(table[x], table[y], x in HIGHER_IS_BETTER, y in HIGHER_IS_BETTER)
    st.plotly_chart(batch_scatter(table, x, y, colour, front))
    st.markdown(f"**Pareto front** of {x} and {y} ({front.sum()} of {len(table)} cases)")
    st.dataframe(table[front].sort_values(x), hide_index=True)


def main() -> None:
    st.title("Compare")
    runs, batch = st.tabs(["Two runs", "Batch folder"])
    with runs:
        two_runs()
    with batch:
        batch_folder()


main()
