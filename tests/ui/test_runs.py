"""Runs under streamlit.testing: progress, KPIs, the results page, the cache across
sessions (a browser reload), no duplicate runs, and an infeasible run in words."""

from __future__ import annotations

import time

import pytest

from geomodel.ui import loaders, state
from geomodel.ui.format import HEADLINE, format_kpi, kpi_label
from geomodel.ui.recipe import Recipe
from geomodel.ui.run_store import RunStore

from .conftest import (
    RUN_TIMEOUT,
    element_path,
    metrics,
    number,
    open_view,
    page,
    run_button,
    run_scenario,
    table_with,
    unescape,
    wait_for_run,
    widget,
)

RESULT_TABS = "Map Energy Placement Latency Utilisation|DCI links|Per workload|Shadow prices|All KPIs"


def test_a_run_shows_progress_then_its_kpis_and_results(app, app_cache):
    at = app().run()
    widget(at.number_input, "Horizon (h)").set_value(24).run()
    map_at = element_path(at, "deck_gl_json_chart")
    run_button(at).click().run()
    assert at.get("progress") or at.success, "no progress bar after pressing Run"
    # the map stays where it was (the browser keeps it drawn) with progress, then KPIs, above it
    assert element_path(at, "deck_gl_json_chart") == map_at
    wait_for_run(at)
    assert at.success[0].value.startswith("Solved: optimal")
    assert element_path(at, "deck_gl_json_chart") == map_at
    scenario_hash = at.session_state[state.LAST_RUN]
    record = RunStore(app_cache).record(scenario_hash)
    assert record["status"] == "optimal"
    assert record["command"] == "geomodel run scenarios/quickstart.yaml --set time.hours=24"
    shown = metrics(at)
    for name in HEADLINE:
        assert shown[kpi_label(name)] == format_kpi(name, record["kpis"][name])

    page(at, "results")
    assert not at.exception
    assert at.query_params[state.RUN_PARAM] == scenario_hash
    shown = metrics(at)
    for name in HEADLINE:
        assert shown[kpi_label(name)] == format_kpi(name, record["kpis"][name])
    head, *tail = RESULT_TABS.split("|")
    assert [t.label for t in at.tabs] == [*head.split(), *tail]  # one job, no job table: no Jobs tab
    # only the open tab runs: the map first; energy: power, generation, duration curves
    charts = {"Map": (0, 1), "Energy": (3, 0), "Placement": (1, 0), "Latency": (1, 0)}
    charts.update({"Utilisation": (1, 0), "DCI links": (1, 0), "Per workload": (1, 0)})
    for view, (plots, maps) in charts.items():
        open_view(at, view)
        assert not at.exception, view
        assert (len(at.get("plotly_chart")), len(at.get("deck_gl_json_chart"))) == (plots, maps), view
        downloads = [d.label for d in at.get("download_button")]
        assert downloads[:2] == ["Results (NetCDF)", "KPI table (CSV)"]
        assert downloads.count("CSV") == len(at.table), view  # every table exportable
    workloads = table_with(at, "Kind")
    assert workloads["Name"].tolist() == ["pretrain", "chat", "idle chips", "DCI links", "= the KPIs"]
    total = workloads.set_index("Name").loc["= the KPIs"]
    # the rows add up to the KPIs (shown rounded: MWh to 0.1, tCO2e to 0.01, USD to 1)
    for heading, name, rounding in (
        ("Energy (MWh)", "energy_mwh", 0.05),
        ("Emissions (tCO2e)", "emissions_tco2", 0.005),
        ("Energy cost (USD)", "cost_usd", 0.5),
    ):
        assert number(total[heading]) == pytest.approx(record["kpis"][name], abs=rounding)

    open_view(at, "Placement").selectbox(key=state.RESULT_WORKLOAD).set_value(("service", "chat")).run()
    open_view(at, "Utilisation").radio(key=state.RESULT_UTILISATION).set_value(
        "power of envelope (%)"
    ).run()
    open_view(at, "Energy").selectbox(key=state.RESULT_ENERGY_SITE).set_value("ashburn").run()
    at.radio(key=state.RESULT_DURATION).set_value("grid").run()
    open_view(at, "DCI links").radio(key=state.RESULT_LINKS).set_value("utilisation").run()
    kpis = table_with(open_view(at, "All KPIs"), "What it is").set_index("KPI")
    assert kpis.loc["Renewables", "Units"] == "%"  # a share, as a percentage
    assert not at.exception


def test_a_reloaded_page_finds_the_cached_run(app):
    first = run_scenario(app(), hours=24)
    scenario_hash = first.session_state[state.LAST_RUN]
    again = app().run()  # a new browser session, as after a reload
    widget(again.number_input, "Horizon (h)").set_value(24).run()
    assert run_button(again).label == "Run (cached)"
    assert again.success and "Energy cost (USD)" in metrics(again)
    reloaded = app()
    reloaded.query_params[state.RUN_PARAM] = scenario_hash
    reloaded.run()
    page(reloaded, "results")
    assert reloaded.selectbox(key=state.RESULT_PICK).value == scenario_hash


