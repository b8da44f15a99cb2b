"""End to end in a real browser: ``streamlit run app.py`` driven by Playwright in Debian's
headless Chromium at 1280 px, the walk of issue 23's "Done when" (after issue 15's):

run the quickstart (its KPIs as ``geomodel run ... --json``; green only when proven
optimal), turn a knob and keep it across pages, compare the two runs (KPI names in words,
"no change", every table in the page's text, none scrolling sideways); the result map with
each label at its own marker (screenshot pixels), the energy views (axes that cannot print
"-2f"), an SLA re-solve; a typical-day run drawn per typical day; a trace followed job by
job, searched by name, against its local-only run, with arrows of moved work; a map on two
continents as two panels with leader lines and the technology mix; a relaxed plan that
says it is fractional, with whole-unit toggles; a queue, and Cancel; a second visitor who
sees none of these runs until given a link; uploads whose messages belong to the upload on
screen and survive a reload, a job table of one's own. Nothing is cut off at 1280 and
1440 px, and screenshots land in ``test-artifacts/`` (docs/images/ holds copies).

The walk's browser draws no WebGL (software WebGL was most of the walk's CPU, on maps it
does not look at); the result maps it checks pixel by pixel, and their screenshots, are
drawn in a second browser with WebGL, opened on the run's address.

The server reads a copy of the bundled scenarios with the small ones of
tests/ui/small_scenarios.py beside them and runs one solver process (so runs queue).
Playwright's own browser download cannot work here, so the test uses the system
Chromium at /usr/bin/chromium (``apt-get install chromium``; ``.ci/run`` does it) and
skips, saying so, where that is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from geomodel.results.result import open_result
from geomodel.ui.components.deck import REGION_TEXT, WIDE, map_panels
from geomodel.ui.components.result_map import result_deck
from geomodel.ui.format import format_metric, headline, human, kpi_label
from geomodel.ui.run_store import RunStore

from . import small_scenarios as ss
from .browser_checks import BAD_TICK, CUT_OFF, TABLES, TICKS, labels_at_their_markers
from .conftest import REPO

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The walk's browser draws no WebGL: Chromium renders it in software (SwiftShader, in its
#: GPU process), which cost ~150 s of CPU over the walk, nearly all for the scenario page's
#: map, redrawn on every load, knob and resize, which the walk does not look at (its box and
#: legend still take their place, so the layout checks see the page as drawn). The result
#: maps whose labels the walk checks in pixels, and their screenshots, are drawn with WebGL
#: in a second browser that opens the run through its address (as a shared link does).
WALK_ARGS = [*CHROMIUM_ARGS, "--disable-webgl"]
ARTIFACTS = REPO / "test-artifacts"
START_TIMEOUT_S = 90
RUN_TIMEOUT_MS = 240_000
CARBON = "Carbon price (USD/tCO2)"
HORIZON = "Horizon (h)"
#: every Plotly chart on the page is drawn, axes' tick labels among them
CHARTS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
    .every(c => c.querySelector('svg.main-svg')) && !!document.querySelector('.xtick text')"""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(900),  # about 3 minutes on a quiet 2-core machine; far more under load
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium "
        "(apt-get install chromium); the end-to-end browser test needs it",
    ),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _script(name: str) -> list[str]:
    """The console script next to this Python, or ``python -m``."""
    found = Path(sys.executable).parent / name
    return [str(found)] if found.exists() else [sys.executable, "-m", name]


