"""pytest fixtures for plugin authors, loaded through geomodel's ``pytest11`` entry point.

Installing geomodel is enough: pytest finds these fixtures in any project. With
plugin autoloading switched off (``PYTEST_DISABLE_PLUGIN_AUTOLOAD``), load them
with ``pytest -p geomodel.testing.pytest_plugin``. The module imports nothing
heavy until a fixture is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV, TRACE_ENV


@pytest.fixture
def geomodel_clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset GEOMODEL_DISABLE_PLUGINS, GEOMODEL_STRICT_PLUGINS and GEOMODEL_TRACE_HOOKS
    for the test, so the caller's shell does not change what a test sees."""
    for name in (DISABLE_ENV, STRICT_ENV, TRACE_ENV):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def geomodel_check_plugin(geomodel_clean_environment: None) -> Callable[..., Any]:
    """:func:`geomodel.testing.check_plugin`: ``geomodel_check_plugin(module).assert_ok()``
    runs every conformance check on a plugin module and fails the test on any failure."""
    from geomodel.testing import check_plugin

    return check_plugin


@pytest.fixture
def geomodel_plugin_host(geomodel_clean_environment: None) -> Callable[..., Any]:
    """:func:`geomodel.testing.plugin_host`: a fresh host holding only the plugins named
    (installed plugins by entry-point name, modules as themselves)."""
    from geomodel.testing import plugin_host

    return plugin_host


@pytest.fixture
def geomodel_minimal_scenario(tmp_path) -> Callable[..., Any]:
    """A factory ``(catalog=None, **sections) -> Scenario``: the minimal scenario of
    :func:`geomodel.testing.minimal_scenario` with ``sections`` changed (``extensions=``,
    ``sites=``, ...), validated against ``catalog``; CSV files resolve in ``tmp_path``."""
    from geomodel.testing import load_minimal_scenario, minimal_scenario

    def make(catalog: Any = None, **sections: Any) -> Any:
        return load_minimal_scenario(catalog, minimal_scenario(**sections), folder=tmp_path)

    return make
