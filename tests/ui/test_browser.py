"""End to end in a real browser: ``streamlit run app.py`` driven by Playwright in Debian's
headless Chromium. Runs the quickstart, checks its KPI metrics against
``geomodel run scenarios/quickstart.yaml --json``, reloads the results page, and
saves screenshots under ``test-artifacts/``.

Playwright's own browser download cannot work here, so the test uses the system
Chromium at /usr/bin/chromium (``apt-get install chromium``; ``.ci/run`` does it)
and skips, saying so, where that is missing.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from geomodel.ui.format import HEADLINE, format_kpi, kpi_label

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
RUN_TIMEOUT_MS = 180_000

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


_READ_METRICS = """els => els.map(e => [
    (e.querySelector('[data-testid="stMetricLabel"]') || {}).innerText || '',
    (e.querySelector('[data-testid="stMetricValue"]') || {}).innerText || ''])"""


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


def _assert_matches_cli(shown: dict[str, str], cli_kpis: dict) -> None:
    for name in HEADLINE:
        assert shown[kpi_label(name)] == format_kpi(name, cli_kpis.get(name)), name


@pytest.fixture
def server(tmp_path):
    """``streamlit run app.py`` on a free loopback port, its run cache in tmp."""
    port = _free_port()
    log = tmp_path / "streamlit.log"
    env = {**os.environ, "GEOMODEL_APP_CACHE": str(tmp_path / "cache")}
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
        "--browser.gatherUsageStats",
        "false",
    ]
    with log.open("w") as output:
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process, log)
        yield url
    finally:
        _stop(process)


def test_quickstart_in_headless_chromium_matches_the_cli(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    cli = subprocess.Popen(
        [*_script("geomodel"), "run", "scenarios/quickstart.yaml", "--json"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 2400})
            page.goto(server)
            run = page.get_by_role("button", name="Run", exact=True)
            run.wait_for(timeout=START_TIMEOUT_S * 1000)
            run.click()
            energy_cost = page.locator('[data-testid="stMetric"]').filter(has_text=kpi_label("cost_usd"))
            energy_cost.first.wait_for(timeout=RUN_TIMEOUT_MS)
            out, err = cli.communicate(timeout=RUN_TIMEOUT_MS / 1000)
            assert cli.returncode == 0, err
            expected = json.loads(out)["kpis"]
            _assert_matches_cli(_metrics(page), expected)
            page.mouse.move(5, 5)  # no button tooltip over the screenshot
            page.evaluate("document.activeElement && document.activeElement.blur()")
            page.wait_for_timeout(500)
            page.screenshot(path=str(ARTIFACTS / "app-scenario.png"), full_page=True)

            page.get_by_role("link", name="Results").first.click()
            page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=60_000)
            _assert_matches_cli(_metrics(page), expected)
            assert "run=" in page.url  # the open run is in the address
            page.wait_for_timeout(1500)  # let the charts finish drawing
            page.screenshot(path=str(ARTIFACTS / "app-results.png"), full_page=True)

            page.reload()  # a reload comes back to the same result from the disk cache
            page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=60_000)
            _assert_matches_cli(_metrics(page), expected)
        finally:
            browser.close()
            if cli.poll() is None:
                cli.kill()
    assert (ARTIFACTS / "app-results.png").stat().st_size > 10_000