def _wait_healthy(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"streamlit exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"streamlit did not start in {START_TIMEOUT_S} s:\n{log.read_text()}")


def _stop(server: subprocess.Popen) -> None:
    """End the server we started and its solver processes (its own process group)."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=5)


@pytest.fixture
def server(tmp_path):
    """``streamlit run app.py`` on a free loopback port (with the repository's
    .streamlit/config.toml), a copy of the bundled scenarios and the small ones, its run
    cache in tmp, one solver process; yields (url, cache folder, scenarios folder, the
    server's process id)."""
    bundled = tmp_path / "scenarios"
    shutil.copytree(REPO / "scenarios", bundled)
    ss.write(bundled)
    port = _free_port()
    log = tmp_path / "streamlit.log"
    cache = tmp_path / "cache"
    env = {
        **os.environ,
        "GEOMODEL_APP_CACHE": str(cache),
        "GEOMODEL_APP_SCENARIOS": str(bundled),
        "GEOMODEL_APP_WORKERS": "1",
    }
    command = [
        *_script("streamlit"),
        "run",
        "app.py",
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.fileWatcherType",
        "none",
    ]
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, log)
        yield url, cache, bundled, process.pid
    finally:
        _stop(process)


def _cli(scenario: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*_script("geomodel"), "run", str(scenario), "--json", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _cli_kpis(process: subprocess.Popen) -> dict:
    out, err = process.communicate(timeout=RUN_TIMEOUT_MS / 1000)
    assert process.returncode == 0, err
    return json.loads(out)["kpis"]


_READ_METRICS = """els => els.map(e => [
    (e.querySelector('[data-testid="stMetricLabel"]') || {}).innerText || '',
    (e.querySelector('[data-testid="stMetricValue"]') || {}).innerText || ''])"""


def _metrics(page) -> dict[str, str]:
    """Every metric's label and value, read in one go once two reads agree."""
    previous = None
    for _ in range(40):
        pairs = page.eval_on_selector_all('[data-testid="stMetric"]', _READ_METRICS)
        shown = {label.strip(): value.strip() for label, value in pairs}
        if shown and shown == previous:
            return shown
        previous = shown
        page.wait_for_timeout(250)
    return previous or {}


def _assert_matches_cli(shown: dict[str, str], cli_kpis: dict, planning: bool = False) -> None:
    for name in headline(planning):
        assert shown[kpi_label(name)] == format_metric(name, cli_kpis.get(name)), name


def _settle(page, ms: int = 600) -> None:
    """Let a rerun finish drawing (Streamlit greys stale elements while it runs)."""
    page.wait_for_timeout(ms)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget]')", timeout=120_000
    )


def _assert_nothing_cut_off(page, where: str) -> None:
    for width in (1280, 1440):
        page.set_viewport_size({"width": width, "height": 2400})
        page.wait_for_timeout(600)
        assert page.evaluate(CUT_OFF) == [], f"{where} at {width} px"
    page.set_viewport_size({"width": 1280, "height": 2400})


def _screenshot(page, name: str) -> None:
    page.mouse.move(5, 5)  # no tooltip over the screenshot
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.wait_for_timeout(600)
    page.screenshot(path=str(ARTIFACTS / f"app-{name}.png"), full_page=True)


def _run_and_wait(page, cache: Path) -> dict:
    """Run what the page shows and wait for its record and its link; returns the record
    (a run already in the cache is read from it)."""
    button = page.get_by_role("button", name=re.compile(r"^Run")).first
    if "cached" in button.inner_text():
        shown = page.get_by_text(re.compile(r"Scenario hash [0-9a-f]{12}")).first.inner_text()
        prefix = re.search(r"Scenario hash ([0-9a-f]{12})", shown).group(1)
        return next(r for r in RunStore(cache).records() if r["hash"].startswith(prefix))
    before = len(RunStore(cache).records())
    button.click()
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while len(RunStore(cache).records()) == before:
        assert time.monotonic() < deadline, "the run did not finish"
        time.sleep(0.3)
    page.get_by_role("link", name="Open the results").wait_for(timeout=RUN_TIMEOUT_MS)
    return RunStore(cache).records()[0]


def _open(page, url: str, scenario: str, query: str = "") -> None:
    page.goto(f"{url}/?scenario={scenario}{query}")
    page.get_by_role("button", name=re.compile(r"^Run")).first.wait_for(timeout=START_TIMEOUT_S * 1000)


def _knob(page, label: str):
    return page.locator('[data-testid="stNumberInput"]').filter(has_text=label).locator("input")


def _set_knob(page, label: str, value: str, address: str) -> None:
    _knob(page, label).fill(value)
    _knob(page, label).press("Enter")
    page.wait_for_url(re.compile(address), timeout=60_000)


def _view(page, url: str, scenario_hash: str, view: str) -> None:
    """A tab of the Results page on a run, in this session where it can be (a click on the
    tab of the run shown, or on the link to the run the scenario page just finished): a
    page load costs seconds of CPU in the browser; else through the run's address."""
    tab = page.get_by_role("tab", name=view, exact=True)
    shown = re.compile(rf"/results\?(.*&)?run={scenario_hash}")
    if not shown.search(page.url):
        link = page.get_by_role("link", name="Open the results")
        if link.count() and page.get_by_text(f"Scenario hash {scenario_hash[:12]}").count():
            # a click that lands while the page reruns (its run just finished) can be lost
            # with the element it hit: click the link again until it has taken the page there
            for attempt in range(3):
                link.first.click()
                try:
                    page.wait_for_url(shown, timeout=20_000)
                    break
                except sync_api_error() as lost:
                    print(f"the link did not open the run (click {attempt + 1}): at {page.url}")
                    if attempt == 2:
                        raise lost
        else:
            page.goto(f"{url}/results?run={scenario_hash}&view={view.replace(' ', '+')}")
        page.wait_for_url(shown, timeout=60_000)
    tab.click()
    page.get_by_role("tab", name=view, exact=True, selected=True).wait_for(timeout=60_000)
    _settle(page)


