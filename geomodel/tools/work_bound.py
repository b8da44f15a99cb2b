"""The most work a job's chips can do: its fastest usable chips first, up to its max_chips.

The scenario's load-time check and the solver's precheck both quote this bound, so a
job too big for its window is told one limit wherever it is found.
"""

from __future__ import annotations

import numpy as np


def fastest_chips_rate(
    chips: np.ndarray, rate: np.ndarray, max_chips: float | np.ndarray
) -> float | np.ndarray:
    """Work per hour of at most ``max_chips`` of ``chips``, the fastest first.

    ``chips`` (..., site, system) are usable chips, ``rate`` (..., system) the work per
    chip-hour of each system (any unit; the result is in that unit per hour) and
    ``max_chips`` (...) the cap: a float for one job, else one bound per leading index, so
    that thousands of pooled jobs are bounded in one pass rather than one call each.
    """
    chips = np.asarray(chips, dtype=float)
    batch = chips.shape[:-2]
    rates = np.broadcast_to(np.asarray(rate, dtype=float)[..., None, :], chips.shape).reshape(*batch, -1)
    order = np.argsort(-rates, axis=-1, kind="stable")
    ranked = np.take_along_axis(chips.reshape(*batch, -1), order, axis=-1)
    cap = np.asarray(max_chips, dtype=float)[..., None]
    used = np.diff(np.minimum(np.cumsum(ranked, axis=-1), cap), axis=-1, prepend=0.0)
    bound = (used * np.take_along_axis(rates, order, axis=-1)).sum(axis=-1)
    return bound if batch else float(bound)
