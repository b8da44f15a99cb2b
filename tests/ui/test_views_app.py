"""The new views under streamlit.testing (issue 23), on the small scenarios of
tests/ui/small_scenarios.py, with a run cache and a bundled folder of this module's own
(so its solver processes read these scenarios): jobs by outcome against a local-only run,
typical days, shadow prices, the queue and Cancel, private runs, uploads that a reload
keeps, and a job table of one's own checked as the CLI checks it."""

from __future__ import annotations

import time

import pytest

from geomodel.scenario import ScenarioError, load_scenario
from geomodel.ui import loaders, state
from geomodel.ui.paths import CACHE_ENV, SCENARIOS_ENV, cache_dir, scenarios_dir
from geomodel.ui.recipe import Recipe, load_recipe
from geomodel.ui.run_store import RunStore
from geomodel.ui.runs import Runner
from geomodel.ui.sessions import SHARED_ENV
from geomodel.ui.uploads import digest_of

from . import small_scenarios as ss
from .conftest import (
    RUN_TIMEOUT,
    number,
    open_view,
    page,
    run_button,
    table_with,
    unescape,
    wait_for_run,
)

pytestmark = pytest.mark.slow  # real solves in solver processes: about a minute in all


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """This module's bundled folder and run cache (its own runner and solver processes)."""
    bundled = ss.write(tmp_path_factory.mktemp("bundled"))
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(SCENARIOS_ENV, str(bundled))
        patch.setenv(CACHE_ENV, str(cache))
        yield bundled, cache
        loaders.runner(str(cache)).shutdown()


@pytest.fixture
def session(folders):
    from streamlit.testing.v1 import AppTest

    from .conftest import APP, SCRIPT_TIMEOUT

    def make(**params) -> AppTest:
        at = AppTest.from_file(str(APP), default_timeout=SCRIPT_TIMEOUT)
        for key, value in params.items():
            at.query_params[key] = value
        return at

    return make


def solved(at, name: str):
    """Open a bundled scenario, run it (or find it cached), and open its results."""
    at.query_params[state.SCENARIO_PARAM] = name
    at.run()
    button = run_button(at)
    if button.label == "Run":
        button.click().run()
    wait_for_run(at)
    return page(at, "results")


def params(at, key: str) -> list[str]:
    """A query parameter's values (one or many)."""
    value = at.query_params.get(key, [])
    return [value] if isinstance(value, str) else list(value)


