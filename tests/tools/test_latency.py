"""The user-to-site latency model: hand-computed round trips, the fit it ships, its error table."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from geomodel.errors import UsageError
from geomodel.tools import latency
from geomodel.tools.latency import fitted_route_factor, user_round_trip_ms

ROOT = Path(__file__).resolve().parents[2]
#: One-way propagation in standard single-mode fibre: group index 1.4677 / c.
SMF_US_PER_KM = 1e6 * 1.4677 / 299_792.458  # 4.8957


@pytest.fixture(scope="module")
def fit_script(bench_script):
    return bench_script("latency_fit")


@pytest.fixture(scope="module")
def fit_report(fit_script):
    return fit_script.report()


@pytest.mark.parametrize(
    ("km", "expected_ms"),
    [
        # 0 km: the overhead alone
        (0.0, 2.36),
        # 1000 km: factor 1.535 + 1.213 x 1000 / 2000 = 2.1415; 2 x 1000 x 2.1415 x 4.8957
        # / 1000 = 20.968; + 2.36 = 23.328
        (1000.0, 23.328),
        # 364.1 km (Frankfurt-Amsterdam): factor 1.535 + 1.213 x 1000 / 1364.1 = 2.4242;
        # 2 x 364.1 x 2.4242 x 4.8957 / 1000 = 8.642; + 2.36 = 11.00 (Azure P50 West Europe -
        # Germany West Central: 11 ms)
        (364.1, 11.00),
        # 9000 km: factor 1.535 + 1.213 x 1000 / 10000 = 1.6563; 2 x 9000 x 1.6563 x 4.8957
        # / 1000 = 145.96; + 2.36 = 148.32
        (9000.0, 148.32),
    ],
)
def test_round_trips_by_hand(km, expected_ms):
    assert user_round_trip_ms(km, SMF_US_PER_KM) == pytest.approx(expected_ms, abs=0.01)


def test_the_route_factor_falls_from_near_to_far():
    factors = fitted_route_factor(np.array([0.0, 1000.0, 1e7]))
    assert factors == pytest.approx([2.748, (2.748 + 1.535) / 2, 1.535], abs=1e-3)
    assert np.all(np.diff(fitted_route_factor(np.linspace(0, 20_000, 50))) < 0)


def test_a_scenarios_own_factor_and_overhead_replace_the_fitted_ones():
    # the rule geomodel used before: 1000 km x 1.5 x 4.8957 us/km x 2 + 2 ms = 16.687 ms
    assert user_round_trip_ms(1000.0, SMF_US_PER_KM, 1.5, 2.0) == pytest.approx(16.687, abs=1e-3)
    # only the overhead given: the fitted factor at 1000 km (2.1415) stays, 20.968 + 10 ms
    assert user_round_trip_ms(1000.0, SMF_US_PER_KM, overhead_ms=10.0) == pytest.approx(30.968, abs=1e-2)
    # only the factor given: 2 x 1000 x 1.3 x 4.8957 / 1000 = 12.729, + the fitted 2.36 ms
    assert user_round_trip_ms(1000.0, SMF_US_PER_KM, route_factor=1.3) == pytest.approx(15.089, abs=1e-2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"route_factor": 0.8}, "route_factor"),
        ({"overhead_ms": -1.0}, "overhead_ms"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, message):
    with pytest.raises(UsageError, match=message):
        user_round_trip_ms(100.0, SMF_US_PER_KM, **kwargs)


def test_the_shipped_constants_are_the_fit_rounded(fit_report):
    overhead, near, far = fit_report.params
    assert abs(latency.FITTED_OVERHEAD_MS - overhead) <= 0.005
    assert abs(latency.FITTED_ROUTE_FACTOR_NEAR - near) <= 0.0005
    assert abs(latency.FITTED_ROUTE_FACTOR_FAR - far) <= 0.0005


def test_the_fit_meets_the_target_on_fitted_and_held_back_pairs(fit_report):
    fitted, held = fit_report.rows[:2]
    for row in (fitted, held):
        assert row.overall_pct <= 12.0, row
        assert all(median <= 18.0 for median, count in row.bands if count), row


def test_the_documented_table_is_what_the_shipped_function_gives(fit_script, fit_report):
    """docs/fidelity.md's table rows against the shipped function on the data, recomputed
    here pair by pair through geomodel's own functions (geodesic_km, user_round_trip_ms)."""
    from geomodel.geo import Location, geodesic_km

    text = (ROOT / "docs" / "fidelity.md").read_text()
    block = re.search(r"<!-- latency-fit:.*?-->\n(.*?)<!-- latency-fit: end -->", text, re.DOTALL)
    assert block, "docs/fidelity.md lacks the latency-fit table"
    assert block.group(1).strip() == fit_script.markdown(fit_report)

    pairs = fit_script.round_trips()
    cloud = pairs[pairs.source.isin(fit_script.FITTED_SOURCES)].reset_index(drop=True)
    held = cloud[fit_script.held_out_mask(len(cloud))]
    places = fit_script.pd.read_csv(fit_script.DATA / "places.csv").set_index(["source", "place"])
    errors = []
    for row in held.itertuples():
        a, b = places.loc[(row.source, row.place_a)], places.loc[(row.source, row.place_b)]
        km = geodesic_km(Location(lat=a.lat, lon=a.lon), Location(lat=b.lat, lon=b.lon))
        errors.append(abs(user_round_trip_ms(km, SMF_US_PER_KM) / row.rtt_ms - 1.0))
    assert np.median(errors) * 100 == pytest.approx(fit_report.rows[1].overall_pct, abs=0.05)


@pytest.mark.parametrize(
    ("source", "a", "b", "measured_ms"),
    [
        # rows of docs/data/latency/round_trips.csv; the model is within its band's spread
        ("azure", "Germany West Central", "West Europe", 11.0),
        ("aws", "us-east-1", "us-east-2", 15.4),
        ("azure", "France Central", "UK South", 10.5),
        ("aws", "ap-southeast-1", "eu-west-1", 182.2),
    ],
)
def test_measured_rows_the_model_meets_within_fifteen_percent(fit_script, source, a, b, measured_ms):
    assert _model_and_measured(fit_script, source, a, b, measured_ms) == pytest.approx(
        measured_ms, rel=0.15
    )


def test_a_straight_transatlantic_cable_is_the_documented_weak_spot(fit_script):
    """Ashburn-London, 5,900 km: factor 1.535 + 1.213 x 1000 / 6900 = 1.711, 2.36 + 2 x 5900 x
    1.711 x 4.8957 / 1000 = 101 ms against 77.6 ms measured: the model is 20-35 % slow
    there, as docs/fidelity.md says."""
    model = _model_and_measured(fit_script, "aws", "eu-west-2", "us-east-1", 77.6)
    assert 1.20 < model / 77.6 < 1.35


def _model_and_measured(fit_script, source, a, b, measured_ms) -> float:
    """The model's round trip for a row of round_trips.csv, after checking the row's value."""
    pairs = fit_script.round_trips()
    row = pairs[(pairs.source == source) & (pairs.place_a == a) & (pairs.place_b == b)]
    assert row.rtt_ms.item() == pytest.approx(measured_ms, abs=0.05)
    return user_round_trip_ms(row.km.item(), SMF_US_PER_KM)
