"""Built-in build costs, from ``plugins/data/build_costs.csv`` (docs/costs.md).

The table gives capex (with its published range where sources disagree by more than
30 %: ``capex_low`` and ``capex_high``) and fixed O&M in the unit its source quotes (USD/kW, USD/kWh,
USD/MW_IT, USD/pair-km, ...); each row becomes a :class:`BuildCost` in the catalogue's
units (per MW, per MWh, per pair-km, ...), with ``src_<field>`` cells as figure sources.
"""

from __future__ import annotations

from geomodel.catalog.costs import BuildCost
from geomodel.hookspecs import hookimpl

from ._tables import Row, read_table

GEOMODEL_PLUGIN_API = "1"

#: unit of the table -> (catalogue unit, factor to per catalogue unit)
UNITS: dict[str, tuple[str, float]] = {
    "USD/system": ("system", 1.0),
    "USD/site": ("site", 1.0),
    "USD/kW": ("MW", 1000.0),
    "USD/MW": ("MW", 1.0),
    "USD/MW_IT": ("MW_IT", 1.0),
    "USD/kWh": ("MWh", 1000.0),
    "USD/MWh": ("MWh", 1.0),
    "USD/km": ("km", 1.0),
    "USD/pair-km": ("pair_km", 1.0),
    "USD/pair": ("pair", 1.0),
    "USD/pair-span": ("pair_span", 1.0),
    "USD/module": ("module", 1.0),
}
#: ``src_<column>`` of the table -> the entry field it sources
SOURCE_COLUMNS = {
    "src_capex": "capex_usd_per_unit",
    "src_fixed_om": "fixed_om_usd_per_unit_year",
    "src_lifetime_years": "lifetime_years",
    "src_variable_cost_usd_per_mwh": "variable_cost_usd_per_mwh",
    "src_capex_range": "capex_low_usd_per_unit",
}


def cost_from_row(row: Row) -> BuildCost:
    """One catalogue entry from one row; capex and fixed O&M in the catalogue's unit."""
    unit, factor = UNITS[row["capex_unit"]]
    if row["fixed_om_unit"] != f"{row['capex_unit']}-yr":
        raise ValueError(
            f"build_costs.csv row {row['name']!r}: fixed_om_unit {row['fixed_om_unit']!r} "
            f"is not {row['capex_unit']}-yr"
        )
    optional = {
        field: float(row[column])
        for column, field in (
            ("capex", "capex_usd_per_unit"),
            ("capex_low", "capex_low_usd_per_unit"),
            ("capex_high", "capex_high_usd_per_unit"),
            ("variable_cost_usd_per_mwh", "variable_cost_usd_per_mwh"),
            ("gbit_s_per_unit", "gbit_s_per_unit"),
        )
        if row.get(column)
    }
    for field in ("capex_usd_per_unit", "capex_low_usd_per_unit", "capex_high_usd_per_unit"):
        if field in optional:
            optional[field] *= factor
    return BuildCost(
        name=row["name"],
        asset_class=row["asset_class"],
        applies_to=tuple(row["applies_to"].split()),
        description=row["description"],
        unit=unit,
        fixed_om_usd_per_unit_year=float(row["fixed_om"]) * factor,
        lifetime_years=float(row["lifetime_years"]),
        cost_year=int(row["cost_year"]),
        usd_year=int(row["usd_year"]),
        region=row["region"],
        source=row["source"],
        source_type=row["source_type"],
        notes=row["notes"],
        figure_sources={
            field: row[column] for column, field in SOURCE_COLUMNS.items() if row.get(column)
        },
        **optional,
    )


@hookimpl
def register_build_costs() -> list[BuildCost]:
    """Capex, fixed O&M and lifetime of every asset class planning mode builds."""
    return [cost_from_row(row) for row in read_table("build_costs")]