def test_the_same_scenario_is_never_solved_twice_at_once(app, app_cache, catalog):
    from geomodel.ui.paths import scenarios_dir
    from geomodel.ui.recipe import load_recipe

    app().run()  # the session's runner (and its warm solver process)
    runner = loaders.runner(str(app_cache))
    recipe = Recipe("bundled", "quickstart.yaml").with_overrides({"time.hours": 30})
    scenario_hash = load_recipe(recipe, catalog, scenarios_dir()).origin.scenario_hash
    assert runner.submit(recipe.as_dict(), scenario_hash, recipe.label(), 120) == "started"
    assert runner.submit(recipe.as_dict(), scenario_hash, recipe.label(), 120) == "running"
    other = app().run()  # another session on the same scenario sees the run in progress
    widget(other.number_input, "Horizon (h)").set_value(30).run()
    assert other.get("progress") or other.success
    deadline = time.monotonic() + RUN_TIMEOUT
    while runner.status(scenario_hash).state == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert runner.status(scenario_hash).state == "done"
    assert runner.submit(recipe.as_dict(), scenario_hash, recipe.label(), 120) == "cached"


def test_an_infeasible_run_explains_itself(app):
    at = run_scenario(app(), hours=6)
    assert any("No solution (infeasible)" in e.value for e in at.error)
    page(at, "results")
    assert not at.exception
    assert any("No solution" in unescape(e.value) for e in at.error)
    assert "Why" in [m.value.strip("*") for m in at.markdown]
    assert any("pretrain" in unescape(m.value) for m in at.markdown)  # the reason, in words
    assert not at.metric


def test_results_open_the_run_the_scenario_page_showed_last(app):
    at = run_scenario(app(), hours=24)
    first = at.session_state[state.LAST_RUN]
    page(at, "results")
    assert at.selectbox(key=state.RESULT_PICK).value == first
    page(at, "scenario")
    run_scenario(at, hours=24, carbon_price=50.0)
    second = at.session_state[state.LAST_RUN]
    assert second != first
    page(at, "results")
    assert at.selectbox(key=state.RESULT_PICK).value == second


def test_the_results_map_keeps_its_place_whether_a_run_in_progress_shows_above_it(app, app_cache):
    at = run_scenario(app(), hours=24)
    page(at, "results")
    map_at = element_path(at, "deck_gl_json_chart")
    runner = loaders.runner(str(app_cache))
    recipe = Recipe("bundled", "quickstart.yaml").with_overrides({"time.hours": 36})
    wrong_hash = "0" * 64  # not the recipe's: its solver process refuses it, the run fails
    assert runner.submit(recipe.as_dict(), wrong_hash, recipe.label(), 120) == "started"
    deadline = time.monotonic() + RUN_TIMEOUT
    while runner.status(wrong_hash).state == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
    at.session_state[state.LAST_RUN] = wrong_hash
    at.run()
    assert any("The run failed" in e.value for e in at.error)
    assert element_path(at, "deck_gl_json_chart") == map_at


def test_the_first_solver_process_waits_until_the_page_is_drawn(tmp_path, monkeypatch):
    from geomodel.ui.runs import Runner

    runner = Runner(RunStore(tmp_path), 1)
    started: list[float] = []
    monkeypatch.setattr(runner, "warm_up", lambda: started.append(time.monotonic()))
    asked = time.monotonic()
    runner.warm_up_later(0.3)
    runner.warm_up_later(0.3)  # once only
    assert started == []
    deadline = time.monotonic() + 30
    while not started and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    assert len(started) == 1 and started[0] - asked >= 0.3
    runner.shutdown()


def test_a_page_following_a_run_wakes_as_it_ends_not_at_its_next_poll(tmp_path):
    import threading

    from geomodel.ui.runs import Runner

    runner = Runner(RunStore(tmp_path), 0)  # no solver process: the run stays queued
    assert runner.submit({"path": "quickstart.yaml"}, "h" * 64, "queued run") == "started"
    assert runner.wait_for_end("h" * 64, 0.05) is False  # still queued
    assert runner.wait_for_end("x" * 64, 5.0) is False  # not a run: no wait at all
    threading.Timer(0.2, runner.cancel, args=("h" * 64,)).start()
    began = time.monotonic()
    assert runner.wait_for_end("h" * 64, 10.0) is True
    assert 0.15 < time.monotonic() - began < 2.0  # woken by the end, long before the 10 s
    assert runner.status("h" * 64).state == "cancelled"
    runner.shutdown()
