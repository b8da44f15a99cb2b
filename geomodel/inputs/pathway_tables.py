"""Default lead times per asset class and hardware years per system, each figure with its
source in ``geomodel/inputs/data/lead_times.csv`` and ``hardware_years.csv``; a scenario's
``periods`` section overrides them (docs/planning.md, "Pathways"). A light module: the
scenario checks read it too."""

from __future__ import annotations

import csv
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geomodel.scenario.schema import Periods

LEAD_TIMES_TABLE = "lead_times.csv"
HARDWARE_YEARS_TABLE = "hardware_years.csv"


@cache
def _table(name: str) -> tuple[dict[str, str], ...]:
    text = files("geomodel.inputs").joinpath("data", name).read_text(encoding="utf-8")
    return tuple(csv.DictReader(text.splitlines()))


def default_lead_times() -> dict[str, float]:
    """Asset class -> lead time in years, from ``lead_times.csv`` (each with its source)."""
    return {row["asset_class"]: float(row["lead_time_years"]) for row in _table(LEAD_TIMES_TABLE)}


def lead_times(periods: Periods) -> dict[str, float]:
    """The catalogue's lead times with the scenario's overrides."""
    return {**default_lead_times(), **periods.lead_times}


def hardware_years(periods: Periods) -> dict[str, tuple[float, float, float]]:
    """System -> (first year, yearly price decline, year of the catalogue price), from
    ``hardware_years.csv`` with the scenario's overrides; a system the table lacks can
    be bought from any year at a constant price."""
    years = {
        row["system"]: (
            float(row["first_year"]),
            float(row["price_decline_per_year"]),
            float(row["price_year"]),
        )
        for row in _table(HARDWARE_YEARS_TABLE)
    }
    for name, given in periods.systems.items():
        first, decline, price_year = years.get(name, (float("-inf"), 0.0, 0.0))
        years[name] = (
            float(given.first_year) if given.first_year is not None else first,
            given.price_decline if given.price_decline is not None else decline,
            price_year,
        )
    return years
