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

from .conftest import metrics, page, run_scenario, widget


def _two_runs(app) -> tuple[str, str]:
    a = run_scenario(app(), hours=24).session_state[state.LAST_RUN]
    b = run_scenario(app(), hours=24, carbon_price=50.0).session_state[state.LAST_RUN]
    return a, b


def test_two_runs_side_by_side_with_kpi_deltas(app, app_cache):
    a, b = _two_runs(app)
    at = app().run()
    page(at, "compare")
    assert not at.exception
    at.selectbox(key=state.COMPARE_A).set_value(a).run()
    at.selectbox(key=state.COMPARE_B).set_value(b).run()
    shown = {m.label: m for m in at.metric}
    assert shown["Objective (USD)"].delta.startswith("+")  # a carbon price costs money
    # a KPI equal in both runs says "no change" (it showed a red "+0"); all demand is
    # served in both, so the unserved share is one of them
    kpis_a, kpis_b = (RunStore(app_cache).record(h)["kpis"] for h in (a, b))
    unchanged = [n for n in HEADLINE if kpis_a[n] == kpis_b[n]]
    assert "unserved_fraction" in unchanged
    for name in unchanged:
        assert shown[kpi_label(name)].delta == "no change", name
    differences = at.dataframe[0].value
    assert differences.to_dict("records") == [
        {"what": "--set objective.carbon_price", "A": "as in the file", "B": "50.0"}
    ]
    table = at.dataframe[1].value
    assert list(table.columns) == ["kpi", "description", "units", "A", "B", "B - A", "change (%)"]
    carbon_term = table.set_index("kpi").loc["carbon_cost_term_usd"]
    assert carbon_term["A"] == "0" and carbon_term["B"] != "0"


def test_a_batch_folder_as_table_scatter_and_pareto_front(app, app_cache, tmp_path, monkeypatch):
    hashes = _two_runs(app)
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
    table = at.dataframe[-2].value
    assert table["case"].tolist() == ["carbon_price=0", "carbon_price=50"]
    at.selectbox(key=state.BATCH_X).set_value("cost_usd").run()
    at.selectbox(key=state.BATCH_Y).set_value("emissions_tco2").run()
    assert widget(at.selectbox, "Colour by").value == f"{PARAM}objective.carbon_price"
    assert len(at.get("plotly_chart")) == 1
    front = at.dataframe[-1].value
    assert isinstance(front, pd.DataFrame) and 1 <= len(front) <= 2
    assert not at.exception


def test_tools_page(app):
    at = app().run()
    page(at, "tools")
    assert not at.exception
    assert [t.label for t in at.tabs] == ["Sizing", "Reliability", "DCI latency"]
    sizing = at.dataframe[0].value
    assert {"gb200_nvl72", "hgx_h100_8"} <= set(sizing["system"])
    at.number_input(key=state.tool_key("sizing", "chips")).set_value(8).run()
    installed = at.dataframe[0].value.set_index("system")["chips_installed"]
    assert installed["hgx_h100_8"] == 8 and installed["gb200_nvl72"] == 72  # whole systems
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
    plugins = at.dataframe[0].value
    builtins = {"hardware", "dci", "grid", "solar", "wind", "firm", "battery"}
    assert builtins <= set(plugins["plugin"])
    hardware = plugins.set_index("plugin").loc["hardware", "hardware systems"]
    assert "gb200_nvl72" in hardware
    if at.success:  # other tests may install a broken plugin for a while
        assert at.success[0].value == "No plugin failed to load."
    else:
        assert "plugin problem" in at.error[0].value
        assert {"name", "distribution", "stage", "reason"} <= set(at.dataframe[1].value.columns)
    assert len(at.tabs) == 5  # hardware, links, power sources, build costs, weather points
    weather = plugins.set_index("plugin").loc["weather", "weather points"]
    assert "weather_de_lu" in weather
