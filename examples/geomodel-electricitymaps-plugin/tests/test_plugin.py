"""The plugin's own tests, as its author runs them: ``pip install -e .`` then ``pytest``.

geomodel's test suite has the thorough ones (tests/test_electricitymaps_plugin.py in
the geomodel repository); these show how a data plugin uses geomodel.testing.
"""

from __future__ import annotations

import geomodel_electricitymaps as plugin
import pytest


@pytest.fixture(autouse=True)
def _sample(monkeypatch):
    monkeypatch.setenv(plugin.CONFIG_ENV, str(plugin.SAMPLE_CONFIG))


def test_the_plugin_passes_geomodels_conformance_checks(geomodel_check_plugin):
    geomodel_check_plugin(plugin).assert_ok()


def test_the_sample_week_is_a_grid_source_with_hourly_carbon_and_prices(geomodel_plugin_host):
    from geomodel import build_catalog

    catalog = build_catalog(geomodel_plugin_host(plugin, strict=True))
    source = catalog.power_source("em_xx_synthetic")
    week = source.hourly_coverage()
    assert len(week) == 7 * 24
    profile = source.profile(source.location, week)
    assert profile["carbon_kg_per_mwh"].mean() == pytest.approx(source.carbon_kg_per_mwh)
    assert (profile["price_usd_per_mwh"] < 0).any()  # negative day-ahead hours are kept
