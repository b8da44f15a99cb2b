"""The power source: a grid region whose carbon and price are measured hour by hour."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from pydantic import Field

from geomodel import Location, PowerSource
from geomodel.scenario.timeseries import SeriesError

from .csv_files import DataFileError, carbon_file, price_file


class ElectricityMapsGrid(PowerSource):
    """A grid region from files: hourly carbon from an Electricity Maps download and
    hourly prices from a price file, or a flat price.

    The profile is the files' values at the requested hours: no shape is assumed,
    and hours the files do not cover are an error, not a guess. The entry's
    ``carbon_kg_per_mwh`` and ``price_usd_per_mwh`` are the means over
    :meth:`hourly_coverage`, the hours both files cover.
    """

    kind: Literal["grid"] = "grid"
    capacity_factor: float = Field(default=1.0, gt=0, le=1, description="always available")
    carbon_csv: str = Field(description="path of the Electricity Maps hourly CSV")
    zone: str | None = Field(default=None, description="Zone Id the file must hold, if given")
    price_csv: str | None = Field(default=None, description="path of the hourly price CSV")
    price_column: str = Field(default="price_usd_per_mwh", description="price column of price_csv")
    price_to_usd: float = Field(
        default=1.0, gt=0, description="multiplier to USD/MWh (e.g. 1.08 for EUR)"
    )

    def carbon(self):
        return carbon_file(self.carbon_csv, self.carbon_basis, self.zone)

    def prices(self):
        return price_file(self.price_csv, self.price_column) if self.price_csv else None

    def hourly_coverage(self) -> pd.DatetimeIndex:
        """Every hour both files cover, in UTC."""
        hours = self.carbon().hours
        prices = self.prices()
        return hours if prices is None else hours.intersection(prices.hours)

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        try:
            carbon = self.carbon().series(time_index).to_numpy()
            prices = self.prices()
            price = (
                prices.series(time_index).to_numpy() * self.price_to_usd
                if prices is not None
                else np.full(len(time_index), self.price_usd_per_mwh)
            )
        except SeriesError as error:
            raise DataFileError(f"power source {self.name!r}: {error}") from None
        return pd.DataFrame(
            {
                "capacity_factor": np.full(len(time_index), self.capacity_factor),
                "price_usd_per_mwh": price,
                "carbon_kg_per_mwh": carbon,
            },
            index=time_index,
        )
