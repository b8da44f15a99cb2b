"""Built-in grid regions, one power source of kind ``grid`` per row of
``plugins/data/grid_regions.csv``, named ``grid_<region_id>``.

Each series is **measured** where the region names a measured zone for it
(``price_zone``, ``carbon_zone``: the shipped 2023 year, read for any horizon by the
weekday rule of :mod:`geomodel_builtins.measured`; :mod:`.grid_measured`) and
**shaped** otherwise; :meth:`GridRegion.series_basis` says which, per series.

Price. The profile's price is wholesale where the table knows it (measured, or the
annual wholesale figure), else the industrial retail figure (China, TVA). Where both
a wholesale price and the industrial retail price are known, the region carries a
default adder = industrial retail - the profile's annual mean (the measured mean where
measured, the table's wholesale figure on shaped series), so wholesale hour by hour
plus the adder averages to what a large consumer pays over the year; a scenario may
set its own adder (docs/catalogues.md, "Price").

Carbon is the table's annual figure in its basis (``lifecycle`` or ``direct``); the
other basis comes from the fit of :mod:`.grid_measured` (measured zones have both).

The shaped profile multiplies the annual means by a daily and a seasonal factor,

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
from pydantic import Field, model_validator

from geomodel.catalog.entries import PowerSource
from geomodel.geo import Location
from geomodel.hookspecs import hookimpl

from .. import measured
from .._tables import Row, read_table, row_location
from . import grid_measured
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
    """A grid region: measured hourly series where a zone is named, shaped ones elsewhere."""

    kind: Literal["grid"] = "grid"
    capacity_factor: float = Field(default=1.0, gt=0, le=1, description="always available")
    solar_share: float = Field(ge=0, le=1, description="solar share of generation")
    wind_share: float = Field(ge=0, le=1, description="wind share of generation")
    price_zone: str | None = Field(default=None, description="measured zone of the hourly price")
    carbon_zone: str | None = Field(default=None, description="measured zone of the hourly carbon")
    shaped_price_usd_per_mwh: float = Field(
        ge=-500, le=5000, description="annual mean of the shaped price (the table's figure)"
    )
    shaped_carbon_kg_per_mwh: float = Field(
        ge=0, le=2000, description="annual mean of the shaped carbon (the table's figure)"
    )
    retail_price_usd_per_mwh: float | None = Field(
        default=None,
        ge=0,
        le=5000,
        description="industrial retail price (annual mean) the default adder brings the price up to",
    )

    @model_validator(mode="after")
    def _zones_are_measured(self) -> GridRegion:
        if self.price_zone is not None:
            grid_measured.check_zone(self.price_zone, "price")
        if self.carbon_zone is not None:
            grid_measured.check_zone(self.carbon_zone, "carbon_direct")
        return self

    def hourly_coverage(self) -> pd.DatetimeIndex:
        """The measured year: what measured series cover (any other year reads them by the
        weekday rule); shaped series average exactly to their means over it too."""
        return measured.data_hours()

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        frame = self.shaped_profile(location, time_index)
        if self.price_zone is None and self.carbon_zone is None:
            return frame
        positions = measured.data_positions(time_index)
        if self.price_zone is not None:
            frame["price_usd_per_mwh"] = grid_measured.price_series(
                self.price_zone, time_index, positions
            )
        if self.carbon_zone is not None:
            carbon = grid_measured.carbon_series(self.carbon_zone, time_index, positions)
            frame["carbon_kg_per_mwh"] = carbon[self.carbon_basis]
            for basis, values in carbon.items():
                frame[f"carbon_{basis}_kg_per_mwh"] = values
        return frame

    def shaped_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        """Annual means times the daily and seasonal factors of the module docstring."""
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
                "price_usd_per_mwh": self.shaped_price_usd_per_mwh
                * (1 + price_daily)
                * (1 + price_season),
                "carbon_kg_per_mwh": self.shaped_carbon_kg_per_mwh
                * (1 + carbon_daily)
                * (1 + carbon_season),
            },
            index=time_index,
        )

    def series_basis(self) -> dict[str, str]:
        basis = {}
        if self.price_zone is not None:
            basis["price_usd_per_mwh"] = grid_measured.price_label(self.price_zone)
        else:
            basis["price_usd_per_mwh"] = (
                f"shaped from annual mean {self.shaped_price_usd_per_mwh:g} USD/MWh ({self.price_basis})"
            )
        if self.carbon_zone is not None:
            basis["carbon_kg_per_mwh"] = grid_measured.carbon_label(self.carbon_zone)
        else:
            other = "direct" if self.carbon_basis == "lifecycle" else "lifecycle"
            converted = f"{other} {self.carbon_other_basis_kg_per_mwh:.0f} by the basis fit"
            basis["carbon_kg_per_mwh"] = (
                f"shaped from annual mean {self.shaped_carbon_kg_per_mwh:g} kgCO2e/MWh "
                f"({self.carbon_basis}; {converted})"
            )
        return basis

    def shaped(self) -> GridRegion:
        if self.price_zone is None and self.carbon_zone is None:
            return self
        other = grid_measured.other_basis_carbon(self.shaped_carbon_kg_per_mwh, self.carbon_basis)
        retail = self.retail_price_usd_per_mwh
        return self.model_copy(
            update={
                "price_zone": None,
                "carbon_zone": None,
                "price_adder_usd_per_mwh": 0.0
                if retail is None
                else round(retail - self.shaped_price_usd_per_mwh, 2),
                "price_usd_per_mwh": self.shaped_price_usd_per_mwh,
                "carbon_kg_per_mwh": self.shaped_carbon_kg_per_mwh,
                "carbon_other_basis_kg_per_mwh": round(other, 1),
            }
        )


#: Order of source types from firmest to weakest; a derived figure takes the weakest.
_SOURCE_STRENGTH = ("vendor", "agency", "paper", "press", "estimate")


def _weakest(*types: str) -> str:
    return max(types, key=_SOURCE_STRENGTH.index)


def price_and_basis(row: Row) -> tuple[float, str, str]:
    """The profile's annual price, its basis and its figure source: wholesale where the
    table knows it, else industrial retail."""
    if row["wholesale_usd_mwh"]:
        basis = f"wholesale: {row['wholesale_basis']}"
        source = f"{row['wholesale_source']} ({basis}) [{row['wholesale_source_type']}]"
        return float(row["wholesale_usd_mwh"]), basis, source
    basis = f"industrial retail: {row['industrial_basis']}"
    source = f"{row['industrial_source']} ({basis}) [{row['industrial_source_type']}]"
    return float(row["industrial_usd_mwh"]), basis, source


def default_adder(row: Row) -> tuple[float, str]:
    """Industrial retail - wholesale annual mean (measured where measured), with its source;
    0 where either is unknown (the price is then the bill, or wholesale only)."""
    if not (row["industrial_usd_mwh"] and row["wholesale_usd_mwh"]):
        level = "industrial retail" if row["industrial_usd_mwh"] else "wholesale only"
        return 0.0, f"no default adder: the table has {level} [estimate]"
    retail = float(row["industrial_usd_mwh"])
    if row["price_zone"]:
        wholesale = grid_measured.annual_mean(row["price_zone"], "price")
        what, kind = f"the measured 2023 wholesale mean of zone {row['price_zone']}", "agency"
    else:
        wholesale = float(row["wholesale_usd_mwh"])
        what, kind = (
            f"the wholesale annual figure ({row['wholesale_basis']})",
            row["wholesale_source_type"],
        )
    source = (
        f"{row['industrial_source']}: {row['industrial_basis']} = {retail:g} USD/MWh, minus "
        f"{what} {wholesale:.2f} = {retail - wholesale:.2f} USD/MWh "
        f"[{_weakest(row['industrial_source_type'], kind)}]"
    )
    return round(retail - wholesale, 2), source


def measured_means(row: Row, price: float, carbon: float) -> dict[str, float]:
    """The entry's annual means: of the measured year where a series is measured (so the
    profile's mean over that year is the entry's figure), else the table's figures."""
    basis = row["carbon_basis_kind"]
    other = "direct" if basis == "lifecycle" else "lifecycle"
    means = {
        "price_usd_per_mwh": price,
        "carbon_kg_per_mwh": carbon,
        "carbon_other_basis_kg_per_mwh": round(grid_measured.other_basis_carbon(carbon, basis), 1),
    }
    if row["price_zone"]:
        means["price_usd_per_mwh"] = round(grid_measured.annual_mean(row["price_zone"], "price"), 2)
    if row["carbon_zone"]:
        series = grid_measured.CARBON_SERIES
        means["carbon_kg_per_mwh"] = round(
            grid_measured.annual_mean(row["carbon_zone"], series[basis]), 1
        )
        means["carbon_other_basis_kg_per_mwh"] = round(
            grid_measured.annual_mean(row["carbon_zone"], series[other]), 1
        )
    return means


