"""Built-in firm generators: IPCC lifecycle carbon, flat availability profiles."""

from __future__ import annotations

import pandas as pd
import pytest

from geomodel.catalog import Catalog
from geomodel.geo import Location

# IPCC AR5 WGIII Annex III lifecycle medians, gCO2e/kWh = kg/MWh.
IPCC_MEDIANS = {"hydro": 24, "nuclear": 12, "gas_ccgt": 490}


def test_firm_sources_carry_the_ipcc_medians(catalog: Catalog) -> None:
    assert set(catalog.contributions("firm")["power sources"]) == set(IPCC_MEDIANS)
    for name, carbon in IPCC_MEDIANS.items():
        source = catalog.power_sources[name]
        assert source.carbon_kg_per_mwh == carbon
        assert source.carbon_basis == "lifecycle"
        assert source.figure_sources["price_usd_per_mwh"].endswith("[estimate]")
        assert source.figure_sources["capacity_factor"].endswith("[estimate]")
    assert catalog.power_sources["gas_ccgt"].kind == "gas"


def test_profiles_are_flat_at_the_availability(catalog: Catalog) -> None:
    index = pd.date_range("2023-01-01", periods=72, freq="h", tz="Asia/Tokyo")
    for name in IPCC_MEDIANS:
        source = catalog.power_sources[name]
        frame = source.profile(Location(lat=35.7, lon=139.7), index)
        assert (frame["capacity_factor"] == source.capacity_factor).all()
        assert (frame["carbon_kg_per_mwh"] == source.carbon_kg_per_mwh).all()
    assert catalog.power_sources["nuclear"].capacity_factor == pytest.approx(0.9)
