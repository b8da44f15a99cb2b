"""A small modular reactor a site may build, priced as a firm plant.

Its kind is ``nuclear``; its build cost puts it in the asset class ``firm``, so the
class ``finance.lifetimes`` sets for it is ``firm``. The cost figures are those of the
built-in ``nuclear_smr`` row (NREL ATB 2024, Nuclear - Small, Moderate, 2030, 2024 USD:
10,344 USD/kW, 145.8 USD/kW a year, 40 years).
"""

from geomodel import PowerSource, hookimpl
from geomodel.catalog import BuildCost

GEOMODEL_PLUGIN_API = "1"
SOURCE = "outside_smr"
CAPEX_USD_PER_MW = 10_344_000.0
FIXED_OM_USD_PER_MW_YEAR = 145_800.0
LIFETIME_YEARS = 40.0


@hookimpl
def register_power_sources():
    return [
        PowerSource(
            name=SOURCE,
            kind="nuclear",
            price_usd_per_mwh=14.0,
            carbon_kg_per_mwh=12.0,
            capacity_factor=0.93,
            source="test fixture: an SMR; price is the ATB fuel and variable O&M of nuclear",
            source_type="estimate",
        )
    ]


@hookimpl
def register_build_costs():
    return [
        BuildCost(
            name="outside_smr_plant",
            asset_class="firm",
            applies_to=(SOURCE,),
            unit="MW",
            capex_usd_per_unit=CAPEX_USD_PER_MW,
            fixed_om_usd_per_unit_year=FIXED_OM_USD_PER_MW_YEAR,
            lifetime_years=LIFETIME_YEARS,
            cost_year=2030,
            usd_year=2024,
            region="US",
            source="NREL Annual Technology Baseline 2024, Nuclear - Small "
            "(as plugins/data/build_costs.csv)",
            source_type="agency",
        )
    ]
