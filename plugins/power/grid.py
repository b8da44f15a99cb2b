"""Built-in grid regions, one power source of kind ``grid`` per row of
``plugins/data/grid_regions.csv``, named ``grid_<region_id>``.

Price is what a large data-centre consumer pays: the industrial retail price where
the table has one, else the wholesale price; the basis is kept in the notes and
the price's figure source. Carbon is the table's figure with its basis
(``lifecycle`` or ``direct``).

The hourly profile multiplies the annual means by a daily and a seasonal factor,

    price(t)  = P * (1 + d_p(t)) * (1 + s_p(t))
    carbon(t) = C * (1 + d_c(t)) * (1 + s_c(t))

where d and s are sums of cosines in local solar time and in the time of year
(:mod:`geomodel_builtins.power._profiles`). Each averages to zero over a full
year and so does their product, so the annual means are exactly P and C.
Amplitudes grow with the region's solar and wind shares of generation:

    d_c = -CARBON_SOLAR_DAILY * solar * noon
    s_c = (-CARBON_SOLAR_SEASONAL * solar + CARBON_WIND_SEASONAL * wind) * season
    d_p = PRICE_EVENING_PEAK * (evening + 0.5 * evening2) - PRICE_SOLAR_DAILY * solar * noon
    s_p = (-PRICE_WINTER_PREMIUM - PRICE_SOLAR_SEASONAL * solar
           + PRICE_WIND_SEASONAL * wind) * season

with, in local solar time h, noon = cos(2 pi (h - 12) / 24), evening =
cos(2 pi (h - 19) / 24), evening2 = cos(4 pi (h - 19) / 24), and season = +1 at
midsummer and -1 at midwinter. Carbon stays >= 0 for shares in [0, 1].
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from pydantic import Field

from geomodel.catalog.entries import PowerSource
from geomodel.geo import Location
from geomodel.hookspecs import hookimpl

from .._tables import Row, read_table, row_location
from ._profiles import clock, daily_cosine, season_cosine

GEOMODEL_PLUGIN_API = "1"

#: Midday carbon dip per unit solar share (relative amplitude).
CARBON_SOLAR_DAILY = 1.0
#: Summer carbon dip per unit solar share.
CARBON_SOLAR_SEASONAL = 0.5
#: Winter carbon dip per unit wind share (windier winters).
CARBON_WIND_SEASONAL = 0.5
#: Evening (load-driven) price peak, before the second harmonic.
PRICE_EVENING_PEAK = 0.12
#: Midday price dip per unit solar share.
PRICE_SOLAR_DAILY = 1.0
#: Winter price premium (heating load) independent of the mix.
PRICE_WINTER_PREMIUM = 0.08
#: Summer price dip per unit solar share.
PRICE_SOLAR_SEASONAL = 0.5
#: Winter price dip per unit wind share.
PRICE_WIND_SEASONAL = 0.5

SOLAR_NOON_HOUR = 12.0
EVENING_PEAK_HOUR = 19.0


class GridRegion(PowerSource):
    """A grid region: annual means plus daily and seasonal shapes from its mix."""

    kind: Literal["grid"] = "grid"
    capacity_factor: float = Field(default=1.0, gt=0, le=1, description="always available")
    solar_share: float = Field(ge=0, le=1, description="solar share of generation")
    wind_share: float = Field(ge=0, le=1, description="wind share of generation")

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        times = clock(time_index)
        noon = daily_cosine(times, location.lon, SOLAR_NOON_HOUR)
        evening = daily_cosine(times, location.lon, EVENING_PEAK_HOUR)
        evening2 = daily_cosine(times, location.lon, EVENING_PEAK_HOUR, harmonic=2)
        season = season_cosine(times, location.lat)
        solar, wind = self.solar_share, self.wind_share

        carbon_daily = -CARBON_SOLAR_DAILY * solar * noon
        carbon_season = (-CARBON_SOLAR_SEASONAL * solar + CARBON_WIND_SEASONAL * wind) * season
        price_daily = PRICE_EVENING_PEAK * (evening + 0.5 * evening2) - PRICE_SOLAR_DAILY * solar * noon
        price_season = (
            -PRICE_WINTER_PREMIUM - PRICE_SOLAR_SEASONAL * solar + PRICE_WIND_SEASONAL * wind
        ) * season
        return pd.DataFrame(
            {
                "capacity_factor": np.full(len(time_index), self.capacity_factor),
                "price_usd_per_mwh": self.price_usd_per_mwh * (1 + price_daily) * (1 + price_season),
                "carbon_kg_per_mwh": self.carbon_kg_per_mwh * (1 + carbon_daily) * (1 + carbon_season),
            },
            index=time_index,
        )


def price_and_basis(row: Row) -> tuple[float, str]:
    """Industrial retail price where the table gives it, else wholesale."""
    if row["industrial_usd_mwh"]:
        return float(row["industrial_usd_mwh"]), f"industrial retail: {row['industrial_basis']}"
    return float(row["wholesale_usd_mwh"]), f"wholesale: {row['wholesale_basis']}"


def region_from_row(row: Row) -> GridRegion:
    price, price_basis = price_and_basis(row)
    notes = "; ".join(text for text in (row["name"], row["notes"]) if text)
    return GridRegion(
        name=f"grid_{row['region_id']}",
        source=row["carbon_source"],
        source_type=row["carbon_source_type"],
        price_usd_per_mwh=price,
        carbon_kg_per_mwh=float(row["carbon_gco2_kwh"]),
        carbon_basis=row["carbon_basis_kind"],
        price_basis=price_basis[:200],
        location=row_location(row),
        country=row["country"],
        solar_share=float(row["solar_share"]),
        wind_share=float(row["wind_share"]),
        notes=notes,
        figure_sources={
            "carbon_kg_per_mwh": (
                f"{row['carbon_source']}, {row['carbon_year']}: {row['carbon_basis']} "
                f"[{row['carbon_source_type']}]"
            ),
            "price_usd_per_mwh": f"{row['price_source']} ({price_basis}) [{row['price_source_type']}]",
            "capacity_factor": "a grid connection is taken as always available [estimate]",
            "solar_share": f"{row['share_source']} [{row['share_source_type']}]",
            "wind_share": f"{row['share_source']} [{row['share_source_type']}]",
        },
    )


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """One grid power source per region of the table."""
    return [region_from_row(row) for row in read_table("grid_regions")]
