"""Locations, coordinate checks and geodesic distance."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from geomodel.errors import UsageError
from geomodel.geo import Location, coordinate_problem, geodesic_km, parse_lat_lon


def test_quarter_meridian_matches_the_wgs84_figure():
    # Equator to pole along a meridian on WGS84 is 10,001.966 km (Bessel/Helmert series).
    assert geodesic_km(Location(lat=0, lon=0), Location(lat=90, lon=0)) == pytest.approx(
        10_001.966, abs=0.01
    )


def test_one_degree_of_longitude_on_the_equator():
    # Equatorial radius a = 6378.137 km: one degree of arc is a * pi / 180.
    expected = 6378.137 * math.pi / 180
    assert geodesic_km(Location(lat=0, lon=10), Location(lat=0, lon=11)) == pytest.approx(
        expected, rel=1e-9
    )


def test_distance_is_symmetric_and_zero_on_itself():
    a, b = Location(lat=52.37, lon=4.9), Location(lat=50.11, lon=8.68)
    assert geodesic_km(a, b) == pytest.approx(geodesic_km(b, a))
    assert geodesic_km(a, a) == 0


@pytest.mark.parametrize(
    ("lat", "lon", "fragment"),
    [
        (91, 0, "latitude 91"),
        (0, 181, "longitude 181"),
        (120.5, 40.0, "did you swap them? try 40.0,120.5"),
    ],
)
def test_coordinate_problems_are_explained(lat, lon, fragment):
    assert fragment in coordinate_problem(lat, lon)


def test_location_rejects_out_of_range_and_nan():
    with pytest.raises(ValidationError, match="latitude"):
        Location(lat=-100, lon=0)
    with pytest.raises(ValidationError, match="finite"):
        Location(lat=float("nan"), lon=0)


@pytest.mark.parametrize("text", ["1", "a,b", "1,2,3", "nan,3", "95,10"])
def test_parse_lat_lon_rejects_bad_text_naming_the_option(text):
    with pytest.raises(UsageError, match=r"^--from: "):
        parse_lat_lon(text, "--from")


def test_parse_lat_lon_accepts_spaces_and_negatives():
    assert parse_lat_lon(" -33.9, 151.2", "--to") == Location(lat=-33.9, lon=151.2)
