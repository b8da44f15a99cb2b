"""Reliability: cluster MTBF, Young/Daly intervals, waste and goodput."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from geomodel.errors import UsageError
from geomodel.tools.reliability import (
    cluster_mtbf_hours,
    daly_interval_hours,
    expected_interruptions,
    exponential_model_goodput,
    goodput_factor,
    reliability_report,
    young_interval_hours,
)


def test_cluster_mtbf_divides_the_chip_mtbf_by_the_chip_count():
    assert cluster_mtbf_hours(50_000, 16_384) == pytest.approx(50_000 / 16_384)
    assert expected_interruptions(50_000, 16_384, 54 * 24) == pytest.approx(54 * 24 * 16_384 / 50_000)


@pytest.mark.parametrize(("c", "m"), [(0.5, 100.0), (1 / 60, 3.0), (0.1, 7.0), (2.0, 1.0)])
def test_young_interval_is_sqrt_2cm(c, m):
    assert young_interval_hours(c, m) == pytest.approx(math.sqrt(2 * c * m))


def test_young_interval_of_a_round_example():
    # C = 0.5 h, M = 100 h: sqrt(2 x 0.5 x 100) = 10 h.
    assert young_interval_hours(0.5, 100) == pytest.approx(10.0)


def test_young_and_daly_intervals_for_m_3h_c_1min():
    # Young (CACM 1974), tau = sqrt(2 C M): M = 3 h, C = 1 min -> tau ~ 19 min.
    m, c = 3.0, 1 / 60
    tau = young_interval_hours(c, m)
    assert tau * 60 == pytest.approx(19.0, abs=0.1)  # sqrt(2 x 1 x 180) = 18.97 min
    # Daly's (FGCS 2006) higher-order interval is a little shorter.
    daly = daly_interval_hours(c, m)
    ratio = c / (2 * m)
    assert daly == pytest.approx(math.sqrt(2 * c * m) * (1 + math.sqrt(ratio) / 3 + ratio / 9) - c)
    assert daly * 60 == pytest.approx(18.3, abs=0.1)


def test_goodput_for_m_3h_c_1min_by_hand():
    # M = 3 h, C = 1 min, R = 6 min, tau = Daly's 18.313 min = 0.305214 h:
    # R/M = 0.033333, exp = 1.033895; (tau + C)/M = 0.321881 / 3 = 0.107294,
    # exp - 1 = 0.113261; g = 0.305214 / (3 x 1.033895 x 0.113261) = 0.86881.
    # (The first-order 1 - C/tau - (tau/2 + R)/M = 0.8612 is no longer used.)
    tau = daly_interval_hours(1 / 60, 3.0)
    assert exponential_model_goodput(tau, 1 / 60, 0.1, 3.0) == pytest.approx(0.86881, abs=2e-5)


def test_daly_is_m_when_checkpoints_take_2m_or_more():
    assert daly_interval_hours(2.0, 1.0) == 1.0
    assert daly_interval_hours(5.0, 1.0) == 1.0
    assert daly_interval_hours(1.99, 1.0) < 2.0


def test_daly_tends_to_young_when_checkpoints_are_cheap():
    assert daly_interval_hours(1e-8, 10.0) / young_interval_hours(1e-8, 10.0) == pytest.approx(
        1, rel=1e-4
    )


@pytest.mark.parametrize(("c", "r", "m"), [(1 / 60, 0.1, 3.0), (0.2, 0.1, 2.0), (0.05, 0.0, 0.5)])
def test_daly_interval_maximises_the_exact_exponential_goodput(c, r, m):
    tau = daly_interval_hours(c, m)
    best = exponential_model_goodput(tau, c, r, m)
    for factor in (0.7, 0.9, 1.1, 1.4):
        assert exponential_model_goodput(tau * factor, c, r, m) <= best + 1e-6


def test_free_checkpoints_lose_only_the_restarts_and_failures_during_them():
    # C = 0: the best interval is 0 and g tends to exp(-R/M): R = 0.5 h, M = 2 h -> 0.7788.
    assert daly_interval_hours(0.0, 2.0) == 0.0
    assert exponential_model_goodput(0.0, 0.0, 0.5, 2.0) == pytest.approx(math.exp(-0.25))
    assert exponential_model_goodput(1e-6, 0.0, 0.5, 2.0) == pytest.approx(math.exp(-0.25), rel=1e-6)


def test_report_of_a_typical_job(hgx):
    # 50,000 h per chip over 16,384 chips: M = 3.05 h.
    report = reliability_report(hgx, 16_384, checkpoint_minutes=1, restart_minutes=6)
    m = 50_000 / 16_384
    assert report.cluster_mtbf_hours == pytest.approx(m)
    assert report.interruptions_per_day == pytest.approx(24 / m)
    assert report.young_interval_minutes == pytest.approx(60 * math.sqrt(2 * m / 60))
    tau = report.daly_interval_minutes / 60
    expected = tau / (m * math.exp(0.1 / m) * math.expm1((tau + 1 / 60) / m))
    assert report.goodput == pytest.approx(expected)
    assert report.waste_fraction == pytest.approx(1 - report.goodput)
    assert 0.86 < report.goodput < 0.88
    assert report.reason == ""
    assert goodput_factor(hgx, 16_384, 1, 6) == report.goodput


def test_goodput_is_zero_when_the_cluster_fails_faster_than_it_can_checkpoint_and_restart(make_system):
    fragile = make_system(mtbf_hours_per_chip=1_000)
    # 1,000 h / 100,000 chips = 0.6 min between failures < 1 + 5 min.
    report = reliability_report(fragile, 100_000, checkpoint_minutes=1, restart_minutes=5)
    assert report.cluster_mtbf_hours * 60 == pytest.approx(0.6)
    assert report.goodput == 0.0
    assert report.waste_fraction == 1.0
    assert "cannot make progress" in report.reason
    assert "0.6 min" in report.reason


def test_goodput_stays_positive_where_the_first_order_waste_exceeded_everything(make_system):
    # M = 10 min, C = 4, R = 5.5: C + R < M; the old first-order waste C/tau + (tau/2 + R)/M
    # read ~1.5 (goodput 0); the exact model still makes a little progress: C = 0.4 M < 2M,
    # Daly's tau = 6.48 min, g = 0.202.
    system = make_system(mtbf_hours_per_chip=10 / 60)
    report = reliability_report(system, 1, checkpoint_minutes=4, restart_minutes=5.5)
    tau, m = report.daly_interval_minutes / 60, 10 / 60
    assert report.goodput == pytest.approx(
        tau / (m * math.exp(5.5 / 60 / m) * math.expm1((tau + 4 / 60) / m))
    )
    assert report.goodput == pytest.approx(0.202, abs=0.001)
    assert report.reason == ""


def test_an_mtbf_override_replaces_the_catalogue_figure(hgx):
    low = reliability_report(hgx, 16_384, mtbf_hours_per_chip=25_000)
    assert low.mtbf_hours_per_chip == 25_000
    assert low.cluster_mtbf_hours == pytest.approx(25_000 / 16_384)
    assert low.goodput < reliability_report(hgx, 16_384).goodput


def test_free_checkpoints_and_restarts_give_full_goodput(hgx):
    assert goodput_factor(hgx, 1_000, checkpoint_minutes=0, restart_minutes=0) == 1.0


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"chips": 0}, "chips"),
        ({"chips": 2.5}, "chips"),
        ({"chips": 8, "checkpoint_minutes": -1}, "checkpoint_minutes"),
        ({"chips": 8, "checkpoint_minutes": math.nan}, "checkpoint_minutes"),
        ({"chips": 8, "restart_minutes": -0.5}, "restart_minutes"),
        ({"chips": 8, "restart_minutes": math.inf}, "restart_minutes"),
    ],
)
def test_bad_arguments_name_the_argument(hgx, kwargs, name):
    with pytest.raises(UsageError) as raised:
        reliability_report(hgx, **kwargs)
    assert raised.value.option == name


@given(
    mtbf=st.floats(min_value=1.0, max_value=1e6),
    chips=st.integers(min_value=1, max_value=1_000_000),
    c=st.floats(min_value=0.0, max_value=60.0),
    r=st.floats(min_value=0.0, max_value=120.0),
)
@example(mtbf=1.3125, chips=187, c=2.2e-308, r=0.0)  # rounded to 1 + 1 ulp once
def test_goodput_is_a_fraction_and_falls_with_more_chips(make_system, mtbf, chips, c, r):
    system = make_system(mtbf_hours_per_chip=mtbf)
    g = goodput_factor(system, chips, c, r)
    assert 0.0 <= g <= 1.0
    assert goodput_factor(system, chips * 2, c, r) <= g + 1e-12
