"""Quantities: bare numbers in the documented unit, or strings with units (pint)."""

from __future__ import annotations

import math

import pytest

from geomodel.scenario.units import to_unit


@pytest.mark.parametrize(
    ("value", "unit", "expected"),
    [
        ("250 MW", "MW", 250.0),
        ("0.25 GW", "MW", 250.0),
        ("250000 kW", "MW", 250.0),
        (250, "MW", 250.0),
        ("1.2e25 FLOP", "EFLOP", 1.2e7),
        ("12 YFLOP", "EFLOP", 1.2e7),
        ("1.8e11 token/min", "token/s", 3e9),
        ("0.1 USD/ktoken", "USD/Mtoken", 100.0),
        ("0.45 tCO2/MWh", "kgCO2/MWh", 450.0),
        ("1.4 TB", "GB", 1400.0),
        ("0.035 USD/kWh", "USD/MWh", 35.0),
        ("12 ms", "ms", 12.0),
        ("0.012 s", "ms", 12.0),
        ("2 h", "h", 2.0),
        ("120 min", "h", 2.0),
        ("60e6 token/s", "token/s", 60e6),
        ("140 GB", "GB", 140.0),
        ("100 USD/tCO2", "USD/tCO2", 100.0),
        ("450 gCO2/kWh", "kgCO2/MWh", 450.0),
        ("0.1 USD/kWh", "USD/MWh", 100.0),
        ("1 USD/ms/Mtoken", "USD/ms/Mtoken", 1.0),
        ("3", "MW", 3.0),
    ],
)
def test_quantities_convert_to_the_field_unit(value, unit, expected):
    assert to_unit(value, unit) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("value", "unit", "message"),
    [
        ("250 MWh", "MW", "expected a power in MW (e.g. '10 MW'), not an energy"),
        ("12 km", "ms", "expected a duration in ms (e.g. '10 ms'), not a length"),
        ("5 MW", "EFLOP", "expected an amount of compute in EFLOP (e.g. '10 EFLOP'), not a power"),
        ("ten MW", "MW", "cannot read this as a quantity in MW"),
        ("NaN MW", "MW", "must be a finite number"),
        ("inf", "MW", "must be a finite number"),
        (math.nan, "MW", "must be a finite number"),
        (-math.inf, "MW", "must be a finite number"),
        (True, "MW", "not true/false"),
        ([1], "MW", "expected a number or a quantity like '10 MW'"),
    ],
)
def test_bad_quantities_say_what_is_expected(value, unit, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        to_unit(value, unit)


def test_a_quantity_read_again_gives_the_same_answer_and_errors_again():
    """Parsing is memoised for variants that re-read a file: a second reading of the same
    text in another unit converts afresh, and a bad quantity is refused every time."""
    assert to_unit("2 h", "h") == 2.0
    assert to_unit("2 h", "min") == pytest.approx(120.0, rel=1e-12)
    for _ in range(2):
        with pytest.raises(ValueError, match="not an energy"):
            to_unit("250 MWh", "MW")
