"""Build costs wrong in the ways an author gets them wrong: a price per kW typed into a
per-MW field, a cost for an entry nobody loads, a per-MW cost for a hardware system, and
a second price for what a built-in already prices."""

from geomodel import hookimpl
from geomodel.catalog import BuildCost

GEOMODEL_PLUGIN_API = "1"

COMMON = {
    "source": "fixture",
    "source_type": "estimate",
    "fixed_om_usd_per_unit_year": 0.0,
    "lifetime_years": 30.0,
    "cost_year": 2025,
    "usd_year": 2024,
}


@hookimpl
def register_build_costs():
    return [
        # 1,100 USD/kW typed as 1,100 USD/MW
        BuildCost(
            name="kw_as_mw", asset_class="geothermal", unit="MW", capex_usd_per_unit=1100.0, **COMMON
        ),
        BuildCost(
            name="nothing_here",
            asset_class="solar",
            unit="MW",
            applies_to=("solar_pv_floating",),
            capex_usd_per_unit=1.2e6,
            **COMMON,
        ),
        BuildCost(
            name="server_per_mw",
            asset_class="systems",
            unit="MW",
            applies_to=("hgx_h100_8",),
            capex_usd_per_unit=2.0e6,
            **COMMON,
        ),
        BuildCost(
            name="cheaper_solar",
            asset_class="solar",
            unit="MW",
            applies_to=("solar_pv",),
            capex_usd_per_unit=0.9e6,
            **COMMON,
        ),
    ]
