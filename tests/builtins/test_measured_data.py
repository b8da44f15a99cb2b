"""The measured year shipped with the built-in plugins (plugins/measured.py).

Expected values are read off the published source files the archive was built from
(the 2023 carbon, price and weather CSVs of HewlettPackard/green-dcc, first rows) and
their zones.csv (annual means computed by the publisher; plugins/data/hourly_2023.md),
not from the archive.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel_builtins import measured


def test_the_year_has_every_hour_of_2023_in_utc():
    hours = measured.data_hours()
    assert len(hours) == 8760  # 365 days x 24, 2023 is not a leap year
    assert str(hours[0]) == "2023-01-01 00:00:00+00:00"
    assert str(hours[-1]) == "2023-12-31 23:00:00+00:00"


def test_coverage_matches_the_shipped_description():
    # plugins/data/hourly_2023.md: carbon for 16 zones, prices for 21, weather for the 16 carbon
    # zones; hourly_2023_zones.csv: GB and IN-WE have no price
    carbon = measured.zones_with("carbon_direct")
    prices = measured.zones_with("price")
    assert len(carbon) == 16
    assert len(prices) == 21
    assert measured.zones_with("temperature_c") == carbon
    assert {"GB", "IN-WE"} <= set(carbon) - set(prices)
    assert {"AT", "BE", "CH", "ES", "FR", "NL", "PT"} <= set(prices) - set(carbon)


@pytest.mark.parametrize(
    ("zone", "series", "first_hour"),
    [
        ("DE-LU", "price", -3.3622),  # DE-LU_price.csv.gz, 2023-01-01 00:00 UTC: negative
        ("DE-LU", "carbon_direct", 140.51),  # DE-LU_carbon.csv.gz
        ("DE-LU", "carbon_lifecycle", 185.8),
        ("DE-LU", "temperature_c", 11.2),  # DE-LU_weather.csv.gz
        ("DE-LU", "cloud_cover_pct", 99.0),
        ("DE-LU", "wind_speed_10m_km_h", 13.7),
    ],
)
def test_first_hour_equals_the_source_file(zone, series, first_hour):
    assert measured.measured_series(zone, series)[0] == pytest.approx(first_hour, rel=1e-6)


@pytest.mark.parametrize(
    ("zone", "carbon_mean", "price_mean"),
    [("DE-LU", 307.7, 102.57), ("US-TEX-ERCO", 316.7, 55.93), ("SG", 369.2, 184.9)],
)
def test_annual_means_equal_the_publishers(zone, carbon_mean, price_mean):
    # zones.csv gives the means to 0.1 gCO2/kWh and 0.01 USD/MWh
    assert measured.measured_series(zone, "carbon_direct").mean() == pytest.approx(carbon_mean, abs=0.05)
    assert measured.measured_series(zone, "price").mean() == pytest.approx(price_mean, abs=0.005)


def test_zone_table_carries_the_weather_point_and_operator():
    row = measured.zone_table()["US-CAL-CISO"]
    assert float(row["weather_lat"]) == pytest.approx(37.434093)
    assert row["carbon_source"] == "caiso.com"


def test_an_unknown_zone_names_the_covered_ones():
    with pytest.raises(KeyError, match="no measured price for zone 'GB'; covered: AT, AU-NSW"):
        measured.measured_series("GB", "price")


def test_no_hour_is_missing_in_the_shipped_year():
    for series in measured.SERIES_ZONES:
        for zone in measured.zones_with(series):
            assert not np.isnan(measured.measured_series(zone, series)).any(), (zone, series)


def _read_dates(start: str, days: int) -> list[str]:
    hours = pd.date_range(start, periods=24 * days, freq="1h")
    data = measured.data_hours()[measured.data_positions(hours)]
    return [str(stamp.date()) for stamp in data[::24]]


def test_the_data_year_maps_to_itself():
    hours = measured.data_hours()
    assert (measured.data_positions(hours) == np.arange(8760)).all()


def test_a_date_reads_the_nearest_same_weekday_of_2023():
    # 2025-07-01 is a Tuesday; Tuesdays of 2023 near 1 July: 27 June (4 days off), 4 July (3)
    assert _read_dates("2025-07-01T00:00:00+00:00", 2) == ["2023-07-04", "2023-07-05"]
    # 2020-01-01 is a Wednesday; 2023-01-04 is the Wednesday nearest 1 January 2023
    assert _read_dates("2020-01-01T00:00:00+00:00", 1) == ["2023-01-04"]


def test_hour_of_day_and_weekday_hold_in_utc_for_any_offset():
    hours = pd.date_range("2026-03-07T05:00:00-08:00", periods=24 * 10, freq="1h")
    data = measured.data_hours()[measured.data_positions(hours)]
    utc = hours.tz_convert("UTC")
    assert (data.hour == utc.hour).all()
    assert (data.dayofweek == utc.dayofweek).all()


def test_a_leap_day_reads_on_without_a_jump():
    # 2024-02-28 (Wed) -> 2023-03-01 (Wed): the 29th (Thu) reads 2 March, 1 March (Fri) the 3rd
    assert _read_dates("2024-02-28T00:00:00+00:00", 3) == ["2023-03-01", "2023-03-02", "2023-03-03"]


def test_a_horizon_across_the_year_end_steps_back_a_week_inside_2023():
    # 2025-12-28 (Sun) -> 2023-12-31 (Sun); 29 Dec 2025 (Mon) would read 1 Jan 2024, outside
    # the data, so it reads the Monday a week earlier, 25 Dec 2023; 1 Jan 2026 (Thu) reads
    # the Thursday nearest 1 Jan 2023, 5 Jan
    dates = _read_dates("2025-12-28T00:00:00+00:00", 5)
    assert dates == ["2023-12-31", "2023-12-25", "2023-12-26", "2023-12-27", "2023-01-05"]


def test_a_whole_leap_year_reads_8784_hours():
    hours = pd.date_range("2024-01-01T00:00:00+00:00", periods=8784, freq="1h")
    positions = measured.data_positions(hours)
    assert len(positions) == 8784
    assert positions.min() >= 0 and positions.max() <= 8759


def test_missing_hours_are_filled_on_a_straight_line_and_counted():
    values = np.array([np.nan, 10.0, np.nan, np.nan, 40.0, 20.0])
    filled, count = measured.fill_missing(values)
    # hours 2, 3 between 10 (h1) and 40 (h4): 20, 30; hour 0 between h5 (20, one hour
    # before the year wraps) and h1 (10): 15
    assert filled.tolist() == [15.0, 10.0, 20.0, 30.0, 40.0, 20.0]
    assert count == 3


def test_an_unmeasured_year_cannot_be_filled():
    with pytest.raises(ValueError, match="no hour"):
        measured.fill_missing(np.full(4, np.nan))


def test_aligned_series_reads_the_horizon_from_the_year():
    hours = pd.date_range("2025-07-01T00:00:00+00:00", periods=3, freq="1h")
    aligned = measured.aligned_series("DE-LU", "price", hours)
    year = measured.measured_series("DE-LU", "price")
    start = (pd.Timestamp("2023-07-04") - pd.Timestamp("2023-01-01")).days * 24
    assert aligned.values.tolist() == year[start : start + 3].tolist()
    assert aligned.filled_hours == 0
