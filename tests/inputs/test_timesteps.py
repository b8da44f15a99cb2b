"""Hourly series to model steps: plain steps and tsam typical days."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from geomodel.inputs.timesteps import plain_steps, typical_days


def hours(days: int) -> pd.DatetimeIndex:
    return pd.date_range("2025-01-01", periods=24 * days, freq="h", tz="UTC")


def test_plain_steps_average_each_step_and_count_whole_steps_in_a_window():
    index = hours(1)
    price = np.arange(24, dtype=float)[None, :]  # one site, 0..23
    window = np.zeros((1, 24), dtype=bool)
    window[0, 3:9] = True  # hours 3..8
    steps = plain_steps({"price": price}, index, 3, window)
    # steps of 3 hours: means 1, 4, 7, ... ; the window holds steps [3,6) and [6,9) whole
    assert steps.series["price"][0].tolist() == [1, 4, 7, 10, 13, 16, 19, 22]
    assert steps.job_weight[0].tolist() == [0, 1, 1, 0, 0, 0, 0, 0]
    assert steps.dt_hours.tolist() == [3.0] * 8
    assert list(steps.start) == list(index[::3])


@pytest.fixture
def year_of_days():
    """60 days: a weekday/weekend demand pattern and a seasonal capacity factor."""
    index = hours(60)
    day = np.arange(len(index)) // 24
    hour = np.arange(len(index)) % 24
    demand = (100 + 50 * np.sin(2 * np.pi * hour / 24) + 30 * (day % 7 >= 5))[None, :]
    factor = np.clip(np.sin(np.pi * (hour - 6) / 12), 0, None) * (0.5 + 0.4 * np.cos(day / 9.0))
    return index, {"demand": demand, "cf": factor[None, None, :]}


def test_typical_days_keep_weighted_means_and_count_every_day(year_of_days):
    index, series = year_of_days
    window = np.ones((2, len(index)), dtype=bool)
    window[1, : 24 * 30] = False  # second job only in the last 30 days
    steps = typical_days(series, index, 6, window, bounded=frozenset({"cf"}))
    assert len(steps.start) == 6 * 24
    # each typical hour stands for as many days as its cluster holds: 60 days in all
    assert steps.weight.reshape(6, 24)[:, 0].sum() == 60
    assert steps.typical_day_of.shape == (60,)
    # the demand total over the horizon is kept (tsam rescales unbounded series)
    full_total = series["demand"].sum()
    assert (steps.series["demand"] * steps.weight).sum() == pytest.approx(full_total, rel=1e-6)
    # capacity factors stay inside [0, 1] and keep their mean over the horizon
    assert steps.series["cf"].min() >= 0 and steps.series["cf"].max() <= 1
    full_mean = series["cf"].mean()
    typical_mean = (steps.series["cf"] * steps.weight).sum() / steps.weight.sum()
    assert typical_mean == pytest.approx(full_mean, rel=1e-9)
    # job weights: the first job counts every day, the second only its 30 days
    assert steps.job_weight[0].reshape(6, 24)[:, 0].sum() == 60
    assert steps.job_weight[1].reshape(6, 24)[:, 0].sum() == 30


def test_as_many_typical_days_as_days_is_the_plain_series(year_of_days):
    index, series = year_of_days
    steps = typical_days(series, index, 60, np.ones((0, len(index)), dtype=bool))
    np.testing.assert_allclose(steps.series["demand"], series["demand"])
    assert steps.typical_day_of is None


def test_rescaling_a_bounded_series_fills_up_to_the_bound_and_keeps_the_mean():
    from geomodel.inputs.timesteps import rescale_bounded

    # two hours of weight 1 at 0.8 and 0.2, target mean 0.75: doubling would put the
    # first above 1, so it stops at 1 and the second takes the rest, 2 x 0.75 - 1 = 0.5
    values = rescale_bounded(np.array([0.8, 0.2]), np.array([1.0, 1.0]), 0.75)
    assert values.tolist() == pytest.approx([1.0, 0.5])
    # a target above what the bound allows ends with every hour at 1
    assert rescale_bounded(np.array([0.5, 0.5]), np.ones(2), 1.2).tolist() == [1.0, 1.0]


def test_segments_of_a_piecewise_constant_day_are_its_pieces():
    # Every day alike: price 10 at night (0-5 h and 18-23 h), 50 by day (6-17 h).
    # Three segments of adjacent hours with equal values are exactly 6, 12 and 6
    # hours long with the values 10, 50, 10; the one typical day counts 30 times.
    index = hours(30)
    hour = np.arange(len(index)) % 24
    price = np.where((hour >= 6) & (hour < 18), 50.0, 10.0)[None, :]
    window = np.zeros((1, len(index)), dtype=bool)
    window[0, 24 * 10 + 6 : 24 * 10 + 12] = True  # 6 daytime hours of day 10
    steps = typical_days({"price": price}, index, 1, window, n_segments=3)
    assert steps.dt_hours.tolist() == [6.0, 12.0, 6.0]
    assert steps.series["price"][0].tolist() == pytest.approx([10.0, 50.0, 10.0])
    assert steps.weight.tolist() == [30.0, 30.0, 30.0]
    assert list(steps.start) == [index[0], index[6], index[18]]
    # the job's 6 window hours all fall in the 12-hour daytime segment: weight 6 / 12
    assert steps.job_weight[0].tolist() == pytest.approx([0.0, 0.5, 0.0])
    # every hour maps to the segment that holds it
    assert steps.step_of_hour[:24].tolist() == [0] * 6 + [1] * 12 + [2] * 6
    assert steps.step_of_hour.shape == (len(index),)


def test_segments_keep_totals_and_window_hours(year_of_days):
    index, series = year_of_days
    window = np.ones((2, len(index)), dtype=bool)
    window[1, : 24 * 30 + 5] = False  # second job: the last 30 days less 5 hours
    steps = typical_days(series, index, 4, window, bounded=frozenset({"cf"}), n_segments=6)
    assert len(steps.start) == 4 * 6
    hours_per_step = steps.weight * steps.dt_hours
    # each typical day is cut into segments covering its 24 hours; 60 days in all
    assert steps.dt_hours.reshape(4, 6).sum(axis=1).tolist() == [24.0] * 4
    assert hours_per_step.sum() == pytest.approx(len(index))
    # totals over the horizon are kept: demand (rescaled by tsam) and the bounded factor
    assert (steps.series["demand"] * hours_per_step).sum() == pytest.approx(
        series["demand"].sum(), rel=1e-6
    )
    assert (steps.series["cf"] * hours_per_step).sum() == pytest.approx(series["cf"].sum(), rel=1e-9)
    assert steps.series["cf"].min() >= 0 and steps.series["cf"].max() <= 1
    # a job's hours in the model are its window hours: 1,440 and 720 - 5
    job_hours = steps.job_weight * steps.dt_hours
    assert job_hours.sum(axis=1).tolist() == pytest.approx([1440.0, 715.0])
    # the calendar mapping puts each hour in a step of its own day's typical day
    day_of_step = np.repeat(np.arange(4), 6)
    assert (day_of_step[steps.step_of_hour] == np.repeat(steps.typical_day_of, 24)).all()
    assert np.bincount(steps.step_of_hour, minlength=24) == pytest.approx(hours_per_step)


def test_segments_keep_the_days_duration_curve_not_segment_means():
    # A solar-like day. Whatever segments tsam chooses, the segment with the highest
    # mean must hold the mean of the day's highest hours (as many as it lasts), the
    # next the next block of the sorted hours, and so on: the peak is not averaged away.
    day = np.array([0, 0, 0, 0, 0, 0, 1, 3, 5, 8, 10, 9, 10, 8, 5, 3, 1, 0, 0, 0, 0, 0, 0, 0.0])
    index = hours(3)
    steps = typical_days(
        {"cf": np.tile(day, 3)[None, :]}, index, 1, np.zeros((0, 72), bool), n_segments=3
    )
    durations = steps.dt_hours.astype(int)
    assert durations.sum() == 24
    bounds = np.concatenate([[0], np.cumsum(durations)])
    segment_means = [day[a:b].mean() for a, b in itertools.pairwise(bounds)]
    descending = np.sort(day)[::-1]
    expected = np.empty(3)
    taken = 0
    for k in np.argsort(segment_means)[::-1]:
        expected[k] = descending[taken : taken + durations[k]].mean()
        taken += durations[k]
    assert steps.series["cf"][0] == pytest.approx(expected)
    # and the peak segment is higher than a plain mean of its hours would be, or equal
    peak = int(np.argmax(segment_means))
    assert steps.series["cf"][0][peak] >= segment_means[peak]


def test_duration_curve_gives_each_segment_its_block_of_the_sorted_hours():
    from geomodel.inputs.timesteps import duration_curve

    # segments of 9, 5 and 10 hours; their means are 1.0, 9.0 and 0.9, so the 5-hour
    # segment takes the 5 highest hours (10+10+9+8+8)/5 = 9, the 9-hour one the next 9
    # (5+5+3+3+1+1+0+0+0)/9 = 2, the 10-hour one the 10 lowest (all 0)
    day = np.array([[0, 0, 0, 0, 0, 0, 1, 3, 5, 8, 10, 9, 10, 8, 5, 3, 1, 0, 0, 0, 0, 0, 0, 0.0]])
    values = duration_curve(np.vstack([day, -day]), np.array([9, 5, 10]))
    assert values[0].tolist() == pytest.approx([2.0, 9.0, 0.0])
    # the mirrored column: the lowest-mean segment (5 h) takes the 5 lowest hours
    assert values[1].tolist() == pytest.approx([-2.0, -9.0, 0.0])


@pytest.mark.parametrize("n_segments", [None, 5])
def test_series_that_never_vary_need_no_clustering(n_segments):
    # A flat-priced, always-available site with no inference (nothing varies): tsam has
    # nothing to cluster, so 10 days become 3 runs of alike days (4, 3 and 3 days) and
    # 5 segments split each day as evenly as whole hours allow (4 + 5 + 5 + 5 + 5 h).
    index = hours(10)
    window = np.ones((1, 240), dtype=bool)
    window[0, :30] = False  # the job may start only at hour 30: 210 hours
    steps = typical_days({"price": np.full((1, 240), 42.0)}, index, 3, window, n_segments=n_segments)
    assert steps.typical_day_of.tolist() == [0, 0, 0, 0, 1, 1, 1, 2, 2, 2]
    per_day = [1] * 24 if n_segments is None else [4, 5, 5, 5, 5]
    assert steps.dt_hours.tolist() == per_day * 3
    assert (steps.weight * steps.dt_hours).sum() == 240
    assert (steps.series["price"] == 42.0).all()
    assert (steps.job_weight * steps.dt_hours).sum() == pytest.approx(210)
