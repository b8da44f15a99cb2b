"""The most work a job's chips can do: its fastest usable chips first, up to its max_chips.

The scenario's load-time check and the solver's precheck both quote this bound, so a
job too big for its window is told one limit wherever it is found.
"""

from __future__ import annotations

import numpy as np


def fastest_chips_rate(chips: np.ndarray, rate: np.ndarray, max_chips: float) -> float:
    """Work per hour of at most ``max_chips`` of ``chips``, the fastest first.

    ``chips`` (site, system) are usable chips, ``rate`` (system) the work per chip-hour
    of each system (any unit; the result is in that unit per hour).
    """
    chips = np.asarray(chips, dtype=float)
    rates = np.broadcast_to(np.asarray(rate, dtype=float)[None, :], chips.shape)
    return float(
        fastest_chips_rates(chips.reshape(1, 1, -1), rates.reshape(1, 1, -1), np.array([max_chips]))[
            0, 0
        ]
    )


def fastest_chips_rates(chips: np.ndarray, rates: np.ndarray, max_chips: np.ndarray) -> np.ndarray:
    """(job, group) work per hour of at most ``max_chips`` (job) chips of each group, the
    fastest first: ``chips`` and ``rates`` are (job, group, option).

    One array pass for every job at once: the load-time check of a scenario with
    thousands of table jobs and its variants called the one-job form half a million times.
    """
    chips = np.asarray(chips, dtype=float)
    rates = np.asarray(rates, dtype=float)
    order = np.argsort(-rates, axis=-1, kind="stable")
    fastest = np.take_along_axis(rates, order, axis=-1)
    taken = np.minimum(
        np.cumsum(np.take_along_axis(chips, order, axis=-1), axis=-1),
        np.asarray(max_chips, dtype=float)[:, None, None],
    )
    used = np.diff(taken, axis=-1, prepend=0.0)
    return (used * fastest).sum(axis=-1)
