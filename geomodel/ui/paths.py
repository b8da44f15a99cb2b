"""Where the app finds bundled scenarios and keeps its run cache, and its limits."""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: Folder of the run cache; tests point it at a temporary folder.
CACHE_ENV = "GEOMODEL_APP_CACHE"
#: Folder of the bundled scenarios (default: ``scenarios/`` of the source tree).
SCENARIOS_ENV = "GEOMODEL_APP_SCENARIOS"
#: Upper bound on ``solver.time_limit`` of every run started from the app, seconds.
TIME_LIMIT_ENV = "GEOMODEL_APP_TIME_LIMIT"
#: Background solver processes.
WORKERS_ENV = "GEOMODEL_APP_WORKERS"
#: The only folder (and its subfolders) the Compare page reads batch folders from.
RESULTS_ROOT_ENV = "GEOMODEL_APP_RESULTS_ROOT"

DEFAULT_TIME_LIMIT_S = 600.0
DEFAULT_SCENARIO = "quickstart.yaml"
#: Largest scenario upload accepted, bytes (files referenced by it come from the
#: bundled scenarios folder, so a scenario itself is small).
MAX_UPLOAD_BYTES = 1024 * 1024
#: What the server takes in at all, MB: ``server.maxUploadSize`` in .streamlit/config.toml
#: and the uploader's own limit. Larger than MAX_UPLOAD_BYTES, so a file somewhat too
#: large reaches the app and is refused on the page in words; beyond it the browser
#: refuses the file itself.
SERVER_UPLOAD_MB = 2


def cache_dir() -> Path:
    """``$GEOMODEL_APP_CACHE``, else the user's cache folder + ``geomodel/app``."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "geomodel" / "app"


def scenarios_dir() -> Path:
    """The bundled scenarios: ``$GEOMODEL_APP_SCENARIOS``, the source tree's, or ./scenarios."""
    override = os.environ.get(SCENARIOS_ENV)
    if override:
        return Path(override).expanduser().resolve()
    source_tree = Path(__file__).resolve().parents[2] / "scenarios"
    if source_tree.is_dir():
        return source_tree
    return (Path.cwd() / "scenarios").resolve()


def bundled_scenarios(folder: Path | None = None) -> list[str]:
    """File names of the bundled scenarios, the quickstart first."""
    folder = folder or scenarios_dir()
    names = sorted(p.name for p in folder.glob("*.yaml") if p.is_file())
    return sorted(names, key=lambda name: name != DEFAULT_SCENARIO)


def results_root() -> Path:
    """``$GEOMODEL_APP_RESULTS_ROOT``, else the folder the server was started in."""
    override = os.environ.get(RESULTS_ROOT_ENV)
    return (Path(override).expanduser() if override else Path.cwd()).resolve()


def time_limit_cap() -> float:
    """Seconds every run is bounded by (``$GEOMODEL_APP_TIME_LIMIT``, default 600)."""
    try:
        value = float(os.environ.get(TIME_LIMIT_ENV, DEFAULT_TIME_LIMIT_S))
    except ValueError:
        return DEFAULT_TIME_LIMIT_S
    return value if value > 0 else DEFAULT_TIME_LIMIT_S


def worker_count() -> int:
    """Background solver processes (``$GEOMODEL_APP_WORKERS``, default 2 or the CPU count)."""
    try:
        value = int(os.environ.get(WORKERS_ENV, "0"))
    except ValueError:
        value = 0
    return value if value > 0 else max(1, min(2, os.cpu_count() or 1))


#: the page scripts of the app (``st.Page`` takes their paths)
PAGES_DIR = Path(__file__).resolve().parent / "pages"


def page_file(name: str) -> str:
    """Absolute path of a page script, e.g. ``page_file("results")``."""
    return str(PAGES_DIR / f"{name}.py")
