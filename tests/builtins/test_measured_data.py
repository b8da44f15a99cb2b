"""The measured year shipped with the built-in plugins (plugins/measured.py).

Expected values are read off the published source files in shared/facts/hourly/2023
(first rows of the CSVs) and its zones.csv (annual means computed by the publisher),
not from the archive.
"""

from __future__ import annotations

import numpy as np
import pytest

from geomodel_builtins import measured


def test_the_year_has_every_hour_of_2023_in_utc():
    hours = measured.data_hours()
    assert len(hours) == 8760  # 365 days x 24, 2023 is not a leap year
    assert str(hours[0]) == "2023-01-01 00:00:00+00:00"
    assert str(hours[-1]) == "2023-12-31 23:00:00+00:00"


def test_coverage_matches_the_published_readme():
    # README: carbon for 16 zones, prices for 21 (no GB, no IN-WE), weather for the 16 carbon zones
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
