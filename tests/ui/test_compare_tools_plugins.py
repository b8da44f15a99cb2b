"""Compare (two runs, a batch folder), tools and plugins pages under streamlit.testing."""

from __future__ import annotations

import json
import shutil

import pandas as pd

from geomodel.batch.store import MANIFEST, PARAM, record_path, result_path, write_manifest
from geomodel.ui import state
from geomodel.ui.format import HEADLINE, kpi_label
from geomodel.ui.paths import RESULTS_ROOT_ENV
from geomodel.ui.run_store import RunStore

from .conftest import metrics, page, run_scenario, table_with, unescape, widget


def _two_runs(app):
    """Two runs in one browser session (its runs are its own); returns the session too."""
    at = run_scenario(app(), hours=24)
    a = at.session_state[state.LAST_RUN]
    b = run_scenario(at, hours=24, carbon_price=50.0).session_state[state.LAST_RUN]
    return a, b, at


def test_two_runs_side_by_side_with_kpi_deltas(app, app_cache):
    a, b, at = _two_runs(app)
    page(at, "compare")
    assert not at.exception
    at.selectbox(key=state.COMPARE_A).set_value(a).run()
    at.selectbox(key=state.COMPARE_B).set_value(b).run()
    assert (at.query_params[state.COMPARE_A_PARAM], at.query_params[state.COMPARE_B_PARAM]) == (a, b)
    shown = {m.label: m for m in at.metric}
    assert shown["Objective (USD)"].delta.startswith("+")  # a carbon price costs money
    # a KPI equal in both runs says "no change" (it showed a red "+0"); all demand is
    # served in both, so the unserved share is one of them
    kpis_a, kpis_b = (RunStore(app_cache).record(h)["kpis"] for h in (a, b))
    unchanged = [n for n in HEADLINE if kpis_a[n] == kpis_b[n]]
    assert "unserved_fraction" in unchanged
    for name in unchanged:
        assert shown[kpi_label(name)].delta == "no change", name
    differences = table_with(at, "What")
    assert differences.to_dict("records") == [
        {"What": "--set objective.carbon_price", "Run A": "as in the file", "Run B": "50.0"}
    ]
    table = table_with(at, "Change (%)")
    assert list(table.columns) == ["KPI", "Units", "Run A", "Run B", "B - A", "Change (%)", "What it is"]
    rows = table.set_index("KPI")
    carbon_term = rows.loc["Objective: carbon cost"]
    assert carbon_term["Run A"] == "0" and carbon_term["Run B"] != "0"
    assert carbon_term["Change (%)"] == "-"  # from 0: no share to give, a dash (was "None")
    assert rows.loc["Unserved", "B - A"] == "no change" and rows.loc["Unserved", "Units"] == "%"


def test_a_batch_folder_as_table_scatter_and_pareto_front(app, app_cache, tmp_path, monkeypatch):
    *hashes, _ = _two_runs(app)
    outdir = tmp_path / "batch"
    (outdir / "results").mkdir(parents=True)
    rows = []
    for price, scenario_hash in zip((0, 50), hashes, strict=True):
        record = RunStore(app_cache).record(scenario_hash)
        shutil.copy(RunStore(app_cache).result_path(scenario_hash), result_path(outdir, scenario_hash))
        case = {"case": f"carbon_price={price}", "status": record["status"], "kpis": record["kpis"]}
        record_path(outdir, scenario_hash).write_text(json.dumps(case))
        rows.append(
            {
                "case": case["case"],
                f"{PARAM}objective.carbon_price": price,
                "hash": scenario_hash,
                "status": record["status"],
                "message": "",
            }
        )
    write_manifest(outdir, rows)

    monkeypatch.setenv(RESULTS_ROOT_ENV, str(tmp_path))
    at = app().run()
    page(at, "compare")
    at.text_input(key=state.BATCH_DIR).input(str(tmp_path)).run()
    assert any(MANIFEST in e.value for e in at.error)  # not a batch folder
    at.text_input(key=state.BATCH_DIR).input(str(outdir)).run()
    assert not at.exception
    table = at.table[-2].value
    assert [unescape(c) for c in table["Case"]] == ["carbon_price=0", "carbon_price=50"]
    at.selectbox(key=state.BATCH_X).set_value("cost_usd").run()
    at.selectbox(key=state.BATCH_Y).set_value("emissions_tco2").run()
    assert widget(at.selectbox, "Colour by").value == f"{PARAM}objective.carbon_price"
    assert len(at.get("plotly_chart")) == 1
    front = at.table[-1].value
    assert isinstance(front, pd.DataFrame) and 1 <= len(front) <= 2
    assert "results folder" in " ".join(c.value for c in at.caption) and str(tmp_path) not in " ".join(
        c.value for c in at.caption
    )  # no server folder on the page
    assert not at.exception


def test_tools_page(app):
    at = app().run()
    page(at, "tools")
    assert not at.exception
    assert [t.label for t in at.tabs] == ["Sizing", "Reliability", "DCI latency"]
    sizing = table_with(at, "Racks")
    assert {"gb200_nvl72", "hgx_h100_8"} <= set(sizing["System"])
    at.number_input(key=state.tool_key("sizing", "chips")).set_value(8).run()
    installed = table_with(at, "Racks").set_index("System")["Chips"]
    assert installed["hgx_h100_8"] == "8" and installed["gb200_nvl72"] == "72"  # whole systems
    shown = metrics(at)
    assert float(shown["Great-circle distance (km)"]) > 100  # Zhangbei to Beijing
    assert "Goodput (%)" in shown
    at.selectbox(key=state.tool_key("reliability", "system")).set_value("gb200_nvl72").run()
    at.number_input(key=state.tool_key("dci", "budget")).set_value(0.0).run()
    assert not at.exception


def test_plugins_page(app):
    at = app().run()
    page(at, "plugins")
    assert not at.exception
    plugins = at.table[0].value
    builtins = {"hardware", "dci", "grid", "solar", "wind", "firm", "battery"}
    assert builtins <= set(plugins["Plugin"])
    hardware = plugins.map(unescape).set_index("Plugin").loc["hardware", "Hardware systems"]
    assert "gb200_nvl72" in hardware
    if at.success:  # other tests may install a broken plugin for a while
        assert at.success[0].value == "No plugin failed to load."
    else:
        assert "plugin problem" in at.error[0].value
        assert {"Name", "Distribution", "Stage", "Reason"} <= set(at.table[1].value.columns)
    # hardware, links, power sources, build costs, weather points, language models
    assert len(at.tabs) == 6
    weather = plugins.map(unescape).set_index("Plugin").loc["weather", "Weather points"]
    assert "weather_de_lu" in weather
    models = plugins.map(unescape).set_index("Plugin").loc["language_models", "Language models"]
    assert "mixtral-8x22b" in models
    catalogue = at.tabs[5].table[0].value.map(unescape)
    assert {"Name", "Params", "Active params", "Experts"} <= set(catalogue.columns)
    assert "mixtral-8x22b" in set(catalogue["Name"])
