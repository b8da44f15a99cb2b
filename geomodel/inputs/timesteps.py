"""From hourly series to model time steps: plain steps of the scenario's resolution,
or typical days clustered with tsam, optionally cut into segments (docs/scenarios.md, "Times").

Every time-varying input is handed over as an hourly array whose last axis is the
hour of the horizon; the reduction returns the same arrays on model steps, the
weight of each step (how many times it counts), and each training job's weight
per step (how many of the hours a step stands for lie in the job's window).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

HOURS_PER_DAY = 24


@dataclass
class TimeSteps:
    """Inputs on model steps, with the weights that map them back to the calendar."""

    series: dict[str, np.ndarray]
    start: pd.DatetimeIndex
    dt_hours: np.ndarray
    weight: np.ndarray
    job_weight: np.ndarray
    #: for typical days: the typical day (cluster) each calendar day belongs to
    typical_day_of: np.ndarray | None = None
    calendar_days: pd.DatetimeIndex | None = None
    #: for typical days: the step each hour of the horizon maps to
    step_of_hour: np.ndarray | None = None


def plain_steps(
    series: dict[str, np.ndarray], hours: pd.DatetimeIndex, per_step: int, job_window: np.ndarray
) -> TimeSteps:
    """Steps of ``per_step`` hours: series averaged over each step's hours.

    A job counts a step only when every hour of it lies in the job's window.
    """
    n_steps = len(hours) // per_step

    def mean(values: np.ndarray) -> np.ndarray:
        return values.reshape(*values.shape[:-1], n_steps, per_step).mean(axis=-1)

    inside = job_window.reshape(job_window.shape[0], n_steps, per_step).all(axis=-1)
    return TimeSteps(
        series={name: mean(values) for name, values in series.items()},
        start=hours[::per_step],
        dt_hours=np.full(n_steps, float(per_step)),
        weight=np.ones(n_steps),
        job_weight=inside.astype(float),
    )


def typical_days(
    series: dict[str, np.ndarray],
    hours: pd.DatetimeIndex,
    n_days: int,
    job_window: np.ndarray,
    bounded: frozenset[str] = frozenset(),
    n_segments: int | None = None,
) -> TimeSteps:
    """Cluster the horizon's days into ``n_days`` typical days (tsam, hierarchical, medoids).

    With ``n_segments``, each typical day is further cut into that many segments
    of adjacent hours with similar values (tsam's segmentation): a step then
    lasts as long as its segment (``dt_hours``); its values keep the typical
    day's duration curve (``duration_curve``).
    tsam rescales the series so their weighted means equal the full series'
    (energy, cost and carbon totals are kept); series named in ``bounded``
    (capacity factors) are rescaled here instead, so they also stay in [0, 1].
    """
    n_calendar_days = len(hours) // HOURS_PER_DAY
    if n_days >= n_calendar_days and n_segments in (None, HOURS_PER_DAY):
        return plain_steps(series, hours, 1, job_window)
    columns, frame = _columns(series, hours)
    varying = [c for c in frame.columns if frame[c].max() > frame[c].min()]
    excluded = [c for c in varying if columns[c][0] in bounded]
    n_typical = min(n_days, n_calendar_days)
    typical_day_of, counts, hourly = _cluster_days(frame[varying], n_typical, excluded)
    clusters = range(len(counts))
    if n_segments:
        durations = segment_durations(hourly, n_segments)
        stepped = np.concatenate(
            [duration_curve(hourly[:, k], d) for k, d in enumerate(durations)], axis=1
        )
    else:
        durations = [np.ones(HOURS_PER_DAY, dtype=int) for _ in clusters]
        stepped = hourly.reshape(len(varying), len(counts) * HOURS_PER_DAY)
    dt_hours = np.concatenate(durations).astype(float)
    weight = np.concatenate([np.full(len(d), n) for d, n in zip(durations, counts, strict=True)])
    # step_of[c, h]: the step that hour h of typical day c falls in
    first_step = np.cumsum([0] + [len(d) for d in durations[:-1]])
    step_of = np.stack(
        [first + np.repeat(np.arange(len(d)), d) for first, d in zip(first_step, durations, strict=True)]
    )
    n_steps = len(dt_hours)
    reduced: dict[str, np.ndarray] = {
        name: np.empty((*values.shape[:-1], n_steps)) for name, values in series.items()
    }
    row_of = {column: i for i, column in enumerate(varying)}
    for column, (name, position) in columns.items():
        constant = column not in row_of
        values = np.full(n_steps, frame[column].iloc[0]) if constant else stepped[row_of[column]]
        if name in bounded:
            values = rescale_bounded(values, weight * dt_hours, float(frame[column].mean()))
        reduced[name][position] = values
    first_day = [int(np.flatnonzero(typical_day_of == c)[0]) for c in clusters]
    segment_start = [np.flatnonzero(np.diff(row, prepend=-1)) for row in step_of]
    start = pd.DatetimeIndex(
        np.concatenate(
            [
                hours[d * HOURS_PER_DAY + offsets]
                for d, offsets in zip(first_day, segment_start, strict=True)
            ]
        )
    )
    # job weight: the member-day hours of each step inside the job's window, per hour of the step
    window_days = job_window[:, : n_calendar_days * HOURS_PER_DAY].reshape(
        job_window.shape[0], n_calendar_days, HOURS_PER_DAY
    )
    job_hours = np.zeros((job_window.shape[0], n_steps))
    for c in clusters:
        in_window = window_days[:, typical_day_of == c, :].sum(axis=1)  # (job, hour of day)
        np.add.at(job_hours.T, step_of[c], in_window.T)
    return TimeSteps(
        series=reduced,
        start=start,
        dt_hours=dt_hours,
        weight=weight,
        job_weight=job_hours / dt_hours,
        typical_day_of=typical_day_of,
        calendar_days=hours[::HOURS_PER_DAY][:n_calendar_days],
        step_of_hour=step_of[typical_day_of].ravel(),
    )


def _cluster_days(
    frame: pd.DataFrame, n_typical: int, rescale_excluded: list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """tsam's typical days of the hourly ``frame``: the typical day (0-based) of each
    calendar day, how many days each stands for, and their values (column, day, hour).

    A frame where nothing varies has no clusters to find: its days are split into
    ``n_typical`` runs of consecutive days, all alike.
    """
    n_calendar_days = len(frame) // HOURS_PER_DAY
    if frame.columns.empty:
        typical_day_of = np.arange(n_calendar_days) * n_typical // n_calendar_days
        counts = np.bincount(typical_day_of, minlength=n_typical).astype(float)
        return typical_day_of, counts, np.empty((0, n_typical, HOURS_PER_DAY))
    import tsam

    result = tsam.aggregate(
        frame,
        n_typical,
        period_duration=HOURS_PER_DAY,
        temporal_resolution=1.0,
        preserve_column_means=True,
        rescale_exclude_columns=rescale_excluded,
    )
    clusters = sorted(result.cluster_counts)
    typical_day_of = np.searchsorted(clusters, np.asarray(result.cluster_assignments, dtype=int))
    counts = np.array([result.cluster_counts[c] for c in clusters], dtype=float)
    representatives = result.cluster_representatives
    hourly = np.stack([representatives.loc[c].to_numpy().T for c in clusters], axis=1)
    return typical_day_of, counts, hourly


def segment_durations(hourly: np.ndarray, n_segments: int) -> list[np.ndarray]:
    """Hours in each of ``n_segments`` segments of every typical day (tsam's segmentation).

    ``hourly`` is (column, typical day, hour). tsam merges adjacent hours with
    similar values; it is asked for the boundaries only, on the typical days
    themselves (each its own cluster), since its own duration-curve values are
    computed in a slow per-column loop and ``duration_curve`` gives them at once.
    """
    n_columns, n_typical, _ = hourly.shape
    if n_columns == 0:  # nothing varies: segments of (nearly) equal length
        equal = np.diff(np.arange(n_segments + 1) * HOURS_PER_DAY // n_segments)
        return [equal for _ in range(n_typical)]
    import tsam

    frame = pd.DataFrame(
        hourly.transpose(1, 2, 0).reshape(n_typical * HOURS_PER_DAY, n_columns),
        index=pd.date_range("2001-01-01", periods=n_typical * HOURS_PER_DAY, freq="h"),
    )
    result = tsam.aggregate(
        frame,
        n_typical,
        period_duration=HOURS_PER_DAY,
        temporal_resolution=1.0,
        segments=tsam.SegmentConfig(n_segments=n_segments),
        preserve_column_means=False,
    )
    return [
        np.asarray(result.segment_durations[cluster], dtype=int)
        for cluster in np.asarray(result.cluster_assignments, dtype=int)
    ]


def duration_curve(day: np.ndarray, durations: np.ndarray) -> np.ndarray:
    """Segment values of one day that keep its duration curve: (column, hour) -> (column, segment).

    For each column, the segment with the k-th lowest mean takes the mean of the
    k-th block of the day's sorted hours (as many hours as it lasts). A plain
    segment mean flattens a solar peak into its neighbours and hides the
    curtailment of the full series (docs/performance.md); this keeps the peak
    and the day's mean. The values are what tsam's ``Distribution(scope="global")``
    gives for segments; the boundaries come from ``segment_durations``.
    """
    bounds = np.concatenate([[0], np.cumsum(durations)])
    means = np.add.reduceat(day, bounds[:-1], axis=1) / durations
    order = np.argsort(means, axis=1, kind="stable")
    ranked = durations[order]  # durations of the segments from lowest to highest mean
    cumulative = np.concatenate(
        [np.zeros((len(day), 1)), np.cumsum(np.sort(day, axis=1), axis=1)], axis=1
    )
    ends = np.cumsum(ranked, axis=1)
    block = (
        np.take_along_axis(cumulative, ends, axis=1)
        - np.take_along_axis(cumulative, ends - ranked, axis=1)
    ) / ranked
    values = np.empty_like(means)
    np.put_along_axis(values, order, block, axis=1)
    return values


def rescale_bounded(
    values: np.ndarray, weight: np.ndarray, target_mean: float, rounds: int = 20
) -> np.ndarray:
    """Values in [0, 1] whose weighted mean is ``target_mean`` (as far as the bound allows).

    Medoid days of a fraction such as a wind capacity factor are real days, but
    their weighted mean can sit far from the series' mean (a medoid wind day is a
    calm-ish day); scaling the unclipped values until the mean matches keeps the
    energy a source can give over the horizon (docs/performance.md).
    """
    scaled = np.clip(values, 0.0, 1.0)
    total = target_mean * weight.sum()
    for _ in range(rounds):
        free = scaled < 1.0
        room = total - weight[~free].sum()
        current = (weight[free] * scaled[free]).sum()
        if current <= 0 or abs(room - current) <= 1e-12 * max(total, 1.0):
            break
        scaled[free] = np.clip(scaled[free] * room / current, 0.0, 1.0)
    return scaled


def _columns(series: dict[str, np.ndarray], hours: pd.DatetimeIndex):
    """One DataFrame column per (series, position); column -> (series name, index)."""
    columns: dict[str, tuple[str, tuple]] = {}
    data = {}
    for name, values in series.items():
        for position in np.ndindex(values.shape[:-1]):
            column = f"{name}{list(position)}"
            columns[column] = (name, position)
            data[column] = values[position]
    frame = pd.DataFrame(data, index=hours.tz_convert("UTC").tz_localize(None))
    return columns, frame
