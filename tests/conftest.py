"""Shared fixtures: the catalogue of the installed built-in plugins, the bench scripts; and the
order modules are handed to the xdist workers in."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from geomodel.catalog import Catalog, build_catalog

BENCH = Path(__file__).resolve().parents[1] / "bench"
#: The longest modules, collected first so that ``--dist loadscope`` hands them out first:
#: each then runs beside the many short ones instead of trailing the suite on one worker
#: (the browser walk alone took 4-5 minutes at the end of a 2-core run).
LONGEST_FIRST = (
    "tests/ui/test_browser.py",
    "tests/test_example_scenarios.py",
    "tests/ui/test_maps.py",
    "tests/cli/test_plugin_kit_cli.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the LONGEST_FIRST modules to the front, in that order; the rest keep theirs."""

    def rank(item: pytest.Item) -> int:
        module = item.nodeid.split("::", 1)[0]
        return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The catalogue every installed plugin contributes (built-ins at least)."""
    return build_catalog()


@pytest.fixture(scope="session")
def bench_script() -> Iterator:
    """A loader of ``bench/<name>.py`` as a module (tests check what the scripts print);
    each stays in sys.modules for the session, as its dataclasses need."""
    loaded: dict[str, ModuleType] = {}

    def load(name: str) -> ModuleType:
        if name not in loaded:
            spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            loaded[name] = module
        return loaded[name]

    yield load
    for name in loaded:
        sys.modules.pop(name, None)