def _mean_sources(row: Row, carbon: float, price_source: str) -> dict[str, str]:
    """Figure sources of the annual means: the measured year where measured, else the table."""
    table_carbon = f"{row['carbon_source']}, {row['carbon_year']}: {row['carbon_basis']}"
    table_carbon += f" [{row['carbon_source_type']}]"
    sources = {
        "shaped_price_usd_per_mwh": price_source,
        "shaped_carbon_kg_per_mwh": table_carbon,
        "price_usd_per_mwh": price_source,
        "carbon_kg_per_mwh": table_carbon,
        "carbon_other_basis_kg_per_mwh": (
            f"{carbon:g} {row['carbon_basis_kind']} converted by the fit lifecycle = "
            f"{grid_measured.CARBON_FIT_INTERCEPT} + {grid_measured.CARBON_FIT_SLOPE} x direct "
            "over the measured zones' 2023 means [estimate]"
        ),
    }
    measured_year = "mean of the measured 2023 hourly year, zone"
    archive = "plugins/data/hourly_2023.md"
    if row["price_zone"]:
        sources["price_usd_per_mwh"] = (
            f"market operator data ({measured_year} {row['price_zone']}, {archive}) [agency]"
        )
    if row["carbon_zone"]:
        for field in ("carbon_kg_per_mwh", "carbon_other_basis_kg_per_mwh"):
            sources[field] = (
                f"Electricity Maps ({measured_year} {row['carbon_zone']}, consumed, {archive}) [agency]"
            )
    return sources


