"""Fixtures and helpers for the app tests: the app under streamlit.testing, a run cache
in a temporary folder (shared by the module's tests, so one solver pool serves them)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "app.py"
#: seconds a script run may take (the first one loads the plugins)
SCRIPT_TIMEOUT = 60
#: seconds a solve may take, including starting a solver process
RUN_TIMEOUT = 120


@pytest.fixture(scope="session")
def app_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """GEOMODEL_APP_CACHE in a temporary folder for every app test."""
    folder = tmp_path_factory.mktemp("app-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GEOMODEL_APP_CACHE", str(folder))
        yield folder


@pytest.fixture
def app(app_cache: Path) -> Callable[[], AppTest]:
    """A fresh browser session of the app (not yet run)."""

    def make() -> AppTest:
        return AppTest.from_file(str(APP), default_timeout=SCRIPT_TIMEOUT)

    return make


def page(at: AppTest, name: str) -> AppTest:
    """Switch to a page by its script name and run it."""
    return at.switch_page(f"geomodel/ui/pages/{name}.py").run()


def unescape(text: str) -> str:
    """Messages are Markdown-escaped for display; compare them as typed."""
    return text.replace("\\", "")


def widget(elements, label: str):
    """The one widget of a kind with this label."""
    found = [e for e in elements if e.label == label]
    assert len(found) == 1, f"{label!r} not found once among {[e.label for e in elements]}"
    return found[0]


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def element_path(at: AppTest, kind: str) -> tuple[int, ...]:
    """Where the first element of a kind sits in the page's element tree (child indices from
    the main area down): the browser keeps an element that stays in place as it was drawn."""

    def walk(node, here: tuple[int, ...]) -> tuple[int, ...] | None:
        for index, child in getattr(node, "children", {}).items():
            if getattr(child, "type", None) == kind:
                return (*here, index)
            found = walk(child, (*here, index))
            if found is not None:
                return found
        return None

    found = walk(at.main, ())
    assert found is not None, f"no {kind} on the page"
    return found


def section_errors(at: AppTest) -> dict[str, list[str]]:
    """Error messages by the bold title of the box they are in (knob sections)."""
    found: dict[str, list[str]] = {}

    def walk(node, title: str | None) -> None:
        children = list(getattr(node, "children", {}).values())
        heads = [c.value for c in children if getattr(c, "type", None) == "markdown"]
        box = next((h.strip("*") for h in heads if h.startswith("**")), title)
        for child in children:
            if getattr(child, "type", None) == "error" and box:
                found.setdefault(box, []).append(unescape(child.value))
            walk(child, box)

    walk(at.main, None)
    return found


def wait_for_run(at: AppTest, timeout: float = RUN_TIMEOUT) -> AppTest:
    """Rerun the page (as the progress fragment would) until the run is done or failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        at.run()
        assert not at.exception, at.exception
        if at.success or any("failed" in e.value or "No solution" in e.value for e in at.error):
            return at
        time.sleep(0.5)
    raise AssertionError(f"the run did not finish in {timeout} s")


def run_button(at: AppTest):
    """The scenario page's Run button ("Run" or "Run (cached)")."""
    found = [b for b in at.button if b.label.startswith("Run")]
    assert len(found) == 1, [b.label for b in at.button]
    return found[0]


def run_scenario(at: AppTest, hours: int | None = None, carbon_price: float | None = None) -> AppTest:
    """Open the quickstart, set knobs, press Run and wait for the outcome."""
    at.run()
    if hours is not None:
        widget(at.number_input, "Horizon (h)").set_value(hours).run()
    if carbon_price is not None:
        widget(at.number_input, "Carbon price (USD/tCO2)").set_value(carbon_price).run()
    button = run_button(at)
    if button.label == "Run":
        button.click().run()
    return wait_for_run(at)


def table_with(at: AppTest, heading: str):
    """The one table on the page with a column of this heading, its cells as read (the
    page gets them Markdown-escaped)."""
    found = [t.value for t in at.table if heading in t.value.columns]
    assert len(found) == 1, f"{heading!r} in {[list(t.value.columns) for t in at.table]}"
    return found[0].map(lambda v: unescape(v) if isinstance(v, str) else v)


def number(text: str) -> float:
    """A number as a table shows it (grouped: ``1,432.2``)."""
    return float(str(text).replace(",", ""))


def open_view(at: AppTest, name: str) -> AppTest:
    """Open one of the Results page's tabs (only the open one runs) and run the page."""
    from geomodel.ui import state

    at.session_state[state.VIEW_PARAM] = name
    return at.run()