def sync_api_error() -> type[Exception]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


def _tables(page) -> list[str]:
    return page.evaluate(TABLES)


def _maps_drawn(page, count: int) -> list:
    maps = page.locator('[data-testid="stDeckGlJsonChart"]')
    maps.nth(count - 1).locator("canvas").first.wait_for(timeout=60_000)
    assert maps.count() == count
    page.wait_for_timeout(2500)  # let deck.gl draw
    return [maps.nth(k) for k in range(count)]


def _check_labels(maps, cache: Path, scenario_hash: str) -> None:
    """Each panel's labels at their markers, in its screenshot's pixels."""
    result = open_result(RunStore(cache).result_path(scenario_hash))
    inputs = result.inputs
    points = {}
    for kind in ("site", "region"):
        if inputs.sizes.get(kind):
            for name, lon, lat in zip(
                inputs[kind].values,
                inputs[f"{kind}_lon"].values,
                inputs[f"{kind}_lat"].values,
                strict=True,
            ):
                points[str(name)] = (float(lon), float(lat))
    panels = map_panels(points, WIDE)
    assert len(panels) == len(maps)
    regions = (
        {human(r): REGION_TEXT for r in inputs["region"].values} if inputs.sizes.get("region") else {}
    )
    for chart, (names, width) in zip(maps, panels, strict=True):
        drawing = result_deck(
            result.dataset, inputs, width=width, framed=names if len(panels) > 1 else None
        )
        assert labels_at_their_markers(chart.screenshot(), drawing, regions) == []


def _upload(page, selector: str, name: str, data: bytes) -> None:
    page.locator(selector).set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data}
    )


SCENARIO_UPLOADER = '[data-testid="stFileUploaderDropzoneInput"]'


def test_the_planners_walk_in_headless_chromium(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    url, cache, bundled, server_pid = server
    base_cli = _cli(bundled / "quickstart.yaml")
    carbon_cli = _cli(bundled / "quickstart.yaml", "--set", "objective.carbon_price=50")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=WALK_ARGS, headless=True
        )
        drawing = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        maps = drawing.new_page(viewport={"width": 1280, "height": 2400})
        maps.set_default_timeout(120_000)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 2400})
            page.set_default_timeout(120_000)
            page.goto(url)
            page.get_by_role("button", name="Run", exact=True).wait_for(timeout=START_TIMEOUT_S * 1000)
            first = _walk_runs_and_compare(page, maps, url, cache, base_cli, carbon_cli)
            _walk_results(page, maps, url, cache, first)
            _walk_typical_days(page, url, cache)
            _walk_a_trace(page, url, cache)
            _walk_two_continents(page, maps, url, cache)
            _walk_a_relaxed_plan(page, url, cache)
            _walk_queue_and_cancel(page, url, server_pid)
            _walk_uploads(page, url, bundled)
            _second_visitor(browser, url, first["hash"])
        finally:
            drawing.close()
            browser.close()
            for cli in (base_cli, carbon_cli):
                if cli.poll() is None:
                    cli.kill()
    for name in ("results", "energy", "jobs", "two-continents", "plan-build", "compare"):
        assert (ARTIFACTS / f"app-{name}.png").stat().st_size > 10_000, name