def until(at, done, timeout: float = RUN_TIMEOUT):
    """Rerun the page (as its polling fragment would) until ``done(at)``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at.run()
        assert not at.exception, at.exception
        if done(at):
            return at
        time.sleep(0.5)
    raise AssertionError("the page never got there")


def test_a_trace_is_followed_job_by_job_and_against_a_local_only_run(session):
    at = solved(session(), "trace-small.yaml")
    assert [t.label for t in at.tabs][:2] == ["Map", "Jobs"]
    open_view(at, "Jobs")
    summary = table_with(at, "What it means").set_index("Outcome")
    assert summary.loc["moved, on arrival", "Jobs"] == "1"
    assert summary.loc["at origin, on arrival", "Jobs"] == "3"
    assert any("job0001+3 is a class" in c.value.replace("\\", "") for c in at.caption)
    at.text_input(key=state.RESULT_JOB_SEARCH).set_value("home3").run()
    jobs = table_with(at, "Class (solved as)")
    assert jobs["Job"].tolist() == ["home3"] and jobs["Class (solved as)"].tolist() == ["home+2"]
    assert any(
        "home+2 is 3 jobs solved as one: home, home2, home3" in unescape(c.value) for c in at.caption
    )
    downloads = [d.label for d in at.get("download_button")]
    assert downloads.count("CSV") == len(at.table)
    [local] = [b for b in at.button if b.label == "Solve the local-only run"]
    local.click().run()
    until(at, lambda a: any("Saved (%)" in t.value.columns for t in a.table))
    saved = table_with(at, "Saved (%)").set_index("What")
    # by hand (small_scenarios): 27.672 kWh x 100 USD/MWh of energy, 2 USD of transfer
    assert number(saved.loc["energy cost (USD)", "Saved"]) == pytest.approx(2.7672, abs=0.05)
    assert number(saved.loc["data transfer cost (USD)", "Saved"]) == pytest.approx(-2.0, abs=0.05)


def test_typical_days_are_drawn_per_day_and_on_the_map_slider(session):
    at = open_view(solved(session(), "typical-small.yaml"), "Energy")
    assert not at.exception
    power = at.get("plotly_chart")[0].proto.spec
    assert "like " in power and "typical days" in power and "time (UTC)" not in power
    at.radio(key=state.RESULT_ENERGY_AS).set_value("the year rebuilt").run()
    assert "rebuilt from its typical days" in at.get("plotly_chart")[0].proto.spec
    open_view(at, "Map").radio(key=state.RESULT_MAP_WHEN).set_value("one step").run()
    options = at.select_slider(key=state.RESULT_MAP_STEP).options  # as shown
    # 2 typical days of 4 segments, each named by the first day it stands for and its days
    assert len(options) == 8 and all(str(o).startswith("like ") and " day" in str(o) for o in options)
    assert options[0].endswith(", 00:00-08:00") or ", 00:00-" in options[0]


def test_the_envelope_is_priced_by_its_duals(session):
    at = open_view(solved(session(), "envelope-small.yaml"), "Shadow prices")
    prices = table_with(at, "One more MW is worth (USD over the horizon)").set_index("Site")
    # by hand (small_scenarios): 100 USD/MWh x 4 h x 0.5765 / 0.8825 = 261.30 USD/MW
    assert number(prices.loc["cheap", "One more MW is worth (USD over the horizon)"]) == 261
    assert number(prices.loc["dear", "One more MW is worth (USD over the horizon)"]) == 0
    assert number(prices.loc["cheap", "Hours at the envelope"]) == 4
    assert any("no inference services" in c.value for c in at.caption)


def test_the_queue_says_who_waits_for_what_and_cancel_stops_a_run(folders, catalog, tmp_path):
    bundled, _ = folders
    runner = Runner(RunStore(tmp_path), 1)  # one solver process: the second run waits
    try:
        names = ["envelope-small.yaml", "trace-small.yaml", "typical-small.yaml"]
        recipes = [Recipe("bundled", n) for n in names]
        hashes = [load_recipe(r, catalog, bundled).origin.scenario_hash for r in recipes]
        for recipe, scenario_hash, who in zip(recipes, hashes, ("me", "you", "me"), strict=True):
            assert (
                runner.submit(recipe.as_dict(), scenario_hash, recipe.name, 60, session=who) == "started"
            )
        waiting = runner.status(hashes[1])
        assert waiting.phase == "queued" and waiting.ahead == [hashes[0]] and waiting.session == "you"
        assert runner.status(hashes[2]).ahead == hashes[:2]
        assert [s.scenario_hash for s in runner.active()] == hashes
        assert runner.cancel(hashes[1])  # out of the queue: the others go on
        assert runner.status(hashes[1]).state == "cancelled"
        assert runner.status(hashes[2]).ahead == [hashes[0]]
        assert runner.cancel(hashes[0])  # being solved: its process ends, a new one starts
        deadline = time.monotonic() + RUN_TIMEOUT
        while runner.status(hashes[2]).state == "running" and time.monotonic() < deadline:
            time.sleep(0.3)
        assert runner.status(hashes[0]).state == "cancelled"
        assert runner.status(hashes[2]).state == "done"  # the fresh process solved the last one
    finally:
        runner.shutdown()


def test_cancel_on_the_page_stops_the_run(session):
    at = session(scenario="quickstart.yaml")
    at.run()
    at.number_input(key=next(k for k in at.session_state if k.endswith("time.hours"))).set_value(
        336
    ).run()
    run_button(at).click().run()
    cancel = [b for b in at.button if b.label == "Cancel"]
    assert cancel, "no Cancel button while the run waits or solves"
    cancel[0].click().run()
    until(at, lambda a: any("cancelled" in i.value for i in a.info))
    assert run_button(at).label == "Run"


def test_runs_are_private_to_a_session_unless_shared_by_link(session, monkeypatch):
    first = solved(session(), "envelope-small.yaml")
    scenario_hash = first.session_state[state.LAST_RUN]
    other = page(session().run(), "results")
    assert any("No finished runs of yours yet" in i.value for i in other.info)
    assert any("private to this browser tab" in c.value for c in other.sidebar.caption)
    linked = page(session(run=scenario_hash).run(), "results")
    assert linked.selectbox(key=state.RESULT_PICK).value == scenario_hash
    monkeypatch.setenv(SHARED_ENV, "1")
    shared = page(session().run(), "results")
    assert any(
        o.startswith("envelope-small.yaml") for o in shared.selectbox(key=state.RESULT_PICK).options
    )
    assert any("This server is shared" in c.value for c in shared.sidebar.caption)


def upload(at, name: str, data: bytes):
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    at.file_uploader(key=state.UPLOAD).set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    return at


def test_an_upload_message_belongs_to_the_upload_shown_and_a_reload_keeps_it(session):
    at = upload(session().run(), "passwd", b"root:x:0:0\n")
    assert any("a scenario is a YAML file named" in unescape(e.value) for e in at.error)
    text = (ss.REPO / "scenarios" / "quickstart.yaml").read_text()
    at.file_uploader(key=state.UPLOAD).set_value(("mine.yaml", text.encode(), "text/yaml")).run()
    assert not at.error  # the refusal went with the refused file
    assert params(at, state.UPLOAD_PARAM) == [digest_of(text.encode())]
    reloaded = session(**{state.UPLOAD_PARAM: digest_of(text.encode())}).run()
    assert any("Using mine.yaml" in unescape(i.value) for i in reloaded.info)
    gone = session(**{state.UPLOAD_PARAM: "0" * 32}).run()
    assert any("no longer on the server" in w.value for w in gone.warning)


def test_no_message_shows_a_server_folder(session):
    text = (ss.REPO / "scenarios" / "europe-nordics.yaml").read_text()
    outside = text.replace("csv: data/europe-chat-demand.csv", "csv: ../../../etc/passwd", 1)
    at = upload(session().run(), "up.yaml", outside.encode())
    shown = " ".join(unescape(e.value) for e in at.error)
    assert "path escapes" in shown
    assert str(scenarios_dir()) not in shown and str(cache_dir()) not in shown
    assert "/" not in shown.split("path escapes")[1].split(";")[0].replace("../", "")


def test_a_job_table_upload_is_checked_as_the_cli_checks_it(session, folders, catalog):
    bundled, _ = folders
    at = session(scenario="trace-small.yaml").run()
    bad = ss.TRACE_JOBS.replace("far,40,8,dear,100", "far,40,-8,dear,100")
    at.file_uploader(key=state.TABLE_UPLOAD).set_value(("mine.csv", bad.encode(), "text/csv")).run()
    shown = [unescape(e.value) for e in at.error]
    assert any("The job table uploaded-mine.csv was refused" in e for e in shown)
    # the CLI's own line: the same file beside the scenario, loaded with --set
    (bundled / "uploaded-mine.csv").write_text(bad)
    try:
        with pytest.raises(ScenarioError) as cli:
            load_scenario(
                bundled / "trace-small.yaml",
                overrides=["job_tables.trace.file=uploaded-mine.csv"],
                catalog=catalog,
            )
    finally:
        (bundled / "uploaded-mine.csv").unlink()
    expected = [str(p).replace(f"{bundled}/", "") for p in cli.value.problems if p.severity == "error"]
    assert expected and all(line in shown for line in expected)
    good = ss.TRACE_JOBS.replace("far,40,8,dear,100", "far,40,8,dear,300")  # too dear to move now
    at.file_uploader(key=state.TABLE_UPLOAD).set_value(("mine.csv", good.encode(), "text/csv")).run()
    assert any("Using your job table uploaded-mine.csv" in unescape(s.value) for s in at.success)
    assert any(v.startswith("job_tables.trace.file=") for v in params(at, state.SET_PARAM))
    assert params(at, state.TABLE_PARAM)
    run_button(at).click().run()
    until(at, lambda a: any(s.value.startswith("Solved") for s in a.success))
    record = RunStore(cache_dir()).record(at.session_state[state.LAST_RUN])
    assert record["command"].endswith("--set job_tables.trace.file=uploaded-mine.csv")
    assert record["kpis"]["transfer_gb"] == pytest.approx(0.0)  # 300 GB: far stays home


def test_a_plan_has_whole_unit_toggles(session):
    at = session(scenario="quickstart.yaml").run()
    assert not at.toggle  # nothing to build
    with pytest.MonkeyPatch.context() as patch:  # the repository's own plan
        patch.setenv(SCENARIOS_ENV, str(ss.REPO / "scenarios"))
        plan = session(scenario="plan-small.yaml").run()
        labels = {t.label: t.value for t in plan.toggle}
        assert labels == {"Whole racks (systems)": False, "Whole sites": True, "Whole fibre pairs": True}
        [racks] = [t for t in plan.toggle if t.label == "Whole racks (systems)"]
        racks.set_value(True).run()
        assert "solver.integer.whole_systems=true" in params(plan, state.SET_PARAM)
