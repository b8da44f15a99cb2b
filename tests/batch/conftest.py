"""Batch tests see only the plugins installed before the session started.

tests/test_example_plugin.py pip-installs a plugin into the shared environment
for the duration of its module. A plugin set that changes changes every
scenario hash (as it should: results may differ), so a second test run that
overlaps ours would make a resumed sweep look like a new one. The workers
inherit this environment, the LocalCluster's and the `dask worker` processes.
"""

from __future__ import annotations

import os
import tomllib

import pytest
from sweep_files import ROOT

from geomodel.plugin_loader import DISABLE_ENV

EXAMPLE_PLUGIN = tomllib.loads(
    (ROOT / "examples" / "geomodel-example-plugin" / "pyproject.toml").read_text(encoding="utf-8")
)["project"]["name"]


@pytest.fixture(scope="module", autouse=True)
def stable_plugins():
    before = os.environ.get(DISABLE_ENV)
    names = {n for n in (before or "").split(",") if n} | {EXAMPLE_PLUGIN}
    os.environ[DISABLE_ENV] = ",".join(sorted(names))
    yield
    if before is None:
        os.environ.pop(DISABLE_ENV, None)
    else:
        os.environ[DISABLE_ENV] = before
