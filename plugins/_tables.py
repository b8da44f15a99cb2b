"""The built-in plugins' data tables (``plugins/data/*.csv``) and look-ups on them.

Each table is read once, on first use inside a hook, and kept as a tuple of
rows (dicts of strings). Columns named ``src_<field>`` hold the source of one
figure and become an entry's ``figure_sources``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from functools import cache, lru_cache
from importlib.resources import files
from typing import Any

from geomodel.geo import Location, geodesic_km

Row = dict[str, str]

FIGURE_SOURCE_PREFIX = "src_"


@cache
def read_table(name: str) -> tuple[Row, ...]:
    """Rows of ``plugins/data/<name>.csv``, with surrounding blanks stripped."""
    text = files("geomodel_builtins").joinpath("data", f"{name}.csv").read_text(encoding="utf-8")
    rows = csv.DictReader(io.StringIO(text))
    return tuple({key: (value or "").strip() for key, value in row.items()} for row in rows)


def figure_sources(row: Row, fields: Iterable[str]) -> dict[str, str]:
    """``src_<field>`` cells of a row that name one of ``fields``, keyed by field."""
    known = set(fields)
    sources = {}
    for column, text in row.items():
        field = column.removeprefix(FIGURE_SOURCE_PREFIX)
        if column.startswith(FIGURE_SOURCE_PREFIX) and field in known and text:
            sources[field] = text
    return sources


def entry_fields(row: Row, fields: Iterable[str]) -> dict[str, Any]:
    """The cells of a row whose column is one of ``fields`` (text; pydantic converts)."""
    known = set(fields)
    return {column: text for column, text in row.items() if column in known and text != ""}


def table_row(name: str, key_column: str, key: str) -> Row:
    """The row of a table whose ``key_column`` equals ``key``."""
    for row in read_table(name):
        if row[key_column] == key:
            return row
    raise KeyError(f"{name}.csv has no row with {key_column} = {key!r}")


def row_location(row: Row) -> Location:
    return Location(lat=float(row["lat"]), lon=float(row["lon"]))


@lru_cache(maxsize=4096)
def nearest_grid_region(location: Location) -> Row:
    """The row of ``grid_regions.csv`` geodesically nearest to ``location``."""
    return min(read_table("grid_regions"), key=lambda row: geodesic_km(location, row_location(row)))


def generator_fields(name: str) -> dict[str, Any]:
    """PowerSource fields of a generator in ``generators.csv``.

    Carbon comes from ``emission_factors.csv`` (the row named in ``emission_tech``, and
    in the other basis the row named in ``emission_tech_direct``), price and capacity
    factor from the generator's own row, each with its source.
    """
    row = table_row("generators", "name", name)
    emission = table_row("emission_factors", "source_tech", row["emission_tech"])
    carbon_source = (
        f"{emission['source']}: {emission['source_tech']} median "
        f"{emission['gco2e_per_kwh_median']} g/kWh, {emission['basis']}"
    )
    if emission["range_or_note"]:
        carbon_source += f" ({emission['range_or_note']})"
    direct = table_row("emission_factors", "source_tech", row["emission_tech_direct"])
    direct_source = (
        f"{direct['source']}: {direct['source_tech']} {direct['gco2e_per_kwh_median']} g/kWh"
        f" ({direct['range_or_note']}) [{direct['source_type']}]"
    )
    return {
        "name": name,
        "kind": row["kind"],
        "source": emission["source"],
        "source_type": emission["source_type"],
        "price_usd_per_mwh": float(row["price_usd_per_mwh"]),
        "carbon_kg_per_mwh": float(emission["gco2e_per_kwh_median"]),
        "carbon_basis": "lifecycle" if "lifecycle" in emission["basis"] else "direct",
        "carbon_other_basis_kg_per_mwh": float(direct["gco2e_per_kwh_median"]),
        "capacity_factor": float(row["capacity_factor"]),
        "notes": row["notes"],
        "figure_sources": {
            **figure_sources(row, ("price_usd_per_mwh", "capacity_factor")),
            "carbon_kg_per_mwh": f"{carbon_source} [{emission['source_type']}]",
            "carbon_other_basis_kg_per_mwh": direct_source,
        },
    }
