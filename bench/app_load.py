"""Where the app's first load goes, and how long a planner waits (issue 15, item 12).

    python bench/app_load.py [--reference DIR] [--repeat 3] [--skip-browser]

Two measurements, each in fresh processes:

* **Phases** (``_child``): what the first run of the scenario page does, one step
  after another in one new Python process: import streamlit; import the app's
  modules (``geomodel.ui.app``); import the scenario page's modules; build the
  catalogue (load every plugin); load and validate the quickstart; build its inputs
  Dataset; draw the map (deck JSON, outlines included). Then the background solver
  process the app starts: spawn, import the model stack, build its catalogue.
* **Browser**: ``streamlit run app.py`` from cold, opened in headless Chromium: the
  seconds to the Run button and to the map's canvas, for the first visitor (cold
  server) and a second one 20 s later (warm server: its solver process is up). Then
  the second visitor presses Run on the quickstart: the seconds from the click to the
  KPI metrics on the page, against the solve's own wall time as its solver process
  recorded it (load, build, solve, write: ``wall_seconds`` of the run record), and
  their ratio, and what lies on either side of the solve (the click to its solver
  process starting it; its end to the KPIs on the page); and a rerun: the seconds
  from switching the map's "Size sites by" back to chips (a view seen before) to the
  map's legend saying chips again. Median of ``--repeat`` rounds.

``--reference DIR`` measures a second checkout the same way in the same run (for
example ``git worktree add /tmp/geomodel-main main``), alternating with this tree,
and prints the ratio reference / this tree for every row. ``uptime``'s load
average is printed beside the numbers: on the shared 2-core machine it matters.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from fresh_process import python_path

HERE = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
#: seconds between the first and the second visitor: the app starts its solver process
#: 8 s after the first page and it imports for a few seconds
WARM_S = 20.0
PHASES = [
    "import streamlit",
    "import the app's modules",
    "import the scenario page's modules",
    "catalogue (load plugins)",
    "load the quickstart",
    "inputs Dataset",
    "map (deck JSON)",
    "solver process warm-up",
]


def child() -> None:
    """The phases, in this process (``geomodel`` is imported from ``sys.path[0]``'s tree)."""
    times: dict[str, float] = {}

    def lap(name: str, started: float) -> float:
        now = time.perf_counter()
        times[name] = now - started
        return now

    clock = time.perf_counter()
    import streamlit  # noqa: F401

    clock = lap(PHASES[0], clock)
    import geomodel.ui.app  # noqa: F401

    clock = lap(PHASES[1], clock)
    from geomodel.ui.components import deck, knob_widgets, run_panel  # noqa: F401

    clock = lap(PHASES[2], clock)
    from geomodel.catalog import build_catalog

    catalog = build_catalog()
    clock = lap(PHASES[3], clock)
    from geomodel.ui.paths import scenarios_dir
    from geomodel.ui.recipe import Recipe, load_recipe

    scenario = load_recipe(Recipe("bundled", "quickstart.yaml"), catalog, scenarios_dir())
    clock = lap(PHASES[4], clock)
    from geomodel.inputs.build import build_inputs

    inputs = build_inputs(scenario, catalog)
    clock = lap(PHASES[5], clock)
    drawn = deck.scenario_deck(inputs)
    size = len(getattr(drawn, "deck", drawn).to_json())
    clock = lap(PHASES[6], clock)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from geomodel.ui.worker import warm_up

    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        pool.submit(warm_up).result()
    lap(PHASES[7], clock)
    print(json.dumps({"seconds": times, "deck_bytes": size}))


def phases(tree: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": python_path(tree), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "_child"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def browser(tree: Path) -> dict[str, float]:
    """Cold server: seconds from starting it to healthy, then per visitor to the Run
    button and to the map's canvas."""
    from playwright.sync_api import sync_playwright

    port = _free_port()
    cache = tempfile.mkdtemp(prefix="app-load-")
    env = {**os.environ, "PYTHONPATH": python_path(tree), "GEOMODEL_APP_CACHE": cache}
    script = Path(sys.executable).parent / "streamlit"
    started = time.perf_counter()
    options = {
        "server.headless": "true",
        "server.port": str(port),
        "server.address": "127.0.0.1",
        "browser.gatherUsageStats": "false",
    }
    server = subprocess.Popen(
        [str(script), "run", "app.py", *(a for k, v in options.items() for a in (f"--{k}", v))],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    found: dict[str, float] = {}
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.read().strip() == b"ok":
                        break
            except OSError:
                time.sleep(0.1)
            if time.perf_counter() - started > 120:
                raise RuntimeError("the server did not start")
        found["server up"] = time.perf_counter() - started
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            for visitor in ("first", "second"):
                if visitor == "second":
                    time.sleep(WARM_S)  # a warm server: its solver process is up
                page = chromium.new_page(viewport={"width": 1280, "height": 1400})
                page.set_default_timeout(180_000)  # a loaded machine: reruns take far over 30 s
                opened = time.perf_counter()
                page.goto(url)
                page.get_by_role("button", name="Run", exact=True).wait_for(timeout=180_000)
                found[f"{visitor} visitor: Run button"] = time.perf_counter() - opened
                page.locator('[data-testid="stDeckGlJsonChart"] canvas').first.wait_for(timeout=180_000)
                found[f"{visitor} visitor: map"] = time.perf_counter() - opened
                if visitor == "second":
                    found.update(click_to_kpis(page, Path(cache)))
                    found.update(map_rerun(page))
                page.close()
            chromium.close()
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)
    return found


#: a KPI metric only a finished run shows (the scenario's own metrics are Sites, Chips, ...)
KPI_LABEL = "Energy cost (USD)"


def click_to_kpis(page, cache: Path) -> dict[str, float]:
    """Press Run on the quickstart; seconds to its KPI metrics, the solve's own wall time
    (its run record) and their ratio; and the two sides of the solve: from the click to
    its solver process starting it, and from its end to the KPIs on the page."""
    clicked, clicked_at = time.perf_counter(), time.time()
    page.get_by_role("button", name="Run", exact=True).click()
    page.locator('[data-testid="stMetric"]').filter(has_text=KPI_LABEL).first.wait_for(timeout=600_000)
    seconds, seen_at = time.perf_counter() - clicked, time.time()
    records = [p for p in (cache / "runs").glob("*.json") if not p.name.endswith(".progress.json")]
    record = json.loads(records[0].read_text())
    wall = record["wall_seconds"]
    return {
        "click to KPIs": seconds,
        "the solve's own time (wall_seconds)": wall,
        "click to KPIs / solve's own time": seconds / wall,
        "  click to the solve's start": record["started_at"] - clicked_at,
        "  the solve's end to KPIs": seen_at - record["finished_at"],
    }


#: the map's legend (absent while the map fragment redraws) says ``arg``
LEGEND_SAYS = (
    "text => ((document.querySelector('[data-testid=map-legend]') || {}).innerText || '').includes(text)"
)


def map_rerun(page) -> dict[str, float]:
    """Seconds from switching the scenario map back to chips (a view drawn before) to its
    legend saying chips again: a rerun that should reuse what it drew."""
    legend = page.locator('[data-testid="map-legend"]').first
    page.get_by_text("power envelope (MW)", exact=True).first.click()
    page.wait_for_function(
        LEGEND_SAYS,
        arg=" MW",
        timeout=120_000,
    )
    started = time.perf_counter()
    page.get_by_text("chips installed", exact=True).first.click()
    page.wait_for_function(
        LEGEND_SAYS,
        arg="chips",
        timeout=120_000,
    )
    legend.wait_for()
    return {"rerun: map back to chips": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", type=Path, help="another checkout to measure alike")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--json", type=Path, help="also write every round's numbers here")
    args = parser.parse_args()
    trees = {"this tree": HERE}
    if args.reference:
        trees = {"reference": args.reference.resolve(), **trees}
    print(f"load average before (1, 5, 15 min): {os.getloadavg()}; {os.cpu_count()} CPUs")
    rows: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    sizes: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, tree in trees.items():  # alternate, so load changes hit both alike
            measured = phases(tree)
            sizes[name] = measured["deck_bytes"]
            for phase, seconds in measured["seconds"].items():
                rows[name].setdefault(phase, []).append(seconds)
            if not args.skip_browser and Path(CHROMIUM).exists():
                for phase, seconds in browser(tree).items():
                    rows[name].setdefault(phase, []).append(seconds)
    names = list(trees)
    header = f"{'median seconds of ' + str(args.repeat):<40}" + "".join(f"{n:>12}" for n in names)
    print(header + ("       ratio" if len(names) == 2 else ""))
    for phase in rows[names[-1]]:
        values = [statistics.median(rows[n][phase]) if phase in rows[n] else float("nan") for n in names]
        ratio = f"{values[0] / values[1]:>11.2f}x" if len(names) == 2 and values[1] > 0 else ""
        print(f"{phase:<40}" + "".join(f"{v:>12.2f}" for v in values) + ratio)
    print("map JSON bytes: " + ", ".join(f"{n} {sizes[n]:,}" for n in names))
    print(f"load average after (1, 5, 15 min): {os.getloadavg()}")
    if args.json:
        args.json.write_text(json.dumps({"rounds": rows, "deck_bytes": sizes}, indent=1))


if __name__ == "__main__":
    if sys.argv[1:2] == ["_child"]:
        child()
    else:
        main()
