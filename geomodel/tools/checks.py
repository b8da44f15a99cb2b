"""Argument checks shared by the tools; each failure is a one-line UsageError.

``name`` is what the user typed: a CLI option (``--chips``) or a function
argument (``chips``), so the message points at the right place either way.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

from geomodel.errors import UsageError


def finite(value: float, name: str) -> float:
    """``value`` as a float, refusing NaN, infinity and non-numbers."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise UsageError(name, f"expected a number, got {value!r}")
    if not math.isfinite(value):
        raise UsageError(name, f"must be a finite number, got {value}")
    return float(value)


def positive(value: float, name: str) -> float:
    """A finite number > 0."""
    value = finite(value, name)
    if value <= 0:
        raise UsageError(name, f"must be greater than 0, got {value:g}")
    return value


def non_negative(value: float, name: str) -> float:
    """A finite number >= 0."""
    value = finite(value, name)
    if value < 0:
        raise UsageError(name, f"must not be negative, got {value:g}")
    return value


def at_least(value: float, minimum: float, name: str) -> float:
    """A finite number >= ``minimum``."""
    value = finite(value, name)
    if value < minimum:
        raise UsageError(name, f"must be at least {minimum:g}, got {value:g}")
    return value


def positive_int(value: int, name: str) -> int:
    """A whole number > 0 (a count of chips, systems, ...)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise UsageError(name, f"expected a whole number, got {value!r}")
    value = int(value)
    if value <= 0:
        raise UsageError(name, f"must be greater than 0, got {value}")
    return value
