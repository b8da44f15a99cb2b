"""Measured grid series of a region: the shipped year on any horizon, and what it rests on.

A grid region names the measured zone of its price and of its carbon (``price_zone``,
``carbon_zone`` in ``plugins/data/grid_regions.csv``); this module reads those series
through :mod:`geomodel_builtins.measured` (the weekday rule for any year, empty hours
filled) and words their basis for catalogues and results.

Carbon comes in two bases (docs/catalogues.md, "Carbon basis"). Measured zones have
both hour by hour. A shaped region knows one annual figure; the other is estimated by
a straight line fitted to the annual means of the measured zones,

    lifecycle = CARBON_FIT_INTERCEPT + CARBON_FIT_SLOPE x direct   (kgCO2e/MWh)

(least squares over the 16 zones of 2023: intercept 51.3, slope 1.031, RMS residual
19.6 kg/MWh, largest 56 for Singapore), read backwards for direct from lifecycle and
never below 0. Upstream fuel supply and plant construction add roughly a constant
50-60 kg/MWh on top of combustion across very different mixes, hence the form.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from geomodel_builtins import measured

CARBON_FIT_INTERCEPT = 51.3
CARBON_FIT_SLOPE = 1.031

#: Carbon basis -> the archive series that holds it.
CARBON_SERIES = {"direct": "carbon_direct", "lifecycle": "carbon_lifecycle"}


def other_basis_carbon(value: float, basis: str) -> float:
    """Annual mean carbon in the basis ``basis`` is not, by the fit (kgCO2e/MWh)."""
    if basis == "direct":
        return CARBON_FIT_INTERCEPT + CARBON_FIT_SLOPE * value
    return max(0.0, (value - CARBON_FIT_INTERCEPT) / CARBON_FIT_SLOPE)


def check_zone(zone: str, series: str) -> str:
    """``zone`` if the archive measures ``series`` there, else a ValueError listing the covered zones."""
    covered = measured.zones_with(series)
    if zone not in covered:
        raise ValueError(f"no measured {series} for zone {zone!r}; covered: {', '.join(covered)}")
    return zone


def price_series(zone: str, hours: pd.DatetimeIndex, positions: np.ndarray) -> np.ndarray:
    """Measured wholesale price (USD/MWh, negative hours kept) on ``hours``, whose
    :func:`measured.data_positions` are ``positions``."""
    return measured.aligned_series(zone, "price", hours, positions).values


def carbon_series(zone: str, hours: pd.DatetimeIndex, positions: np.ndarray) -> dict[str, np.ndarray]:
    """Measured carbon (kgCO2e/MWh) on ``hours`` in each basis: basis -> values."""
    return {
        basis: measured.aligned_series(zone, name, hours, positions).values
        for basis, name in CARBON_SERIES.items()
    }


def filled_hours(zone: str, series: str) -> int:
    """Hours of the measured year the source lacked and :func:`measured.fill_missing` filled."""
    return measured.filled_year(zone, series)[1]


@cache
def annual_mean(zone: str, series: str) -> float:
    """Mean of the measured year (after filling)."""
    return float(measured.filled_year(zone, series)[0].mean())


@cache
def estimated_hours(zone: str) -> int:
    """Hours whose carbon the publisher estimated rather than measured."""
    return int(np.nansum(measured.measured_series(zone, "carbon_estimated")))


def measured_label(zone: str, series: str) -> str:
    """``measured 2023, zone X, N hours filled``: the basis line every measured series states."""
    filled = filled_hours(zone, series)
    hours = "hour" if filled == 1 else "hours"
    return f"measured {measured.DATA_YEAR}, zone {zone}, {filled} {hours} filled"


def price_label(zone: str) -> str:
    return f"{measured_label(zone, 'price')}; wholesale, mean {annual_mean(zone, 'price'):.2f} USD/MWh"


def carbon_label(zone: str) -> str:
    estimated = estimated_hours(zone)
    means = ", ".join(f"{basis} {annual_mean(zone, name):.1f}" for basis, name in CARBON_SERIES.items())
    note = f"; {estimated} hours estimated by the publisher" if estimated else ""
    label = measured_label(zone, "carbon_lifecycle")
    return f"{label}; consumed (flow-traced), means {means} kgCO2e/MWh{note}"
