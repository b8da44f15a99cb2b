"""Real plugin modules for the tests of the plugin machinery, plus helpers.

Each module here is a plugin as a third party would write one, good or broken in
one particular way. Tests register them with
``load_plugins(use_entry_points=False, extra_plugins=[(name, module)])``, or expose
them through an installed distribution made by :func:`write_distribution`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path

from geomodel.hookspecs import PROJECT_NAME

#: The folder that holds this package; put it on sys.path / PYTHONPATH so that
#: entry points naming ``plugin_fixtures.<module>`` resolve.
TESTS_DIR = Path(__file__).resolve().parent.parent


def write_distribution(site_dir: Path, name: str, version: str, plugins: Mapping[str, str]) -> Path:
    """Install a distribution the way an installer lays it out: a ``.dist-info``
    folder with METADATA and an ``entry_points.txt`` declaring ``plugins``
    (entry-point name -> module) in the ``geomodel`` group, under ``site_dir``.

    Put ``site_dir`` on sys.path (or PYTHONPATH) and ``importlib.metadata`` finds
    it exactly as it finds a pip-installed package.
    """
    folder = site_dir / f"{re.sub(r'[-_.]+', '_', name)}-{version}.dist-info"
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = [f"[{PROJECT_NAME}]", *(f"{ep} = {module}" for ep, module in plugins.items())]
    (folder / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def installed_plugin_distributions() -> set[str]:
    """Names of the distributions already installed with ``geomodel`` entry points
    (geomodel's built-ins at least), to block with GEOMODEL_DISABLE_PLUGINS when a
    test wants to see only its own plugins."""
    return {ep.dist.name for ep in entry_points(group=PROJECT_NAME) if ep.dist is not None}
