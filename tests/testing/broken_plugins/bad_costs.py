"""Build costs wrong in the ways an author gets them wrong: a price per kW typed into a
per-MW field, a cost for an entry nobody loads, a per-MW cost for a hardware system, and
a second price for what a built-in already prices."""

from geomodel import hookimpl
from geomodel.catalog import BuildCost

GEOMODEL_PLUGIN_API = "1"


def cost(name: str, asset_class: str, capex: float, applies_to: tuple[str, ...] = ()) -> BuildCost:
    """A per-MW cost with everything else right."""
    return BuildCost(
        name=name,
        asset_class=asset_class,
        applies_to=applies_to,
        unit="MW",
        capex_usd_per_unit=capex,
        fixed_om_usd_per_unit_year=0.0,
        lifetime_years=30.0,
        cost_year=2025,
        usd_year=2024,
        source="fixture",
        source_type="estimate",
    )


@hookimpl
def register_build_costs():
    return [
        cost("kw_as_mw", "geothermal", 1100.0),  # 1,100 USD/kW typed as 1,100 USD/MW
        cost("nothing_here", "solar", 1.2e6, ("solar_pv_floating",)),
        cost("server_per_mw", "systems", 2.0e6, ("hgx_h100_8",)),
        cost("cheaper_solar", "solar", 0.9e6, ("solar_pv",)),
    ]
