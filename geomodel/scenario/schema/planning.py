"""Planning: what may be built at each site and between sites, at what cost, and the finance
that turns capex into a yearly payment (docs/planning.md).

A maximum is the most a site (or route) may hold after building, installed plus built, as
PyPSA's ``p_nom_max``; a cost left out comes from the cost catalogue (``geomodel plugins``
lists it), and ``cost`` names another catalogue entry of the same kind.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from geomodel.scenario.schema.fields import Count, Fraction, Name, Section
from geomodel.scenario.schema.routes import Route
from geomodel.scenario.units import Quantity

#: Asset classes the core prices; power sources add their own (the cost entry's class).
CORE_ASSET_CLASSES = (
    "systems",
    "facility",
    "grid_connection",
    "site",
    "battery",
    "fibre",
    "dci_equipment",
)

COST_ENTRY_HELP = "cost catalogue entry to price this option (default: the entry that applies to it)"


class SystemBuild(Section):
    """Systems of one hardware type that may be added at a site."""

    max: Count = Field(
        ge=0,
        description="most systems of this type the site may hold, installed plus built",
        examples=[1000],
        json_schema_extra={"unit": "systems"},
    )
    capex: Quantity("USD", ge=0) | None = Field(
        default=None,
        description="purchase price of one system (default: the hardware catalogue's)",
        examples=["3 MUSD"],
    )
    fixed_om: Quantity("USD/year", ge=0) | None = Field(
        default=None,
        description="fixed operation and maintenance of one system a year",
        examples=["30000 USD/year"],
    )
    cost: Name | None = Field(default=None, description=COST_ENTRY_HELP, examples=["ai_systems"])


class CapacityBuild(Section):
    """Power capacity that may be added (MW)."""

    max: Quantity("MW", ge=0) = Field(
        description="most capacity after building, installed plus built", examples=["300 MW"]
    )
    capex: Quantity("USD/MW", ge=0) | None = Field(
        default=None, description="overnight capital cost per MW", examples=["1100 USD/kW"]
    )
    fixed_om: Quantity("USD/MW/year", ge=0) | None = Field(
        default=None,
        description="fixed operation and maintenance per MW a year",
        examples=["20 USD/kW/year"],
    )
    cost: Name | None = Field(
        default=None, description=COST_ENTRY_HELP, examples=["datacentre_facility_ai"]
    )


class SourceBuild(CapacityBuild):
    """A power source that may be built at or for the site (solar, wind, firm)."""

    price: Quantity("USD/MWh", ge=-500) | None = Field(
        default=None,
        description="energy price of built capacity: fuel and variable O&M, not capex "
        "(default: the cost entry's variable cost, else the catalogue price); only for a "
        "source the site does not list in power_sources",
        examples=["0 USD/MWh"],
    )
    carbon: Quantity("kgCO2/MWh", ge=0) | None = Field(
        default=None,
        description="overrides the catalogue carbon intensity; only for a source the site "
        "does not list in power_sources",
        examples=["40 kgCO2/MWh"],
    )
    profile_csv: str | None = Field(
        default=None,
        description="CSV of hourly capacity factors (0..1) replacing the catalogue profile; "
        "only for a source the site does not list in power_sources",
        examples=["profiles/abilene.csv"],
    )
    profile_column: str | None = Field(
        default=None, description="column of profile_csv", examples=["solar_pv"]
    )

    @model_validator(mode="after")
    def _csv_with_column(self) -> SourceBuild:
        if (self.profile_csv is None) != (self.profile_column is None):
            raise ValueError("'profile_csv' and 'profile_column' go together")
        return self


class EnergyBuild(Section):
    """Storage energy that may be added (MWh)."""

    max: Quantity("MWh", ge=0) = Field(description="most energy capacity built", examples=["800 MWh"])
    capex: Quantity("USD/MWh", ge=0) | None = Field(
        default=None, description="overnight capital cost per MWh", examples=["300 USD/kWh"]
    )
    fixed_om: Quantity("USD/MWh/year", ge=0) | None = Field(
        default=None,
        description="fixed operation and maintenance per MWh a year",
        examples=["8 USD/kWh/year"],
    )
    cost: Name | None = Field(default=None, description=COST_ENTRY_HELP, examples=["battery_energy"])


class BatteryBuild(Section):
    """A battery that may be built at the site; power and energy are sized separately."""

    power: CapacityBuild = Field(
        description="charge and discharge power (MW, AC at the site)", examples=[{"max": "200 MW"}]
    )
    energy: EnergyBuild = Field(description="energy capacity (MWh)", examples=[{"max": "800 MWh"}])
    efficiency: Fraction = Field(
        default=0.88,
        description="round-trip efficiency, split evenly between charging and discharging",
        examples=[0.9],
    )
    cycle_cost: Quantity("USD/MWh", ge=0) = Field(
        default=0.0, description="variable cost per MWh discharged (wear)", examples=["2 USD/MWh"]
    )


class SiteBuild(Section):
    """What may be built at one site."""

    new_site: bool = Field(
        default=False,
        description="the site is a candidate that is opened only if something is built there, "
        "paying open_cost once (nothing may be installed)",
        examples=[True],
    )
    open_cost: Quantity("USD", ge=0) | None = Field(
        default=None,
        description="fixed cost of opening a new site: land, grid connection, permits "
        "(default: the catalogue's 'site' cost)",
        examples=["60 MUSD"],
    )
    power_envelope: CapacityBuild | None = Field(
        default=None,
        description="facility power that may be added: MW of facility power (IT x PUE + DCI), "
        "capex per facility MW (a catalogue cost per MW of IT is divided by the site's PUE)",
        examples=[{"max": "300 MW"}],
    )
    systems: dict[Name, SystemBuild] = Field(
        default_factory=dict,
        description="hardware systems that may be added, by catalogue name",
        examples=[{"gb200_nvl72": {"max": 1000}}],
    )
    power_sources: dict[Name, SourceBuild] = Field(
        default_factory=dict,
        description="power sources that may be built at or for the site, by catalogue name",
        examples=[{"solar_pv": {"max": "400 MW"}}],
    )
    battery: BatteryBuild | None = Field(
        default=None,
        description="a battery that may be built at the site",
        examples=[{"power": {"max": "200 MW"}, "energy": {"max": "800 MWh"}}],
    )

    @model_validator(mode="after")
    def _opening(self) -> SiteBuild:
        if not self.new_site and self.open_cost is not None:
            raise ValueError("'open_cost' applies to a new site: set 'new_site: true'")
        return self


class LinkCandidate(Route):
    """A DCI route on which fibre pairs may be lit."""

    max_pairs: Count = Field(
        ge=0,
        le=1000,
        description="most fibre pairs on the route after building, lit plus built",
        examples=[4],
        json_schema_extra={"unit": "pairs"},
    )
    capex_per_pair_km: Quantity("USD/km", ge=0) | None = Field(
        default=None,
        description="fibre cost per pair and route km (default: the catalogue's fibre for the "
        "technology, e.g. an IRU)",
        examples=["600 USD/km"],
    )
    capex_per_pair: Quantity("USD", ge=0) | None = Field(
        default=None,
        description="equipment cost per lit pair: transceivers at both ends, line terminals "
        "and in-line amplifiers (default: the catalogue's equipment for the technology)",
        examples=["450000 USD"],
    )
    fixed_om_per_pair: Quantity("USD/year", ge=0) | None = Field(
        default=None,
        description="fixed operation and maintenance per pair a year (default: the catalogue's)",
        examples=["8000 USD/year"],
    )


class Finance(Section):
    """How capex becomes a yearly payment: discount rate and lifetimes per asset class."""

    discount_rate: float = Field(
        default=0.05,
        ge=0,
        le=0.3,
        description="real discount rate (weighted cost of capital) of the annuity; the "
        "default is NREL ATB 2024's real WACC of onshore wind (docs/costs.md)",
        examples=[0.05],
        json_schema_extra={"unit": "1/year"},
    )
    lifetimes: dict[Name, Quantity("year", ge=1, le=150)] = Field(
        default_factory=dict,
        description="lifetime per asset class (systems, facility, site, battery, fibre, "
        "dci_equipment, or a cost entry's class such as solar or wind), overriding the "
        "cost catalogue's",
        examples=[{"systems": "5 years", "facility": "20 years"}],
    )
