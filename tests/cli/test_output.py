"""Formatting of CLI tables and JSON."""

from __future__ import annotations

import json
import math

import pytest

from geomodel.cli.output import format_value, print_json


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "-"),
        (math.nan, "-"),
        (True, "yes"),
        (165_888, "165,888"),
        (1234.6, "1,235"),
        (12.345, "12.3"),
        (1.5, "1.50"),
        (0.25, "0.25"),
        (0.0001234, "1.23e-04"),
        (math.inf, "inf"),
    ],
)
def test_format_value(value, text):
    assert format_value(value) == text


def test_print_json_turns_non_finite_numbers_into_null(capsys):
    print_json({"a": math.inf, "b": [1.0, math.nan]})
    assert json.loads(capsys.readouterr().out) == {"a": None, "b": [1.0, None]}
