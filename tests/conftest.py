"""Shared fixtures: the catalogue of the installed built-in plugins."""

from __future__ import annotations

import pytest

from geomodel.catalog import Catalog, build_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The catalogue every installed plugin contributes (built-ins at least)."""
    return build_catalog()