def _walk_runs_and_compare(page, maps, url: str, cache: Path, base_cli, carbon_cli) -> dict:
    """The quickstart as the file (green: proven optimal), then with a carbon price kept
    across a visit to Tools; both compared."""
    assert _knob(page, HORIZON).input_value() == "48"
    first = _run_and_wait(page, cache)
    assert first["command"] == "geomodel run scenarios/quickstart.yaml"
    page.locator('[data-testid="stAlertContentSuccess"]').filter(has_text="Solved: optimal").wait_for()
    _assert_matches_cli(_metrics(page), _cli_kpis(base_cli))
    _set_knob(page, CARBON, "50", r"set=objective\.carbon_price%3D50")
    page.get_by_role("link", name="Tools").first.click()
    page.get_by_role("heading", name="Tools").wait_for(timeout=60_000)
    page.get_by_role("link", name="Scenario").first.click()
    page.get_by_role("button", name=re.compile(r"^Run")).first.wait_for(timeout=60_000)
    assert _knob(page, CARBON).input_value() == "50.00"
    second = _run_and_wait(page, cache)
    assert second["command"].endswith("--set objective.carbon_price=50.0")
    _assert_matches_cli(_metrics(page), _cli_kpis(carbon_cli))
    _assert_nothing_cut_off(page, "the scenario page")
    # its screenshot with the map drawn: the same address in the browser that draws WebGL
    maps.goto(page.url)
    maps.get_by_role("button", name=re.compile(r"^Run")).first.wait_for(timeout=START_TIMEOUT_S * 1000)
    _maps_drawn(maps, 1)
    _screenshot(maps, "scenario")

    page.get_by_role("link", name="Compare").first.click()
    page.get_by_role("heading", name="Compare").wait_for(timeout=60_000)
    page.locator('[data-testid="stTable"]').first.wait_for(timeout=60_000)
    _settle(page)
    text = "\n".join(_tables(page))
    assert "Change (%)" in text and "Objective: carbon cost" in text and "no change" in text
    assert "None" not in text and "carbon_cost_term_usd" not in text  # words, not snake_case
    assert re.search(r"Renewables\s+%", text)  # a share in %, never "1"
    _assert_nothing_cut_off(page, "the compare page")
    _screenshot(page, "compare")
    return first


def _result_map(maps, url: str, scenario_hash: str) -> None:
    """The run's Map view in the browser that draws WebGL, through the run's address."""
    maps.goto(f"{url}/results?run={scenario_hash}&view=Map")
    maps.get_by_role("tab", name="Map", exact=True, selected=True).wait_for(timeout=60_000)
    _settle(maps)


def _walk_results(page, maps, url: str, cache: Path, first: dict) -> None:
    """The result map (labels at their markers), energy (no "-2f" axis), the SLA re-solve."""
    _view(page, url, first["hash"], "Map")
    page.get_by_text("Disc colour: chips in use").wait_for(timeout=30_000)
    _assert_nothing_cut_off(page, "the results page")
    _result_map(maps, url, first["hash"])
    drawn = _maps_drawn(maps, 1)
    maps.get_by_text("Disc colour: chips in use").wait_for(timeout=30_000)
    _check_labels(drawn, cache, first["hash"])
    _assert_nothing_cut_off(maps, "the results map")
    _screenshot(maps, "results")

    _view(page, url, first["hash"], "Energy")
    page.locator('[data-testid="stPlotlyChart"]').nth(2).wait_for()
    page.wait_for_function(CHARTS_DRAWN)
    ticks = page.evaluate(TICKS)
    assert ticks and not [t for t in ticks if BAD_TICK.search(t.strip())], ticks
    text = "\n".join(_tables(page))
    assert "Facility energy (MWh)" in text and "Capacity factor (%)" in text and "council bluffs" in text
    csv = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=stDownloadButton]')]"
        ".filter(b => /(^|\\s)CSV$/.test(b.innerText.trim())).length"
    )
    assert csv == len(_tables(page))  # every table exportable (KPI table (CSV) is the page's)
    _assert_nothing_cut_off(page, "the energy view")
    _screenshot(page, "energy")

    _view(page, url, first["hash"], "Shadow prices")
    page.get_by_role("button", name=re.compile(r"Re-solve at the SLA of chat")).click()
    page.get_by_text("One more ms is worth").wait_for(timeout=RUN_TIMEOUT_MS)
    assert "One more MW is worth" in "\n".join(_tables(page))


def _walk_typical_days(page, url: str, cache: Path) -> None:
    """Typical days drawn as blocks named by the day each stands for, with its weight."""
    _open(page, url, "typical-small.yaml")
    record = _run_and_wait(page, cache)
    _view(page, url, record["hash"], "Energy")
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for()
    page.wait_for_function(CHARTS_DRAWN)
    ticks = page.evaluate(TICKS)
    assert any(t.startswith("like ") for t in ticks), ticks
    assert not any(re.match(r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d", t) for t in ticks)
    # the map's time slider goes through the typical days' segments, named as they are
    _view(page, url, record["hash"], "Map")
    page.get_by_text("one step", exact=True).click()
    page.get_by_text("Time slider: step (typical day, weight and segment)").wait_for(timeout=60_000)
    thumb = page.locator('[data-testid="stSliderThumbValue"]').first
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=stSliderThumbValue]') || {}).innerText"
    )
    first_step = thumb.inner_text()
    page.get_by_role("slider").first.press("ArrowRight")
    page.wait_for_function(
        "t => document.querySelector('[data-testid=stSliderThumbValue]').innerText !== t",
        arg=first_step,
        timeout=60_000,
    )
    shown = [first_step, thumb.inner_text()]
    assert all(re.match(r"like \d+ \w{3} · \d+ days?, \d\d:\d\d-\d\d:\d\d$", t) for t in shown), shown


