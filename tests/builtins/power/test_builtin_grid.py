"""Built-in grid regions: measured series where a zone is named, shaped ones elsewhere.

Expected values come from the sources, not from the plugin: the EIA 2023 industrial
prices in the reference sheet, the publisher's annual means in
``hourly_2023_zones.csv`` (computed by the source, not from the archive arrays), the
day-of-week calendar, and reported market events.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel.catalog import CARBON_BASIS_COLUMNS, PROFILE_COLUMNS, Catalog
from geomodel.geo import Location
from geomodel_builtins import measured
from geomodel_builtins._tables import read_table
from geomodel_builtins.power import grid, grid_measured

REGION_IDS = [row["region_id"] for row in read_table("grid_regions")]
ZONES = measured.zone_table()


@pytest.fixture(scope="module")
def regions(catalog: Catalog) -> dict[str, grid.GridRegion]:
    return {name: catalog.power_sources[name] for name in catalog.contributions("grid")["power sources"]}


def full_year(tz: str, year: int = 2023) -> pd.DatetimeIndex:
    return pd.date_range(f"{year}-01-01", periods=8760, freq="h", tz=tz)


def test_one_grid_source_per_region_row(regions) -> None:
    assert sorted(regions) == sorted(f"grid_{region}" for region in REGION_IDS)
    assert {"grid_us_va_pjm", "grid_de", "grid_no"} <= regions.keys()
    for region in regions.values():
        assert region.kind == "grid"
        assert region.capacity_factor == 1.0
        assert region.location is not None and region.country


def test_every_measured_zone_is_a_region_and_the_counts_of_done() -> None:
    # Issue #14, "what done looks like": >= 40 regions, >= 16 with measured carbon, >= 21 prices.
    rows = read_table("grid_regions")
    assert len(rows) >= 40
    assert sum(bool(r["carbon_zone"]) for r in rows) >= 16
    assert sum(bool(r["price_zone"]) for r in rows) >= 21
    assert {r["carbon_zone"] for r in rows} - {""} == set(measured.zones_with("carbon_direct"))
    assert {r["price_zone"] for r in rows} - {""} == set(measured.zones_with("price"))


@pytest.mark.parametrize(
    ("name", "price_zone", "carbon_zone"),
    [
        ("grid_us_va_pjm", "US-MIDA-PJM", "US-MIDA-PJM"),
        ("grid_us_oh_pjm", "US-MIDA-PJM", "US-MIDA-PJM"),
        ("grid_us_tx_ercot", "US-TEX-ERCO", "US-TEX-ERCO"),
        ("grid_us_ca_caiso", "US-CAL-CISO", "US-CAL-CISO"),
        ("grid_de", "DE-LU", "DE-LU"),
        ("grid_sg", "SG", "SG"),
        ("grid_jp", "JP-TK", "JP-TK"),
        ("grid_fr", "FR", None),
        ("grid_nl", "NL", None),
        ("grid_gb", None, "GB"),
        ("grid_in_we", None, "IN-WE"),
        ("grid_es", "ES", None),
        ("grid_us_ia_miso", None, None),
    ],
)
def test_existing_ids_keep_their_names_and_read_their_zone(regions, name, price_zone, carbon_zone):
    region = regions[name]
    assert (region.price_zone, region.carbon_zone) == (price_zone, carbon_zone)
    basis = region.series_basis()
    for column, zone in (("price_usd_per_mwh", price_zone), ("carbon_kg_per_mwh", carbon_zone)):
        if zone is None:
            assert basis[column].startswith("shaped from annual mean")
        else:
            assert basis[column].startswith(f"measured 2023, zone {zone}, 0 hours filled")


def test_measured_annual_means_are_the_publishers(regions):
    # hourly_2023_zones.csv holds the publisher's own annual means (0.1 g/kWh, 0.01 USD/MWh)
    for region in regions.values():
        if region.price_zone is not None:
            published = float(ZONES[region.price_zone]["price_mean_usd_mwh"])
            assert region.price_usd_per_mwh == pytest.approx(published, abs=0.006), region.name
        if region.carbon_zone is not None:
            direct = (
                region.carbon_kg_per_mwh
                if region.carbon_basis == "direct"
                else region.carbon_other_basis_kg_per_mwh
            )
            published = float(ZONES[region.carbon_zone]["carbon_mean_direct"])
            assert direct == pytest.approx(published, abs=0.06), region.name


def test_the_default_adder_takes_wholesale_to_the_industrial_retail_price(regions) -> None:
    # EIA 2023 industrial average, Virginia: 8.92 US cents/kWh = 89.2 USD/MWh; the measured
    # PJM wholesale mean of 2023 is 35.74 USD/MWh (zones table): adder 89.2 - 35.74 = 53.46.
    va = regions["grid_us_va_pjm"]
    assert va.price_adder_usd_per_mwh == pytest.approx(
        8.92 * 10 - float(ZONES["US-MIDA-PJM"]["price_mean_usd_mwh"])
    )
    assert va.price_adder_usd_per_mwh == pytest.approx(53.46)
    # Texas 6.60 cents - ERCOT 55.93 = 10.07; California 18.64 cents - CAISO 61.52 = 124.88
    assert regions["grid_us_tx_ercot"].price_adder_usd_per_mwh == pytest.approx(66.0 - 55.93)
    assert regions["grid_us_ca_caiso"].price_adder_usd_per_mwh == pytest.approx(186.4 - 61.52)
    # shaped: Iowa 6.91 cents - the MISO hub's ~30 USD/MWh of the reference sheet
    assert regions["grid_us_ia_miso"].price_adder_usd_per_mwh == pytest.approx(69.1 - 30)
    # no industrial figure: wholesale only (Germany); no wholesale: retail only (China, TVA)
    for name in ("grid_de", "grid_cn_nmg", "grid_us_tn_tva", "grid_us_ny_nyiso"):
        assert regions[name].price_adder_usd_per_mwh == 0.0
    assert regions["grid_cn_nmg"].price_basis.startswith("industrial retail")
    assert "[agency]" in va.figure_sources["price_adder_usd_per_mwh"]
    assert "[estimate]" in regions["grid_us_ia_miso"].figure_sources["price_adder_usd_per_mwh"]


def test_shaped_figures_keep_the_table_and_its_carbon_basis(regions) -> None:
    de = regions["grid_de"]
    assert de.shaped_carbon_kg_per_mwh == 381  # Ember 2023, lifecycle
    assert de.carbon_basis == "lifecycle"
    # FfE: Germany 2024 day-ahead average EUR 79.6/MWh at 1.08 USD/EUR
    assert de.shaped_price_usd_per_mwh == pytest.approx(79.6 * 1.08, abs=0.5)
    nmg = regions["grid_cn_nmg"]
    assert nmg.carbon_kg_per_mwh == pytest.approx(0.6849 * 1000, abs=1)  # MEE 2022, direct
    assert nmg.carbon_basis == "direct"
    shaped = regions["grid_us_va_pjm"].shaped()
    assert (shaped.price_zone, shaped.carbon_zone) == (None, None)
    assert shaped.price_usd_per_mwh == 35.0 and shaped.carbon_kg_per_mwh == 290.0  # the table's
    assert shaped.series_basis()["price_usd_per_mwh"].startswith("shaped from annual mean 35 USD/MWh")


def test_the_basis_fit_is_the_least_squares_line_through_the_measured_zones() -> None:
    zones = measured.zones_with("carbon_direct")
    direct = [float(np.mean(measured.measured_series(z, "carbon_direct"))) for z in zones]
    lifecycle = [float(np.mean(measured.measured_series(z, "carbon_lifecycle"))) for z in zones]
    # closed-form least squares: slope = cov(x, y) / var(x), intercept = mean(y) - slope mean(x)
    x, y = np.array(direct), np.array(lifecycle)
    slope = ((x - x.mean()) * (y - y.mean())).sum() / ((x - x.mean()) ** 2).sum()
    intercept = y.mean() - slope * x.mean()
    assert abs(grid_measured.CARBON_FIT_SLOPE - slope) < 5e-4
    assert abs(grid_measured.CARBON_FIT_INTERCEPT - intercept) < 0.05
    # round trip, and never below zero: Norway's 30 lifecycle is under the intercept
    assert grid_measured.other_basis_carbon(
        grid_measured.other_basis_carbon(400, "direct"), "lifecycle"
    ) == (pytest.approx(400))
    assert grid_measured.other_basis_carbon(30, "lifecycle") == 0.0


@pytest.mark.parametrize("tz", ["UTC", "Europe/Berlin", "Asia/Shanghai"])
def test_shaped_means_over_a_full_year_equal_the_table(regions, tz: str) -> None:
    for region in regions.values():
        frame = region.shaped().profile(region.location, full_year(tz, 2025))
        assert list(frame.columns) == list(PROFILE_COLUMNS)
        assert frame["price_usd_per_mwh"].mean() == pytest.approx(
            region.shaped_price_usd_per_mwh, rel=1e-6
        )
        assert frame["carbon_kg_per_mwh"].mean() == pytest.approx(
            region.shaped_carbon_kg_per_mwh, rel=1e-6
        )
        assert (frame["carbon_kg_per_mwh"] >= 0).all()
        assert (frame["capacity_factor"] == 1.0).all()


def test_measured_profiles_over_2023_average_to_the_entry_and_carry_both_bases(regions) -> None:
    for region in regions.values():
        frame = region.profile(region.location, full_year("UTC"))
        assert frame["price_usd_per_mwh"].mean() == pytest.approx(region.price_usd_per_mwh, abs=0.006)
        assert frame["carbon_kg_per_mwh"].mean() == pytest.approx(region.carbon_kg_per_mwh, abs=0.06)
        has_both = set(CARBON_BASIS_COLUMNS) <= set(frame.columns)
        assert has_both == (region.carbon_zone is not None)
        if has_both:
            other = "direct" if region.carbon_basis == "lifecycle" else "lifecycle"
            column = frame[f"carbon_{other}_kg_per_mwh"]
            assert column.mean() == pytest.approx(region.carbon_other_basis_kg_per_mwh, abs=0.06)


def test_a_2025_horizon_reads_the_same_weekday_of_2023(regions) -> None:
    # 1 July 2025 is a Tuesday. 1 July 2023 was a Saturday; the Tuesdays around it are
    # 27 June (4 days before) and 4 July (3 days after): the nearest is 4 July 2023.
    hours = pd.date_range("2025-07-01", periods=48, freq="h", tz="UTC")
    assert hours[0].day_name() == "Tuesday" and pd.Timestamp("2023-07-04").day_name() == "Tuesday"
    frame = regions["grid_de"].profile(Location(lat=50.1, lon=8.7), hours)
    year = measured.measured_series("DE-LU", "price")
    first = (pd.Timestamp("2023-07-04", tz="UTC") - measured.data_hours()[0]) // pd.Timedelta(hours=1)
    assert frame["price_usd_per_mwh"].to_numpy() == pytest.approx(year[first : first + 48])


def test_negative_prices_are_real_and_kept(regions) -> None:
    # 2 July 2023, a sunny and windy Sunday: the DE-LU day-ahead auction cleared at its
    # -500 EUR/MWh floor (widely reported); the year's lowest hour is that day.
    year = measured.data_hours()
    frame = regions["grid_de"].profile(regions["grid_de"].location, year)
    prices = frame["price_usd_per_mwh"]
    assert prices.idxmin().date() == pd.Timestamp("2023-07-02").date()
    assert prices.min() < -400
    assert (prices < 0).sum() > 100
    # Victoria's midday solar makes negative prices common (about a quarter of 2023's hours)
    victoria = regions["grid_au_vic"].profile(regions["grid_au_vic"].location, year)["price_usd_per_mwh"]
    assert 0.15 < (victoria < 0).mean() < 0.35


def solar_hour_means(region: grid.GridRegion, column: str) -> pd.Series:
    index = full_year("UTC")
    frame = region.shaped_profile(region.location, index)
    solar_hour = np.floor((index.hour + 0.5 + region.location.lon / 15) % 24)
    return frame[column].groupby(solar_hour).mean()


def test_shaped_solar_heavy_grids_dip_at_midday_and_prices_peak_in_the_evening(regions) -> None:
    carbon = solar_hour_means(regions["grid_us_ca_caiso"], "carbon_kg_per_mwh")
    assert carbon[12] < 0.85 * carbon[0]
    price = solar_hour_means(regions["grid_no"], "price_usd_per_mwh")
    assert price.idxmax() in (18, 19, 20)
    # No solar in Iceland's mix: carbon is flat over the day.
    flat = solar_hour_means(regions["grid_is"], "carbon_kg_per_mwh")
    assert flat.max() == pytest.approx(flat.min())


def shaped_region(**changes) -> grid.GridRegion:
    """A shaped region at 80 USD/MWh and 400 kg/MWh with no solar or wind."""
    fields = {
        "name": "grid_test",
        "source": "test",
        "source_type": "estimate",
        "price_usd_per_mwh": 80,
        "carbon_kg_per_mwh": 400,
        "shaped_price_usd_per_mwh": 80,
        "shaped_carbon_kg_per_mwh": 400,
        "solar_share": 0.0,
        "wind_share": 0.0,
    }
    return grid.GridRegion(**{**fields, **changes})


def test_the_daily_swing_grows_with_the_solar_share() -> None:
    here = Location(lat=40.0, lon=0.0)
    index = pd.date_range("2023-06-01", periods=24, freq="h", tz="UTC")
    swings = []
    for solar in (0.0, 0.1, 0.3):
        carbon = shaped_region(solar_share=solar).profile(here, index)["carbon_kg_per_mwh"]
        swings.append(carbon.max() - carbon.min())
    assert swings[0] == pytest.approx(0) and swings[0] < swings[1] < swings[2]


def test_an_unknown_zone_is_refused_naming_the_covered_ones() -> None:
    with pytest.raises(ValueError, match=r"no measured price for zone 'XX'; covered: AT, AU-NSW"):
        shaped_region(price_zone="XX")


def test_profile_is_deterministic_and_accepts_a_short_window_in_any_zone(regions) -> None:
    for name in ("grid_cn_nmg", "grid_de"):
        region = regions[name]
        index = pd.date_range("2024-03-10 00:00", periods=48, freq="h", tz="Asia/Shanghai")
        first = region.profile(Location(lat=41.0, lon=113.13), index)
        second = region.profile(Location(lat=41.0, lon=113.13), index.tz_convert("UTC"))
        np.testing.assert_allclose(first.to_numpy(), second.to_numpy())
        assert first.index.equals(index)
