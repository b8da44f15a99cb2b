"""docs/fidelity.md's weather table: two of its rows recomputed by bench/weather_fidelity.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def script(bench_script):
    return bench_script("weather_fidelity")


def _documented_rows() -> dict[str, str]:
    text = (ROOT / "docs" / "fidelity.md").read_text()
    block = re.search(
        r"<!-- weather-fidelity:.*?-->\n(.*?)<!-- weather-fidelity: end -->", text, re.DOTALL
    )
    assert block, "docs/fidelity.md lacks the weather table"
    return {line.split(" | ")[0].strip("| "): line for line in block.group(1).strip().splitlines()[2:]}


@pytest.mark.parametrize("zone", ["DE-LU", "SG"])
def test_a_documented_row_is_what_the_script_computes(script, zone):
    row = script.zone_row(zone)
    assert _documented_rows()[zone] == "| " + " | ".join(row.cells()) + " |"


def test_the_table_has_every_weather_point():
    from geomodel_builtins.weather import weather_points

    assert sorted(_documented_rows()) == sorted(weather_points())
