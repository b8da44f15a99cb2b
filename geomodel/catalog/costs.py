"""Build costs: what one unit of a buildable asset costs to buy and keep, and for how long.

Planning mode (docs/planning.md) prices each build option with the cost entry that
applies to it: ``applies_to`` lists the catalogue entries it prices (hardware systems,
power sources, link technologies) or one of the generic assets of :data:`GENERIC_ASSETS`.
Figures are in one currency year (``usd_year``) and carry their sources like every
catalogue figure.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from geomodel.catalog.entries import CatalogEntry, EntryName

#: Assets the core builds that are not catalogue entries, by the name ``applies_to`` uses.
GENERIC_ASSETS: dict[str, str] = {
    "facility": "data-centre construction per MW (power envelope)",
    "grid_connection": "a grid-connected site's substation and interconnection per MW",
    "site": "the fixed cost of opening a new site",
    "battery_power": "a battery's power part per MW",
    "battery_energy": "a battery's energy part per MWh",
}

#: Unit of one priced item -> what it is. ``MW_IT`` is a MW of IT load (a facility MW
#: costs it divided by the site's PUE); ``pair_km`` a fibre pair over a route km;
#: ``pair_span`` the in-line amplifiers of one pair on one span; ``module`` one
#: transceiver (two per wavelength, one at each end; ``gbit_s_per_unit`` says its rate);
#: ``km`` a new route km whatever its pairs.
CostUnit = Literal[
    "system", "site", "MW", "MW_IT", "MWh", "km", "pair_km", "pair", "pair_span", "module"
]


class BuildCost(CatalogEntry):
    """Capex, fixed O&M and lifetime of one unit of a buildable asset."""

    asset_class: EntryName = Field(
        description="finance class whose lifetime applies (systems, facility, site, solar, "
        "wind, battery, firm, fibre, dci_equipment, ...)"
    )
    applies_to: tuple[EntryName, ...] = Field(
        default=(),
        description="catalogue entries (or generic assets) this entry prices by default",
    )
    description: str = ""
    unit: CostUnit = Field(description="what one unit is")
    capex_usd_per_unit: float | None = Field(
        default=None,
        ge=0,
        le=1e10,
        description="overnight capital cost; none for systems priced by the hardware catalogue",
    )
    capex_low_usd_per_unit: float | None = Field(
        default=None,
        ge=0,
        le=1e10,
        description="low end of the published capex range, where sources disagree",
    )
    capex_high_usd_per_unit: float | None = Field(
        default=None,
        ge=0,
        le=1e10,
        description="high end of the published capex range, where sources disagree",
    )
    fixed_om_usd_per_unit_year: float = Field(ge=0, le=1e9, description="fixed O&M a year")
    variable_cost_usd_per_mwh: float | None = Field(
        default=None,
        ge=-500,
        le=5000,
        description="energy price of a built generator's output: fuel and variable O&M "
        "(none: the power source's catalogue price)",
    )
    lifetime_years: float = Field(gt=0, le=150, description="economic lifetime")
    gbit_s_per_unit: float | None = Field(
        default=None, gt=0, le=1_000_000, description="line rate of one transceiver (unit module)"
    )
    cost_year: int = Field(ge=1990, le=2100, description="year the cost applies to")
    usd_year: int = Field(ge=1990, le=2100, description="dollar basis: costs are in USD of this year")
    region: str = Field(default="", max_length=64, description="where the figure applies")

    @model_validator(mode="after")
    def _range_holds_the_capex(self) -> BuildCost:
        low, high, capex = (
            self.capex_low_usd_per_unit,
            self.capex_high_usd_per_unit,
            self.capex_usd_per_unit,
        )
        if (low is None) != (high is None):
            raise ValueError("capex_low_usd_per_unit and capex_high_usd_per_unit go together")
        if low is not None and not (low <= (capex if capex is not None else low) <= high):
            raise ValueError(f"capex {capex} lies outside its range {low}-{high}")
        return self

    @model_validator(mode="after")
    def _module_rate(self) -> BuildCost:
        if (self.unit == "module") != (self.gbit_s_per_unit is not None):
            raise ValueError("gbit_s_per_unit is given exactly for entries of unit 'module'")
        return self
