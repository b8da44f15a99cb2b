"""End to end in a real browser: ``streamlit run app.py`` driven by Playwright in Debian's
headless Chromium at 1280 px, the walk of issue 15's "Done when":

open; switch to europe-nordics; run; check the run is the file (scenario hash as the
library loads it, KPIs as ``geomodel run ... --json``); change the carbon price; visit
another page and come back (the file and the knob stay); run; compare; open the
results and see the result map on world outlines with its legend; upload an alias bomb,
a too-large file and a file that is not YAML and see each refusal on the page. Then a
plan (issue 16): run plan-small.yaml (its costs as ``geomodel run ... --json`` gives
them), raise Abilene's build cap with its knob and run again, compare the two plans
(their build differences and maps), and open the first plan's Build tab (map, cost
breakdown, build table). Along the way nothing on the page is cut off at 1280 and
1440 px, and screenshots land in ``test-artifacts/`` (docs/images/ holds copies for
docs/app.md).

Playwright's own browser download cannot work here, so the test uses the system
Chromium at /usr/bin/chromium (``apt-get install chromium``; ``.ci/run`` does it)
and skips, saying so, where that is missing.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from geomodel.scenario import load_scenario
from geomodel.ui.components.basemap import LAND_FILL
from geomodel.ui.format import format_metric, headline, kpi_label
from geomodel.ui.paths import MAX_UPLOAD_BYTES
from geomodel.ui.run_store import RunStore

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
ARTIFACTS = REPO / "test-artifacts"
START_TIMEOUT_S = 90
RUN_TIMEOUT_MS = 240_000
SCENARIO = "europe-nordics.yaml"
CARBON = "Carbon price (USD/tCO2)"
PLAN = "plan-small.yaml"
PLAN_CAP = "abilene: most gb200_nvl72"

pytestmark = [
    pytest.mark.slow,
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
    .streamlit/config.toml), its run cache in tmp; yields (url, cache folder)."""
    port = _free_port()
    log = tmp_path / "streamlit.log"
    cache = tmp_path / "cache"
    env = {**os.environ, "GEOMODEL_APP_CACHE": str(cache)}
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
    ]
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, log)
        yield url, cache
    finally:
        _stop(process)


def _cli(*args: str, scenario: str = SCENARIO) -> subprocess.Popen:
    return subprocess.Popen(
        [*_script("geomodel"), "run", f"scenarios/{scenario}", "--json", *args],
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

#: every element whose text is clipped (wider inside than shown), and every table or
#: chart reaching past the main column
_CUT_OFF = """() => {
    const found = [];
    const main = document.querySelector('[data-testid="stMain"]') || document.body;
    const right = main.getBoundingClientRect().right + 1;
    const texts = main.querySelectorAll('[data-testid="stMetric"] *, button *, '
        + '[data-baseweb="tab"] *, [data-testid="stCaptionContainer"] *');
    for (const el of texts) {
        if (el.children.length === 0 && el.innerText && el.scrollWidth > el.clientWidth + 1) {
            found.push('clipped: ' + el.innerText.slice(0, 40));
        }
    }
    for (const el of main.querySelectorAll('input')) {
        if (el.scrollWidth > el.clientWidth + 1) found.push('clipped: ' + el.value.slice(0, 40));
    }
    const blocks = main.querySelectorAll('[data-testid="stDataFrame"], '
        + '[data-testid="stPlotlyChart"], [data-testid="stDeckGlJsonChart"]');
    for (const el of blocks) {
        if (el.getBoundingClientRect().right > right) found.push('overflows: ' + el.dataset.testid);
    }
    return found;
}"""


def _metrics(page) -> dict[str, str]:
    """Every metric's label and value, read in one go once two reads agree (the page
    reruns when a run ends, so elements may be replaced between reads)."""
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


def _assert_nothing_cut_off(page, where: str) -> None:
    for width in (1280, 1440):
        page.set_viewport_size({"width": width, "height": 2400})
        page.wait_for_timeout(800)
        assert page.evaluate(_CUT_OFF) == [], f"{where} at {width} px"
    page.set_viewport_size({"width": 1280, "height": 2400})


def _screenshot(page, name: str) -> None:
    page.mouse.move(5, 5)  # no tooltip over the screenshot
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.wait_for_timeout(800)
    page.screenshot(path=str(ARTIFACTS / f"app-{name}.png"), full_page=True)


def _screenshot_between(page, name: str, first: str, last: str) -> None:
    """The main column from the text ``first`` to the end of the last text ``last``, on a
    page tall enough to hold both (a long page scrolls inside Streamlit's main column)."""
    page.set_viewport_size({"width": 1280, "height": 4800})
    page.mouse.move(5, 5)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.wait_for_timeout(2500)  # let the maps draw again at the new size
    main = page.locator('[data-testid="stMain"]').bounding_box()
    top = page.get_by_text(first).first.bounding_box()["y"] - 16
    end = page.get_by_text(last).last.bounding_box()
    left = main["x"] + 2  # not the sidebar's edge
    bottom = end["y"] + end["height"] + 16
    clip = {"x": left, "y": top, "width": main["width"] - 2, "height": bottom - top}
    page.screenshot(path=str(ARTIFACTS / f"app-{name}.png"), clip=clip, full_page=True)
    page.set_viewport_size({"width": 1280, "height": 2400})


def _run_and_wait(page, cache: Path) -> None:
    """Run what the page shows and wait for its record in the run cache and its link (a
    link still on the page from the run before may linger while the page reruns)."""
    before = len(RunStore(cache).records())
    page.get_by_role("button", name=re.compile(r"^Run")).first.click()
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while len(RunStore(cache).records()) == before:
        assert time.monotonic() < deadline, "the run did not finish"
        time.sleep(0.5)
    page.get_by_role("link", name="Open the results").wait_for(timeout=RUN_TIMEOUT_MS)


def _knob(page, label: str):
    return page.locator('[data-testid="stNumberInput"]').filter(has_text=label).locator("input")


def _land_share(png: bytes) -> float:
    """Share of the map's pixels in the land colour of the bundled outlines."""
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    near = (np.abs(pixels - np.array(LAND_FILL[:3])) <= 3).all(axis=2)
    return float(near.mean())


def bomb(levels: int = 10) -> bytes:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return ("\n".join(lines) + f"\nname: [*a{levels - 1}]\n").encode()


def _upload(page, name: str, data: bytes, expected: str) -> None:
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": data}
    )
    alert = page.locator('[data-testid="stAlertContentError"]').filter(has_text=expected)
    alert.first.wait_for(timeout=60_000)