def _walk_a_trace(page, url: str, cache: Path) -> None:
    """Jobs by outcome, a class explained, a job found by name, the local-only savings."""
    _open(page, url, "trace-small.yaml")
    record = _run_and_wait(page, cache)
    _view(page, url, record["hash"], "Jobs")
    page.get_by_text("A name like job0001+3 is a class").wait_for()
    search = page.get_by_label("Find a job by name (or a class)")
    search.fill("home3")
    search.press("Enter")
    page.get_by_text("home+2 is 3 jobs solved as one: home, home2, home3").wait_for(timeout=60_000)
    page.get_by_role("button", name="Solve the local-only run").click()
    page.locator('[data-testid="stTable"]').filter(has_text="Saved (%)").wait_for(timeout=RUN_TIMEOUT_MS)
    saved = next(t for t in _tables(page) if "Saved (%)" in t)
    assert re.search(r"energy cost \(USD\)\s+[\d.]+\s+[\d.]+\s+2\.8", saved), saved  # 2.7672 by hand
    _assert_nothing_cut_off(page, "the jobs view")
    _screenshot(page, "jobs")


def _walk_two_continents(page, maps, url: str, cache: Path) -> None:
    """Two panels, each framed on its continent, labels at their markers (leader lines
    where they moved), arrows of work moved from its data, and the technology mix."""
    _open(page, url, "atlantic-small.yaml")
    record = _run_and_wait(page, cache)
    _view(page, url, record["hash"], "Map")
    page.get_by_text("Training work moved from its data's origin").wait_for()
    _result_map(maps, url, record["hash"])
    drawn = _maps_drawn(maps, 2)
    maps.get_by_text("Training work moved from its data's origin").wait_for()
    _check_labels(drawn, cache, record["hash"])
    boxes = [m.bounding_box() for m in drawn]
    assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"] and boxes[1]["width"] > 250  # side by side
    _screenshot(maps, "two-continents")
    page.get_by_text("technology mix", exact=True).click()
    page.get_by_text("Pie: where each site's power came from").wait_for(timeout=60_000)


def _walk_a_relaxed_plan(page, url: str, cache: Path) -> None:
    """plan-small as an LP: a fractional build, said in a banner; whole-unit toggles."""
    _open(page, url, "plan-small.yaml", "&variant=as_lp")
    page.get_by_text("Whole racks (systems)").wait_for()
    record = _run_and_wait(page, cache)
    assert record["plan_kind"]["fractional"]
    page.get_by_text("A fractional plan:").first.wait_for()
    _view(page, url, record["hash"], "Build")
    page.get_by_text("A fractional plan:").first.wait_for()
    page.get_by_text("What the plan costs a year").wait_for()
    page.locator('[data-testid="stTable"]').filter(has_text="the dalles").first.wait_for()
    text = "\n".join(_tables(page))
    assert "the dalles" in text and "gb200 nvl72" in text
    _assert_nothing_cut_off(page, "a plan's results")
    _screenshot(page, "plan-build")


