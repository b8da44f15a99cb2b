"""Built-in onshore wind: exact annual mean, bounds and a reproducible synthetic series."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pydantic import ValidationError

from geomodel.catalog import PROFILE_COLUMNS, Catalog
from geomodel.geo import Location
from geomodel_builtins._tables import nearest_grid_region
from geomodel_builtins.power import wind

COUNCIL_BLUFFS = Location(lat=41.22, lon=-95.86)  # nearest region: Iowa / MISO, CF 0.40
YEAR_2023 = pd.date_range("2023-01-01", periods=8760, freq="h", tz="UTC")


@pytest.fixture(scope="module")
def turbine(catalog: Catalog) -> wind.WindOnshore:
    return catalog.power_sources["wind_onshore"]


def test_carbon_and_price_are_ipcc_and_irena(turbine) -> None:
    assert turbine.kind == "wind"
    assert turbine.carbon_kg_per_mwh == 11  # IPCC AR5 onshore wind median, g/kWh
    assert turbine.price_usd_per_mwh == pytest.approx(3.3 * 10)  # IRENA 2023, 3.3 US cents/kWh


def test_annual_mean_equals_the_nearest_regions_capacity_factor(turbine) -> None:
    assert nearest_grid_region(COUNCIL_BLUFFS)["region_id"] == "us_ia_miso"
    frame = turbine.profile(COUNCIL_BLUFFS, YEAR_2023)
    assert list(frame.columns) == list(PROFILE_COLUMNS)
    cf = frame["capacity_factor"]
    assert cf.mean() == pytest.approx(0.40, rel=1e-6)
    assert cf.between(0, 1).all()
    assert (cf == 0).any() and cf.max() == pytest.approx(1.0)  # calm hours and rated hours


def test_same_seed_same_series_other_seed_other_series(turbine) -> None:
    first = turbine.profile(COUNCIL_BLUFFS, YEAR_2023)["capacity_factor"]
    again = turbine.model_copy().profile(COUNCIL_BLUFFS, YEAR_2023)["capacity_factor"]
    pd.testing.assert_series_equal(first, again)
    other = turbine.model_copy(update={"seed": 1}).profile(COUNCIL_BLUFFS, YEAR_2023)
    assert not first.equals(other["capacity_factor"])
    assert other["capacity_factor"].mean() == pytest.approx(0.40, rel=1e-6)


def test_hours_follow_each_other_like_weather(turbine) -> None:
    cf = turbine.profile(COUNCIL_BLUFFS, YEAR_2023)["capacity_factor"]
    assert cf.autocorr(lag=1) > 0.8
    assert cf.autocorr(lag=24 * 30) < 0.3


def test_a_short_window_in_another_zone_is_a_slice_of_the_year(turbine) -> None:
    local = pd.date_range("2023-03-12 00:00", periods=48, freq="h", tz="America/Chicago")
    window = turbine.profile(COUNCIL_BLUFFS, local)["capacity_factor"]
    year = turbine.profile(COUNCIL_BLUFFS, YEAR_2023)["capacity_factor"]
    assert window.index.equals(local)
    assert window.to_numpy() == pytest.approx(year.loc[local.tz_convert("UTC")].to_numpy())


def test_a_window_across_new_year_draws_from_both_years(turbine) -> None:
    index = pd.date_range("2023-12-31 12:00", periods=24, freq="h", tz="UTC")
    frame = turbine.profile(COUNCIL_BLUFFS, index)
    assert frame["capacity_factor"].between(0, 1).all()


def test_turbine_speeds_must_be_in_order(turbine) -> None:
    fields = {**dict(turbine), "cut_in_m_s": 13.0}
    with pytest.raises(ValidationError, match="cut_in_m_s < rated_m_s < cut_out_m_s"):
        wind.WindOnshore(**fields)


def test_power_curve_is_cubic_between_cut_in_and_rated() -> None:
    speeds = np.array([2.0, 3.0, 7.5, 12.0, 24.9, 25.0])
    out = wind.power_curve(speeds, 3.0, 12.0, 25.0)
    assert out.tolist() == pytest.approx([0, 0, (7.5**3 - 27) / (12**3 - 27), 1, 1, 0])
