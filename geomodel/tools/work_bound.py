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
    rates = np.broadcast_to(np.asarray(rate, dtype=float)[None, :], chips.shape).ravel()
    order = np.argsort(-rates, kind="stable")
    taken = np.minimum(np.cumsum(np.asarray(chips, dtype=float).ravel()[order]), max_chips)
    used = np.diff(np.concatenate([[0.0], taken]))
    return float((used * rates[order]).sum())
