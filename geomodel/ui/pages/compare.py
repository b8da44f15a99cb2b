"""Compare page: two runs side by side (KPIs and what differs in their recipes), and a batch
folder under the results root (table, scatter, Pareto front)."""

from __future__ import annotations

import json
import os

import pandas as pd
import streamlit as st

from geomodel.batch.store import MANIFEST, PARAM
from geomodel.results.kpis import KPI_SPECS
from geomodel.scenario.problems import ScenarioError
from geomodel.ui import loaders, sessions, state
from geomodel.ui.batch_folders import batch_folders, inside_root
from geomodel.ui.components.charts import batch_scatter, pareto_mask
from geomodel.ui.components.kpis import comparison_frame, show_kpis
from geomodel.ui.components.plan_view import show_plan_comparison
from geomodel.ui.components.problems import hide_server_paths, plain
from geomodel.ui.components.run_panel import cache_folder, run_label
from geomodel.ui.components.tables import show_table
from geomodel.ui.format import HIGHER_IS_BETTER, kpi_label
from geomodel.ui.paths import RESULTS_ROOT_ENV, results_root
from geomodel.ui.run_store import RunStore

#: a batch folder to open first, relative to the results root
BATCH_ENV = "GEOMODEL_APP_BATCH"
COMPARISON_TABLE = {
    "kpi": (None, None),
    "name": ("KPI", None),
    "units": ("Units", None),
    "A": ("Run A", None),
    "B": ("Run B", None),
    "B - A": ("B - A", None),
    "change (%)": ("Change (%)", None),
    "description": ("What it is", None),
}
DIFFERENCE_TABLE = {"what": ("What", None), "A": ("Run A", None), "B": ("Run B", None)}


def recipe_differences(a: dict, b: dict) -> pd.DataFrame:
    """What differs between two runs' recipes: file, variants, each --set field."""
    ra, rb = a.get("recipe", {}), b.get("recipe", {})
    rows = []
    for what, key in (("scenario file", "name"), ("variants", "variants")):
        va, vb = ra.get(key), rb.get(key)
        if va != vb:
            rows.append({"what": what, "A": _text(va), "B": _text(vb)})
    sets_a = json.loads(ra.get("overrides_json", "{}"))
    sets_b = json.loads(rb.get("overrides_json", "{}"))
    for path in sorted(set(sets_a) | set(sets_b)):
        if sets_a.get(path, "-") != sets_b.get(path, "-"):
            rows.append(
                {"what": f"--set {path}", "A": _text(sets_a.get(path)), "B": _text(sets_b.get(path))}
            )
    return pd.DataFrame(rows, columns=["what", "A", "B"])


def _text(value) -> str:
    if value is None:
        return "as in the file"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def _linked_pair(by_hash: dict) -> None:
    """Take the runs of the address (``?a=...&b=...``: a reload, or a shared link)."""
    for param, key in (
        (state.COMPARE_A_PARAM, state.COMPARE_A),
        (state.COMPARE_B_PARAM, state.COMPARE_B),
    ):
        wanted = st.query_params.get(param)
        if wanted in by_hash and state.get(key) is None:
            state.put(key, wanted)


def two_runs() -> None:
    folder = cache_folder()
    store = RunStore(folder)
    for param in (state.COMPARE_A_PARAM, state.COMPARE_B_PARAM):
        linked = st.query_params.get(param)
        if linked and store.record(linked) is not None:
            sessions.remember(linked)  # shared by link
    records = sessions.records(folder)
    if len(records) < 2:
        st.info("Compare needs two finished runs of yours: run a scenario, change a knob, run it again.")
        st.caption(sessions.statement())
        return
    by_hash = {r["hash"]: r for r in records}
    hashes = list(by_hash)
    _linked_pair(by_hash)
    for key, default in ((state.COMPARE_A, hashes[1]), (state.COMPARE_B, hashes[0])):
        if state.get(key) not in by_hash:
            state.put(key, default)
    a = st.selectbox(
        "Run A (reference)", hashes, format_func=lambda h: run_label(by_hash[h]), key=state.COMPARE_A
    )
    b = st.selectbox("Run B", hashes, format_func=lambda h: run_label(by_hash[h]), key=state.COMPARE_B)
    st.query_params[state.COMPARE_A_PARAM], st.query_params[state.COMPARE_B_PARAM] = a, b
    st.markdown("**What differs**")
    differences = recipe_differences(by_hash[a], by_hash[b])
    if differences.empty:
        st.caption("The two runs solve the same recipe.")
    else:
        show_table(differences, DIFFERENCE_TABLE, f"recipe-differences-{a[:8]}-{b[:8]}", rows=None)
    kpis_a, kpis_b = by_hash[a].get("kpis", {}), by_hash[b].get("kpis", {})
    plans = [bool(by_hash[h].get("planning")) for h in (a, b)]
    st.markdown("**Run B, with its change from run A**")
    show_kpis(kpis_b, reference=kpis_a, planning=any(plans))
    show_table(comparison_frame(kpis_a, kpis_b), COMPARISON_TABLE, f"kpis-{a[:8]}-{b[:8]}", rows=None)
    _plans(by_hash[a], by_hash[b], plans)
    commands = pd.DataFrame(
        {"run": ["A", "B"], "command": [by_hash[a].get("command", ""), by_hash[b].get("command", "")]}
    )
    show_table(
        commands,
        {"run": ("Run", None), "command": ("The same run on the command line", None)},
        f"commands-{a[:8]}-{b[:8]}",
    )


