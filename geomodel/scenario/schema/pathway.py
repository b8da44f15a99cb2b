"""Pathways: investment periods, what changes between them, lead times and retirements
(docs/planning.md, "Pathways").

A scenario with ``periods`` plans a schedule instead of one representative year: each
period is solved over the scenario's own representative time with that period's demand,
prices, carbon and hardware, and what is built in one period stays until it retires.
Cross-period rules (years in order, a lead time within the horizon, a system bought from
its first year, a retirement after installation) are checked by the scenario checks, so
every problem of a file is reported at once.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from geomodel.scenario.schema.fields import Name, Section
from geomodel.scenario.units import Quantity

Year = int


class Retirement(Section):
    """Installed capacity at a site that retires in a given year."""

    site: Name = Field(description="the site", examples=["ashburn"])
    asset: Name = Field(
        description="what retires: an installed hardware system, 'power_envelope' or an "
        "installed power source, by name",
        examples=["hgx_h100_8"],
    )
    year: Year = Field(
        ge=2000,
        le=2100,
        description="first year it is no longer there (the periods from this year lack it)",
        examples=[2028],
        json_schema_extra={"unit": "year"},
    )
    installed: Year | None = Field(
        default=None,
        ge=1990,
        le=2100,
        description="year it was installed (checked: before the retirement, not before a "
        "system's first year)",
        examples=[2023],
        json_schema_extra={"unit": "year"},
    )


class SystemYears(Section):
    """When a hardware system can be bought and how fast its price falls."""

    first_year: Year | None = Field(
        default=None,
        ge=2000,
        le=2100,
        description="first year it can be bought",
        examples=[2027],
        json_schema_extra={"unit": "year"},
    )
    price_decline: float | None = Field(
        default=None,
        ge=0,
        lt=1,
        description="share by which its price falls each year after the catalogue price's year",
        examples=[0.2],
        json_schema_extra={"unit": "1/year"},
    )


class Periods(Section):
    """Investment periods of a pathway and what changes between them."""

    years: list[Year] = Field(
        min_length=1,
        max_length=20,
        description="the periods, by first year, in increasing order",
        examples=[[2026, 2028, 2030]],
        json_schema_extra={"unit": "year"},
    )
    weights: list[float] | None = Field(
        default=None,
        description="years each period stands for (default: the gap to the next period; the "
        "last period the gap before it, 1 for a single period)",
        examples=[[2, 2, 2]],
        json_schema_extra={"unit": "year"},
    )
    foresight: Literal["perfect", "myopic"] = Field(
        default="perfect",
        description="perfect: one model over all periods; myopic: period by period, each "
        "seeing only its own period and keeping what earlier ones built",
        examples=["myopic"],
    )
    demand_growth: dict[Name, float | list[float]] = Field(
        default_factory=dict,
        description="per workload (training job or inference service): a yearly growth "
        "factor compounded from the first period, or one factor per period",
        examples=[{"chat": 2.0, "pretrain": [1, 3, 9]}],
    )
    energy_price_scale: list[float] | None = Field(
        default=None,
        description="factor on every energy price, one per period",
        examples=[[1.0, 1.05, 1.1]],
        json_schema_extra={"unit": "1"},
    )
    carbon_intensity_scale: list[float] | None = Field(
        default=None,
        description="factor on every grid's carbon intensity, one per period (decarbonising grids)",
        examples=[[1.0, 0.85, 0.7]],
        json_schema_extra={"unit": "1"},
    )
    carbon_price: list[Quantity("USD/tCO2", ge=0)] | None = Field(
        default=None,
        description="carbon price of each period (replaces objective.carbon_price)",
        examples=[["0 USD/tCO2", "50 USD/tCO2", "100 USD/tCO2"]],
        json_schema_extra={"unit": "USD/tCO2"},
    )
    lead_times: dict[Name, Quantity("year", ge=0, le=30)] = Field(
        default_factory=dict,
        description="years from decision to use per asset class (systems, facility, "
        "grid_connection, site, battery, fibre, solar, wind, firm, ...), overriding the "
        "catalogue's lead_times.csv",
        examples=[{"grid_connection": "4 years"}],
        json_schema_extra={"unit": "year"},
    )
    systems: dict[Name, SystemYears] = Field(
        default_factory=dict,
        description="first year and yearly price decline per hardware system, overriding "
        "the catalogue's",
        examples=[{"gb300_nvl72": {"first_year": 2026, "price_decline": 0.2}}],
    )
    retirements: list[Retirement] = Field(
        default_factory=list,
        description="installed capacity that retires within the pathway",
        examples=[[{"site": "ashburn", "asset": "hgx_h100_8", "year": 2028}]],
    )
    resale: float = Field(
        default=0.0,
        ge=0,
        lt=1,
        description="share of a system's price recovered by selling it at the end of its "
        "life (lowers its annuity)",
        examples=[0.1],
        json_schema_extra={"unit": "1"},
    )