def test_the_planners_walk_in_headless_chromium(server, catalog):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    url, cache = server
    # the CLI's runs, to check the app's against, solve while the browser walks
    base_cli, carbon_cli = _cli(), _cli("--set", "objective.carbon_price=50")
    plan_cli = _cli(scenario=PLAN)
    file_hash = load_scenario(REPO / "scenarios" / SCENARIO, catalog=catalog).origin.scenario_hash
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 2400})
            page.goto(url)
            page.get_by_role("button", name="Run", exact=True).wait_for(timeout=START_TIMEOUT_S * 1000)
            assert _knob(page, "Horizon (h)").input_value() == "48"  # the quickstart's

            # switch the file: the knobs are the new file's, and the run is the file
            page.locator('[data-testid="stSelectbox"]').filter(has_text="Bundled scenario").click()
            page.get_by_role("option", name=SCENARIO).click()
            page.wait_for_url(re.compile(r"scenario=europe-nordics"), timeout=60_000)
            page.wait_for_function(
                "() => [...document.querySelectorAll('[data-testid=stNumberInput] input')]"
                ".some(i => i.value === '168')",
                timeout=60_000,
            )
            _run_and_wait(page, cache)
            first = RunStore(cache).records()[0]
            assert first["hash"] == file_hash
            assert first["label"] == SCENARIO
            assert first["command"] == f"geomodel run scenarios/{SCENARIO}"
            _assert_matches_cli(_metrics(page), _cli_kpis(base_cli))

            # change a knob, visit another page, come back: the file and the knob stay
            _knob(page, CARBON).fill("50")
            _knob(page, CARBON).press("Enter")
            page.wait_for_url(re.compile(r"set=objective\.carbon_price%3D50"), timeout=60_000)
            page.get_by_role("link", name="Tools").first.click()
            page.get_by_role("heading", name="Tools").wait_for(timeout=60_000)
            page.get_by_role("link", name="Scenario").first.click()
            page.get_by_role("button", name=re.compile(r"^Run")).first.wait_for(timeout=60_000)
            assert _knob(page, CARBON).input_value() == "50.00"
            # the page shows (and writes to its address) the same file with the same edit
            page.wait_for_url(re.compile(r"scenario=europe-nordics\.yaml&set=objective\.carbon_price"))
            _run_and_wait(page, cache)
            second = RunStore(cache).records()[0]
            assert second["label"] == f"{SCENARIO} · carbon_price=50"
            assert second["command"].endswith("--set objective.carbon_price=50.0")
            _assert_matches_cli(_metrics(page), _cli_kpis(carbon_cli))
            _assert_nothing_cut_off(page, "the scenario page")
            _screenshot(page, "scenario")

            # compare the two runs
            page.get_by_role("link", name="Compare").first.click()
            page.get_by_role("heading", name="Compare").wait_for(timeout=60_000)
            page.locator('[data-testid="stMetric"]').first.wait_for(timeout=60_000)
            run_b = page.get_by_role("combobox", name="Run B").input_value()
            assert "carbon_price=50" in run_b
            objective = page.locator('[data-testid="stMetric"]').filter(has_text=kpi_label("objective"))
            assert objective.locator('[data-testid="stMetricDelta"]').inner_text().startswith("+")
            _assert_nothing_cut_off(page, "the compare page")
            _screenshot(page, "compare")

            # the results: the result map on world outlines, with its legend
            page.get_by_role("link", name="Results").first.click()
            chart = page.locator('[data-testid="stDeckGlJsonChart"]').first
            chart.locator("canvas").first.wait_for(timeout=60_000)
            assert f"run={second['hash']}" in page.url
            page.get_by_text("Disc colour: chips in use").wait_for(timeout=30_000)
            page.get_by_text("Outlines: Natural Earth").wait_for(timeout=30_000)
            page.wait_for_timeout(2500)  # let deck.gl draw
            assert _land_share(chart.screenshot()) > 0.2  # land fills much of the Nordics
            _assert_nothing_cut_off(page, "the results page")
            _screenshot(page, "results")

            # uploads that cannot hurt the server, refused on the page in words
            page.get_by_role("link", name="Scenario").first.click()
            page.get_by_text("Upload YAML").click()
            _upload(page, "bomb.yaml", bomb(10), "refused before expanding them")
            _upload(
                page, "big.yaml", b"#" * (MAX_UPLOAD_BYTES + 500_000), f"at most {MAX_UPLOAD_BYTES:,}"
            )
            _upload(page, "passwd", b"root:x:0:0\n", "a scenario is a YAML file named")
            _screenshot(page, "upload-refused")

            page.get_by_role("link", name="Tools").first.click()
            page.get_by_role("heading", name="Tools").wait_for(timeout=60_000)
            page.locator('[data-testid="stDataFrame"]').first.wait_for(timeout=60_000)
            _assert_nothing_cut_off(page, "the tools page")
            _screenshot(page, "tools")

            _walk_a_plan(page, url, cache, catalog, plan_cli)
        finally:
            browser.close()
            for cli in (base_cli, carbon_cli, plan_cli):
                if cli.poll() is None:
                    cli.kill()
    assert (ARTIFACTS / "app-results.png").stat().st_size > 10_000
    assert (ARTIFACTS / "app-plan-build.png").stat().st_size > 10_000