def _plans(a: dict, b: dict, plans: list[bool]) -> None:
    """Two plans side by side: their builds, costs and maps (both runs must be plans)."""
    if not any(plans):
        return
    solved = all(r.get("status") in ("optimal", "time_limit") for r in (a, b))
    if not all(plans) or not solved:
        which = "run A" if not plans[0] else "run B" if not plans[1] else "a run without a solution"
        st.info(f"Builds are compared between two solved plans; {which} is not one.")
        return
    show_plan_comparison(cache_folder(), a["hash"], b["hash"])


def batch_folder() -> None:
    root = results_root()
    found = batch_folders(root)
    typed = st.text_input(
        "Batch folder (the OUTDIR of `geomodel batch SWEEP.yaml -o OUTDIR`), under the results folder",
        value=os.environ.get(BATCH_ENV, found[0] if len(found) == 1 else ""),
        key=state.BATCH_DIR,
        placeholder=found[0] if found else "runs/carbon-sweep",
    ).strip()
    st.caption(
        plain(
            f"Folders are relative to the server's results folder (${RESULTS_ROOT_ENV}); batch "
            "folders found under it: " + (", ".join(found) if found else "none")
        )
    )
    if not typed:
        st.info("Give a folder a batch run wrote (it holds manifest.csv and results/).")
        return
    try:
        folder = inside_root(root, typed)
    except ValueError as error:
        st.error(
            plain(hide_server_paths(str(error), root, "the results folder")),
            icon=":material/folder_off:",
        )
        return
    manifest = folder / MANIFEST
    if not manifest.is_file():
        st.error(plain(f"No {MANIFEST} in {typed}: not a batch folder."), icon=":material/folder_off:")
        return
    try:
        _, table = loaders.batch(str(folder), manifest.stat().st_mtime_ns)
    except (ScenarioError, OSError, ValueError) as error:
        st.error(
            plain(
                hide_server_paths(f"Cannot read the batch folder: {error}", root, "the results folder")
            )
        )
        return
    _batch_table(table)


def _batch_table(table: pd.DataFrame) -> None:
    kpis = [k for k in KPI_SPECS if k in table.columns and pd.api.types.is_numeric_dtype(table[k])]
    params = [c for c in table.columns if c.startswith(PARAM)]
    first = [c for c in ("case", *params, "status", *kpis) if c in table.columns]
    table = table[first + [c for c in table.columns if c not in first]]  # hash and messages last
    spec = {
        "case": ("Case", None),
        **{p: (p.removeprefix(PARAM), None) for p in params},
        "status": ("Status", None),
        **{k: (kpi_label(k), 2) for k in kpis},
    }
    show_table(table, spec, "batch")
    if len(kpis) < 2:
        st.info("The batch has fewer than two numeric KPIs (did any case solve?).")
        return
    cells = st.columns(3)
    x = cells[0].selectbox(
        "x",
        kpis,
        index=kpis.index("cost_usd") if "cost_usd" in kpis else 0,
        format_func=kpi_label,
        key=state.BATCH_X,
    )
    y_default = kpis.index("emissions_tco2") if "emissions_tco2" in kpis else 1
    y = cells[1].selectbox("y", kpis, index=y_default, format_func=kpi_label, key=state.BATCH_Y)
    colour = cells[2].selectbox(
        "Colour by",
        [*params, "status"] if "status" in table.columns else params,
        format_func=lambda c: c.removeprefix(PARAM),
        key=state.BATCH_COLOUR,
    )
    front = pareto_mask(table[x], table[y], x in HIGHER_IS_BETTER, y in HIGHER_IS_BETTER)
    st.plotly_chart(batch_scatter(table, x, y, colour, front))
    st.markdown(
        f"**Pareto front** of {plain(kpi_label(x))} and {plain(kpi_label(y))} "
        f"({front.sum()} of {len(table)} cases)"
    )
    show_table(table[front].sort_values(x), spec, "pareto-front")


def main() -> None:
    st.title("Compare")
    runs, batch = st.tabs(["Two runs", "Batch folder"])
    with runs:
        two_runs()
    with batch:
        batch_folder()


main()