def region_from_row(row: Row) -> GridRegion:
    price, price_basis, price_source = price_and_basis(row)
    if row["price_zone"]:
        price_basis = f"wholesale, measured 2023 zone {row['price_zone']}; shaped: {price_basis}"
    adder, adder_source = default_adder(row)
    carbon = float(row["carbon_gco2_kwh"])
    carbon_basis = row["carbon_basis_kind"]
    notes = "; ".join(text for text in (row["name"], row["notes"]) if text)
    return GridRegion(
        name=f"grid_{row['region_id']}",
        source=row["carbon_source"],
        source_type=row["carbon_source_type"],
        **measured_means(row, price, carbon),
        shaped_price_usd_per_mwh=price,
        shaped_carbon_kg_per_mwh=carbon,
        retail_price_usd_per_mwh=float(row["industrial_usd_mwh"]) if row["industrial_usd_mwh"] else None,
        carbon_basis=carbon_basis,
        price_basis=price_basis[:200],
        price_adder_usd_per_mwh=adder,
        price_zone=row["price_zone"] or None,
        carbon_zone=row["carbon_zone"] or None,
        location=row_location(row),
        country=row["country"],
        solar_share=float(row["solar_share"]),
        wind_share=float(row["wind_share"]),
        notes=notes,
        figure_sources={
            **_mean_sources(row, carbon, price_source),
            "price_adder_usd_per_mwh": adder_source,
            "capacity_factor": "a grid connection is taken as always available [estimate]",
            "solar_share": f"{row['share_source']} [{row['share_source_type']}]",
            "wind_share": f"{row['share_source']} [{row['share_source_type']}]",
        },
    )


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """One grid power source per region of the table."""
    return [region_from_row(row) for row in read_table("grid_regions")]