def _solver_process(server_pid: int) -> int:
    """The server's one solver process (GEOMODEL_APP_WORKERS=1): its child started by
    multiprocessing's spawn."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):  # not a process, or gone
            continue
        if ppid == server_pid and b"spawn_main" in command:
            found.append(int(entry.name))
    assert len(found) == 1, found
    return found[0]


def _pending(pid: int, sig: signal.Signals) -> bool:
    """Whether ``sig`` waits to be delivered to process ``pid`` (its /proc status masks)."""
    masks = [
        int(line.split()[1], 16)
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith(("SigPnd:", "ShdPnd:"))
    ]
    return any(mask >> (sig - 1) & 1 for mask in masks)


def _walk_queue_and_cancel(page, url: str, server_pid: int) -> None:
    """Two runs on one solver process: the second waits behind the first, and says so;
    Cancel takes it out of the queue, and ends the process solving the first.

    A solve of any size may finish before the second run is queued (the quickstart solves
    3,000 hours in seconds), so the test pauses the solver process (SIGSTOP): the first run
    stays being solved for as long as the walk needs, at no CPU. The Cancel that ends the
    process sends it SIGTERM, which a stopped process receives once it goes on (SIGCONT)."""
    solver = _solver_process(server_pid)
    os.kill(solver, signal.SIGSTOP)
    try:
        _open(page, url, "quickstart.yaml")
        _set_knob(page, HORIZON, "24", r"time\.hours%3D24")
        page.get_by_role("button", name="Run", exact=True).click()
        page.get_by_role("button", name="Cancel").wait_for()
        _set_knob(page, HORIZON, "12", r"time\.hours%3D12")
        page.get_by_role("button", name="Run", exact=True).click()
        page.get_by_text(re.compile(r"Waiting for a solver process behind 1 run \(yours")).wait_for()
        page.get_by_role("button", name="Cancel").click()
        page.get_by_text(re.compile(r"The run was cancelled .*hours=12")).wait_for(timeout=60_000)
        _set_knob(page, HORIZON, "24", r"time\.hours%3D24")
        page.get_by_role("button", name="Cancel").click()
        deadline = time.monotonic() + 60
        while not _pending(solver, signal.SIGTERM):
            assert time.monotonic() < deadline, "Cancel did not end the solver process"
            time.sleep(0.1)
    finally:
        os.kill(solver, signal.SIGCONT)
    page.get_by_text(re.compile(r"The run was cancelled .*hours=24")).wait_for(timeout=60_000)


def _walk_uploads(page, url: str, bundled: Path) -> None:
    """A refusal goes with the refused file; no message shows a server folder; a reload
    keeps the upload; a job table of one's own is checked and used."""
    page.goto(url)
    page.get_by_text("Upload YAML").click()
    _upload(page, SCENARIO_UPLOADER, "passwd", b"root:x:0:0\n")
    refusal = page.locator('[data-testid="stAlertContentError"]').filter(
        has_text="a scenario is a YAML file"
    )
    refusal.first.wait_for(timeout=60_000)
    text = (REPO / "scenarios" / "europe-nordics.yaml").read_text()
    escaping = text.replace("csv: data/europe-chat-demand.csv", "csv: ../../../etc/passwd", 1)
    _upload(page, SCENARIO_UPLOADER, "escape.yaml", escaping.encode())
    page.locator('[data-testid="stAlertContentError"]').filter(has_text="path escapes").first.wait_for()
    assert refusal.count() == 0  # the earlier refusal left with its file
    shown = page.locator("[data-testid=stMain]").inner_text()
    assert str(bundled) not in shown and "/tmp/" not in shown
    _upload(page, SCENARIO_UPLOADER, "mine.yaml", (bundled / "quickstart.yaml").read_bytes())
    page.get_by_role("button", name=re.compile(r"^Run")).first.wait_for(timeout=60_000)
    page.wait_for_url(re.compile(r"upload="), timeout=60_000)
    page.reload()
    page.get_by_text("Using mine.yaml, uploaded earlier").wait_for(timeout=60_000)
    _screenshot(page, "upload-kept")
    _open(page, url, "trace-small.yaml")
    page.get_by_text("Job tables: run this trace on a table of your own").click()
    table_uploader = page.locator(f'[data-testid="stExpander"] {SCENARIO_UPLOADER}')
    _upload(page, f'[data-testid="stExpander"] {SCENARIO_UPLOADER}', "mine.csv", b"name\nx\n")
    page.get_by_text("The job table uploaded-mine.csv was refused").wait_for(timeout=60_000)
    assert table_uploader.count() == 1
    table_uploader.set_input_files(
        {"name": "mine.csv", "mimeType": "text/csv", "buffer": ss.TRACE_JOBS.encode()}
    )
    page.get_by_text("Using your job table uploaded-mine.csv for trace").wait_for(timeout=60_000)


def _second_visitor(browser, url: str, scenario_hash: str) -> None:
    """Another visitor's pages list none of these runs, and say why; a link opens one."""
    other = browser.new_page(viewport={"width": 1280, "height": 1600})
    other.goto(f"{url}/results")
    other.get_by_text("No finished runs of yours yet").wait_for(timeout=60_000)
    other.get_by_text("Your runs are private to this browser tab").first.wait_for()
    other.goto(f"{url}/results?run={scenario_hash}")
    other.get_by_role("tab", name="Map").wait_for(timeout=60_000)
    assert "quickstart.yaml" in other.get_by_role("combobox", name="Run").input_value()
    other.close()
