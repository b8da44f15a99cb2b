"""DCI: route km, latency, reach, optical power, internet round trips."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from geomodel.errors import UsageError
from geomodel.geo import Location, geodesic_km
from geomodel.tools.dci import (
    SMF_LATENCY_US_PER_KM,
    assess_route,
    internet_round_trip_ms,
    link_power_w,
    link_power_w_per_gbit_s,
    max_separation_km,
    one_way_ms,
    regenerators,
    round_trip_ms,
    route_km,
    technology_route,
)

C_KM_PER_S = 299_792.458


def test_standard_fibre_is_4_9_us_per_km_from_its_group_index():
    # c / 1.4677 = 204,260 km/s -> 1e6 / 204,260 = 4.8957 us/km one way.
    latency_us_per_km = SMF_LATENCY_US_PER_KM
    assert latency_us_per_km == pytest.approx(1e6 / (C_KM_PER_S / 1.4677), rel=1e-12)
    assert latency_us_per_km == pytest.approx(4.9, abs=0.005)


def test_route_km_and_latency(smf):
    assert route_km(200, 1.3) == pytest.approx(260)
    # 200 km x 1.3 (the technology's default factor) x 4.90 us/km = 1.274 ms one way.
    assert one_way_ms(200, smf) == pytest.approx(200 * 1.3 * 4.90 / 1000)
    assert round_trip_ms(200, smf) == pytest.approx(2 * 200 * 1.3 * 4.90 / 1000)
    assert round_trip_ms(200, smf, route_factor=1.0, overhead_ms=0.5) == pytest.approx(
        2 * 200 * 4.90 / 1000 + 0.5
    )


def test_a_bare_latency_figure_needs_a_route_factor():
    assert one_way_ms(100, 5.0, route_factor=1.5) == pytest.approx(0.75)
    with pytest.raises(ValueError, match="route_factor"):
        one_way_ms(100, 5.0)


def test_hollow_core_cuts_latency_by_about_a_third(smf, hcf):
    saving = 1 - one_way_ms(500, hcf) / one_way_ms(500, smf)
    assert saving == pytest.approx(1 - 3.40 / 4.90)  # 30.6 %


@pytest.mark.parametrize("overhead", [0.0, 0.4])
@pytest.mark.parametrize("budget", [0.5, 2.0, 10.0])
def test_max_separation_inverts_the_round_trip(smf, budget, overhead):
    distance = max_separation_km(budget, smf, overhead_ms=overhead)
    assert round_trip_ms(distance, smf, overhead_ms=overhead) == pytest.approx(budget)


def test_max_separation_by_hand(smf, hcf):
    # 10 ms round trip = 5 ms one way = 5,000 us / (4.90 us/km x 1.3) = 785 km of great circle.
    assert max_separation_km(10, smf) == pytest.approx(5_000 / (4.90 * 1.3))
    assert max_separation_km(10, hcf, route_factor=1.0) == pytest.approx(5_000 / 3.40)
    assert max_separation_km(1, smf, overhead_ms=2) == 0.0


def test_regeneration_and_power(smf):
    # Fully lit pair: 25,600 Gb/s x 0.1 W per Gb/s = 2,560 W of transceivers per set.
    # 100 km: one 80-km span boundary -> 1 amplifier site, within the 120-km reach.
    assert regenerators(100, smf) == 0
    assert smf.amplifier_spans(100) == 1
    assert link_power_w(100, smf) == pytest.approx(2_560 + 500)
    assert link_power_w_per_gbit_s(100, smf) == pytest.approx(3_060 / 25_600)
    # 300 km: 3 segments of <= 120 km (2 regenerators), 3 amplifier sites.
    assert regenerators(300, smf) == 2
    assert link_power_w(300, smf) == pytest.approx(3 * 2_560 + 3 * 500)
    assert regenerators(120, smf) == 0  # exactly at the reach
    assert link_power_w(0, smf, capacity_gbit_s=400) == pytest.approx(40)


def test_technology_route_row(smf):
    row = technology_route(100, smf, budget_ms=2.0)
    assert row.route_km == pytest.approx(130)
    assert row.within_reach is False  # 130 km > 120 km
    assert row.regenerators == 1
    assert row.amplifier_sites == 1
    assert row.round_trip_ms == pytest.approx(2 * 130 * 4.9 / 1000)
    assert row.max_separation_km == pytest.approx(1_000 / (4.9 * 1.3))
    assert technology_route(100, smf, route_factor=1.1).within_reach is True
    assert technology_route(100, smf).max_separation_km is None


def test_assess_route(smf, hcf):
    a, b = Location(lat=41.15, lon=114.70), Location(lat=39.90, lon=116.40)
    report = assess_route(a, b, [smf, hcf], budget_ms=5)
    assert report.geodesic_km == pytest.approx(geodesic_km(a, b))
    assert [t.technology for t in report.technologies] == ["test_smf", "test_hcf"]
    assert report.internet_round_trip_ms == pytest.approx(internet_round_trip_ms(report.geodesic_km))
    assert report.internet_round_trip_ms_high > report.internet_round_trip_ms
    assert report.as_dict()["technologies"][1]["technology"] == "test_hcf"


# Example routes of docs/data/dci/example_routes.csv (sources in its README): (a, (lat, lon),
# b, (lat, lon), great-circle km, one-way ms on SMF at 4.90 us/km, one-way ms on HCF at
# 3.40 us/km), both at route factor 1.3. The table used the haversine formula; we use
# the WGS84 geodesic.
ROUTES_CSV = Path(__file__).parents[2] / "docs" / "data" / "dci" / "example_routes.csv"
EXAMPLE_ROUTES = [
    (
        row["site_a"],
        (float(row["lat_a"]), float(row["lon_a"])),
        row["site_b"],
        (float(row["lat_b"]), float(row["lon_b"])),
        float(row["great_circle_km"]),
        float(row["one_way_ms_smf"]),
        float(row["one_way_ms_hcf"]),
    )
    for row in csv.DictReader(
        (Path(__file__).parents[2] / "docs" / "data" / "dci" / "example_routes.csv").open(
            encoding="utf-8"
        )
    )
]


@pytest.mark.parametrize(
    ("a", "a_at", "b", "b_at", "great_circle_km", "smf_ms", "hcf_ms"),
    EXAMPLE_ROUTES,
    ids=[f"{r[0]}-{r[2]}" for r in EXAMPLE_ROUTES],
)
def test_example_routes_are_reproduced_from_their_coordinates(
    smf, hcf, a, a_at, b, b_at, great_circle_km, smf_ms, hcf_ms
):
    distance = geodesic_km(Location(lat=a_at[0], lon=a_at[1]), Location(lat=b_at[0], lon=b_at[1]))
    # Haversine on a 6,371-km sphere and the WGS84 geodesic differ by < 0.5 %.
    assert distance == pytest.approx(great_circle_km, rel=0.01)
    assert one_way_ms(distance, smf, route_factor=1.3) == pytest.approx(smf_ms, rel=0.01)
    assert one_way_ms(distance, hcf, route_factor=1.3) == pytest.approx(hcf_ms, rel=0.01)


# Public internet round trips between well-connected hosts (server-to-server pings,
# no access network): see docs/tools.md for the sources and the wider comparison.
NEW_YORK = Location(lat=40.7128, lon=-74.0060)
LONDON = Location(lat=51.5074, lon=-0.1278)
PARIS = Location(lat=48.8566, lon=2.3522)
FRANKFURT = Location(lat=50.11, lon=8.68)
AMSTERDAM = Location(lat=52.37, lon=4.90)


@pytest.mark.parametrize(
    ("a", "b", "measured_ms", "tolerance"),
    [
        (NEW_YORK, LONDON, 72.0, 0.10),  # ~70-75 ms typical published pings
        (FRANKFURT, AMSTERDAM, 8.0, 0.25),  # ~7-9 ms
        (PARIS, NEW_YORK, 77.8, 0.10),  # WonderProxy 2011 table: 77.3 / 78.3 ms
    ],
    ids=["new_york-london", "frankfurt-amsterdam", "paris-new_york"],
)
def test_internet_round_trip_matches_public_pings(a, b, measured_ms, tolerance):
    predicted = internet_round_trip_ms(geodesic_km(a, b), access_ms=0.0)
    assert predicted == pytest.approx(measured_ms, rel=tolerance)


def test_internet_model_by_hand():
    # 1,000 km: 2 x 1,300 km x 4.8957 us/km = 12.73 ms + 3 ms backbone + 10 ms access.
    assert internet_round_trip_ms(1_000) == pytest.approx(2 * 1_300 * SMF_LATENCY_US_PER_KM / 1000 + 13)
    assert internet_round_trip_ms(0) == pytest.approx(13.0)
    assert internet_round_trip_ms(1_000, route_factor=2.1, backbone_ms=0, access_ms=0) == pytest.approx(
        2 * 2_100 * SMF_LATENCY_US_PER_KM / 1000
    )


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda t: route_km(-1, 1.3), "distance_km"),
        (lambda t: route_km(math.nan, 1.3), "distance_km"),
        (lambda t: one_way_ms(10, t, route_factor=0.9), "route_factor"),
        (lambda t: round_trip_ms(10, t, overhead_ms=-1), "overhead_ms"),
        (lambda t: max_separation_km(0, t), "budget_ms"),
        (lambda t: max_separation_km(math.inf, t), "budget_ms"),
        (lambda t: internet_round_trip_ms(10, access_ms=-1), "access_ms"),
    ],
)
def test_bad_arguments_name_the_argument(smf, call, name):
    with pytest.raises(UsageError) as raised:
        call(smf)
    assert raised.value.option == name
