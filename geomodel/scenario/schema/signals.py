"""Grid signals: which hourly series the grid regions give, how carbon is counted, what sites pay.

A built-in grid region gives measured hourly price and carbon where the shipped year
covers its zone and shaped ones elsewhere (docs/catalogues.md). The price it gives is
wholesale where known; what a site pays is ``multiplier x price + adder``, with the
region's default adder unless the scenario sets one (here per region, or per site in
``sites.<site>.grid_price``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from geomodel.scenario.schema.fields import Name, Section
from geomodel.scenario.units import Quantity

#: The default carbon basis and why: docs/catalogues.md, "Carbon basis".
DEFAULT_CARBON_BASIS = "lifecycle"


class PriceTerms(Section):
    """How a grid price becomes what a site pays: multiplier x hourly price + adder."""

    adder: Quantity("USD/MWh", ge=-1000, le=5000) | None = Field(
        default=None,
        description=(
            "added to every hour's price: network charges, levies, taxes (default: the "
            "region's default adder, see docs/catalogues.md)"
        ),
        examples=["25 USD/MWh"],
    )
    multiplier: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="multiplies every hour's price before the adder (default 1)",
        examples=[1.1],
        json_schema_extra={"unit": "1"},
    )


class Signals(Section):
    """Where the hourly grid price and carbon come from and how they are counted."""

    grid_series: Literal["measured", "shaped"] = Field(
        default="measured",
        description=(
            "measured: built-in regions use the measured 2023 hourly series where their zone "
            "is covered (read by the weekday rule); shaped: annual means times daily and "
            "seasonal cosines everywhere, as before measured data (for comparisons)"
        ),
        examples=["shaped"],
    )
    carbon_basis: Literal["lifecycle", "direct"] = Field(
        default=DEFAULT_CARBON_BASIS,
        description=(
            "lifecycle: CO2e of the whole chain (fuel supply, construction) as Ember, "
            "Electricity Maps and the generator catalogue count it; direct: combustion CO2 "
            "only (GHG Protocol scope 2 location-based). Applies to grid and generators"
        ),
        examples=["direct"],
    )
    grid_prices: dict[Name, PriceTerms] = Field(
        default_factory=dict,
        description="adder and multiplier per grid region (catalogue name), for every site on it",
        examples=[{"grid_de": {"adder": "40 USD/MWh"}}],
    )