def _walk_a_plan(page, url: str, cache: Path, catalog, plan_cli: subprocess.Popen) -> None:
    """Run plan-small.yaml (checked against ``plan_cli``), raise a build cap and run again,
    compare the two plans, open the first one's Build tab."""
    plan_hash = load_scenario(REPO / "scenarios" / PLAN, catalog=catalog).origin.scenario_hash
    page.get_by_role("link", name="Scenario").first.click()
    page.locator('[data-testid="stRadio"]').get_by_text("Bundled scenario").click()
    page.locator('[data-testid="stSelectbox"]').filter(has_text="Bundled scenario").click()
    page.get_by_role("option", name=PLAN).click()
    page.wait_for_url(re.compile(r"scenario=plan-small"), timeout=60_000)
    _knob(page, PLAN_CAP).wait_for(timeout=60_000)
    # the link to the last run goes: the scenario on the page is a new one, not yet run
    page.get_by_role("link", name="Open the results").wait_for(state="detached", timeout=60_000)
    _run_and_wait(page, cache)
    first = RunStore(cache).records()[0]
    assert first["hash"] == plan_hash and first["planning"] is True
    _assert_matches_cli(_metrics(page), _cli_kpis(plan_cli), planning=True)

    # a planning knob: room for 1,200 racks at Abilene
    _knob(page, PLAN_CAP).fill("1200")
    _knob(page, PLAN_CAP).press("Enter")
    page.wait_for_url(re.compile(r"gb200_nvl72\.max%3D1200"), timeout=60_000)
    # the first run's link goes: the scenario on the page is a new one, not yet run
    page.get_by_role("link", name="Open the results").wait_for(state="detached", timeout=60_000)
    _run_and_wait(page, cache)
    assert RunStore(cache).records()[0]["label"] == f"{PLAN} · abilene.max gb200_nvl72=1200"
    _assert_nothing_cut_off(page, "a plan's scenario page")

    # the two plans side by side: what each builds, what it costs, where
    page.get_by_role("link", name="Compare").first.click()
    page.get_by_text("What was built: the decisions that differ").wait_for(timeout=60_000)
    page.get_by_text("Where each plan builds").wait_for(timeout=60_000)
    maps = page.locator('[data-testid="stDeckGlJsonChart"]')
    maps.nth(1).locator("canvas").first.wait_for(timeout=60_000)
    assert maps.count() == 2
    page.wait_for_timeout(2500)  # let deck.gl draw
    _assert_nothing_cut_off(page, "two plans compared")
    _screenshot_between(
        page, "plan-compare", "What was built: the decisions that differ", "Outlines: Natural Earth"
    )

    # the first plan's Build tab: the map by what was built, the costs, the build table
    page.goto(f"{url}/results?run={plan_hash}")
    page.get_by_role("tab", name="Build").wait_for(timeout=60_000)
    page.get_by_text("Ring: chips after building").wait_for(timeout=60_000)
    page.get_by_text("What the plan costs a year").wait_for(timeout=60_000)
    page.locator('[data-testid="stDeckGlJsonChart"]').first.locator("canvas").first.wait_for(
        timeout=60_000
    )
    page.wait_for_timeout(2500)
    _assert_nothing_cut_off(page, "a plan's results")
    _screenshot_between(page, "plan-build", "Total (USD/year)", "In all:")
