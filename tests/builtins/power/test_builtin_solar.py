"""Built-in solar PV: dark at night, annual mean equal to the nearest region's CF."""

from __future__ import annotations

import pandas as pd
import pvlib
import pytest

from geomodel.catalog import PROFILE_COLUMNS, Catalog
from geomodel.geo import Location
from geomodel_builtins._tables import nearest_grid_region, read_table, row_location
from geomodel_builtins.power import solar

FRANKFURT = Location(lat=50.11, lon=8.68)
ABILENE = Location(lat=32.52, lon=-99.78)
REFERENCE_YEAR = pd.date_range("2023-01-01", periods=8760, freq="h", tz="UTC")


@pytest.fixture(scope="module")
def pv(catalog: Catalog) -> solar.SolarPV:
    return catalog.power_sources["solar_pv"]


def test_carbon_and_price_are_ipcc_and_irena(pv) -> None:
    assert pv.kind == "solar"
    assert pv.carbon_kg_per_mwh == 48  # IPCC AR5 utility PV median, g/kWh
    assert pv.price_usd_per_mwh == pytest.approx(4.4 * 10)  # IRENA 2023, 4.4 US cents/kWh


@pytest.mark.parametrize(
    ("site", "region", "cf"), [(FRANKFURT, "de", 0.11), (ABILENE, "us_tx_ercot", 0.25)]
)
def test_annual_mean_equals_the_nearest_regions_capacity_factor(pv, site, region, cf) -> None:
    assert nearest_grid_region(site)["region_id"] == region
    frame = pv.profile(site, REFERENCE_YEAR)
    assert list(frame.columns) == list(PROFILE_COLUMNS)
    assert frame["capacity_factor"].mean() == pytest.approx(cf, rel=1e-6)
    assert frame["capacity_factor"].between(0, 1).all()
    assert frame["capacity_factor"].max() > 3 * cf  # it is a daily cycle, not a flat line


def test_output_is_zero_whenever_the_sun_is_down(pv) -> None:
    frame = pv.profile(FRANKFURT, REFERENCE_YEAR)
    sun = pvlib.solarposition.get_solarposition(REFERENCE_YEAR + pd.Timedelta(minutes=30), 50.11, 8.68)
    night = sun["apparent_elevation"].to_numpy() <= 0
    assert (frame["capacity_factor"].to_numpy()[night] == 0).all()
    assert (frame["capacity_factor"].to_numpy()[~night] > 0).mean() > 0.95


def test_summer_days_yield_more_than_winter_days(pv) -> None:
    cf = pv.profile(FRANKFURT, REFERENCE_YEAR)["capacity_factor"]
    assert cf[cf.index.month == 6].mean() > 1.5 * cf[cf.index.month == 12].mean()


def test_a_short_window_in_local_time_matches_the_full_year(pv) -> None:
    local = pd.date_range("2023-06-21 00:00", periods=24, freq="h", tz="Europe/Berlin")
    window = pv.profile(FRANKFURT, local)["capacity_factor"]
    year = pv.profile(FRANKFURT, REFERENCE_YEAR)["capacity_factor"]
    assert window.to_numpy() == pytest.approx(year.loc[local.tz_convert("UTC")].to_numpy())
    assert window.idxmax().hour in (12, 13, 14)  # solar noon is ~13:25 CEST at 8.7 E


def test_the_annual_scale_is_computed_once_per_site(pv) -> None:
    # the scale needs a clear-sky year per site; a second profile at a site reuses it
    sites = [row_location(row) for row in read_table("grid_regions")][:8]
    for site in sites:
        pv.profile(site, REFERENCE_YEAR)
    misses = solar.annual_scale.cache_info().misses
    for site in sites:
        pv.profile(site, REFERENCE_YEAR)
    assert solar.annual_scale.cache_info().misses == misses
