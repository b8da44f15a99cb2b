"""Fixtures of the model tests: the built-in H100 server's figures (inputs, not outputs)."""

from __future__ import annotations

import pytest
from scenario_builder import Server, server_figures

from geomodel.catalog import Catalog


@pytest.fixture(scope="session")
def h100(catalog: Catalog) -> Server:
    return server_figures(catalog)
