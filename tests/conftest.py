"""Shared fixtures: the catalogue of the installed built-in plugins, the bench scripts."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from geomodel.catalog import Catalog, build_catalog

BENCH = Path(__file__).resolve().parents[1] / "bench"


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
