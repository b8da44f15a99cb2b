"""Built-in grid regions: catalogue figures, exact annual means, shapes that follow the mix."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel.catalog import PROFILE_COLUMNS, Catalog
from geomodel.geo import Location
from geomodel_builtins._tables import read_table
from geomodel_builtins.power import grid

REGION_IDS = [row["region_id"] for row in read_table("grid_regions")]


@pytest.fixture(scope="module")
def regions(catalog: Catalog) -> dict[str, grid.GridRegion]:
    return {name: catalog.power_sources[name] for name in catalog.contributions("grid")["power sources"]}


def full_year(tz: str) -> pd.DatetimeIndex:
    return pd.date_range("2023-01-01", periods=8760, freq="h", tz=tz)


def test_one_grid_source_per_region_row(regions) -> None:
    assert sorted(regions) == sorted(f"grid_{region}" for region in REGION_IDS)
    assert {"grid_us_va_pjm", "grid_de", "grid_no"} <= regions.keys()
    for region in regions.values():
        assert region.kind == "grid"
        assert region.capacity_factor == 1.0
        assert region.location is not None and region.country


def test_price_is_industrial_retail_where_given_else_wholesale(regions) -> None:
    # EIA 2023 industrial average, Virginia: 8.92 US cents/kWh.
    assert regions["grid_us_va_pjm"].price_usd_per_mwh == pytest.approx(8.92 * 10)
    assert "industrial retail" in regions["grid_us_va_pjm"].figure_sources["price_usd_per_mwh"]
    # FfE: Germany 2024 day-ahead average EUR 79.6/MWh at 1.08 USD/EUR, no industrial figure.
    assert regions["grid_de"].price_usd_per_mwh == pytest.approx(79.6 * 1.08, abs=0.5)
    assert "wholesale" in regions["grid_de"].figure_sources["price_usd_per_mwh"]


def test_carbon_keeps_its_basis(regions) -> None:
    assert regions["grid_de"].carbon_kg_per_mwh == 381  # Ember 2023, lifecycle
    assert regions["grid_de"].carbon_basis == "lifecycle"
    assert regions["grid_cn_nmg"].carbon_kg_per_mwh == pytest.approx(0.6849 * 1000, abs=1)  # MEE
    assert regions["grid_cn_nmg"].carbon_basis == "direct"


@pytest.mark.parametrize("tz", ["UTC", "Europe/Berlin", "Asia/Shanghai"])
def test_profile_means_over_a_full_year_equal_the_catalogue(regions, tz: str) -> None:
    for region in regions.values():
        frame = region.profile(region.location, full_year(tz))
        assert list(frame.columns) == list(PROFILE_COLUMNS)
        assert frame["price_usd_per_mwh"].mean() == pytest.approx(region.price_usd_per_mwh, rel=1e-6)
        assert frame["carbon_kg_per_mwh"].mean() == pytest.approx(region.carbon_kg_per_mwh, rel=1e-6)
        assert (frame["carbon_kg_per_mwh"] >= 0).all()
        assert (frame["capacity_factor"] == 1.0).all()


def solar_hour_means(region: grid.GridRegion, column: str) -> pd.Series:
    index = full_year("UTC")
    frame = region.profile(region.location, index)
    solar_hour = np.floor((index.hour + 0.5 + region.location.lon / 15) % 24)
    return frame[column].groupby(solar_hour).mean()


def test_solar_heavy_grids_dip_at_midday_and_prices_peak_in_the_evening(regions) -> None:
    carbon = solar_hour_means(regions["grid_us_ca_caiso"], "carbon_kg_per_mwh")
    assert carbon[12] < 0.85 * carbon[0]
    price = solar_hour_means(regions["grid_no"], "price_usd_per_mwh")
    assert price.idxmax() in (18, 19, 20)
    # No solar in Iceland's mix: carbon is flat over the day.
    flat = solar_hour_means(regions["grid_is"], "carbon_kg_per_mwh")
    assert flat.max() == pytest.approx(flat.min())


def test_the_daily_swing_grows_with_the_solar_share() -> None:
    base = dict(
        name="grid_test",
        source="test",
        source_type="estimate",
        price_usd_per_mwh=80,
        carbon_kg_per_mwh=400,
        wind_share=0.0,
    )
    here = Location(lat=40.0, lon=0.0)
    index = pd.date_range("2023-06-01", periods=24, freq="h", tz="UTC")
    swings = []
    for solar in (0.0, 0.1, 0.3):
        carbon = grid.GridRegion(**base, solar_share=solar).profile(here, index)["carbon_kg_per_mwh"]
        swings.append(carbon.max() - carbon.min())
    assert swings[0] == pytest.approx(0) and swings[0] < swings[1] < swings[2]


def test_profile_is_deterministic_and_accepts_a_short_window_in_any_zone(regions) -> None:
    region = regions["grid_cn_nmg"]
    index = pd.date_range("2024-03-10 00:00", periods=48, freq="h", tz="Asia/Shanghai")
    first = region.profile(Location(lat=41.0, lon=113.13), index)
    second = region.profile(Location(lat=41.0, lon=113.13), index)
    pd.testing.assert_frame_equal(first, second)
    assert first.index.equals(index)
