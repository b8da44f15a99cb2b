"""Power sources whose hourly profiles break the contract in the ways profiles go wrong."""

import numpy as np
import pandas as pd
from plugin_fixtures.figures import power_fields

from geomodel import PowerSource, hookimpl

GEOMODEL_PLUGIN_API = "1"


def flat(source: PowerSource, index: pd.DatetimeIndex) -> pd.DataFrame:
    hours = len(index)
    return pd.DataFrame(
        {
            "capacity_factor": np.full(hours, source.capacity_factor),
            "price_usd_per_mwh": np.full(hours, source.price_usd_per_mwh),
            "carbon_kg_per_mwh": np.full(hours, source.carbon_kg_per_mwh),
        },
        index=index,
    )


class MissingHours(PowerSource):
    """Drops every hour of 1 February: a gap in the index."""

    def hourly_profile(self, location, time_index):
        frame = flat(self, time_index)
        return frame[~((frame.index.month == 2) & (frame.index.day == 1))]


class EmptyHours(PowerSource):
    """Leaves carbon empty for a day: a gap in the values."""

    def hourly_profile(self, location, time_index):
        frame = flat(self, time_index)
        frame.loc[frame.index[100:124], "carbon_kg_per_mwh"] = np.nan
        return frame


class WallClock(PowerSource):
    """Prices by the hour on the index's wall clock: they move with the index's time zone."""

    def hourly_profile(self, location, time_index):
        frame = flat(self, time_index)
        frame["price_usd_per_mwh"] = self.price_usd_per_mwh * (
            1 + 0.2 * np.cos(2 * np.pi * time_index.hour / 24)
        )
        return frame


class UnitlessColumns(PowerSource):
    """Names its price column without its unit."""

    def hourly_profile(self, location, time_index):
        return flat(self, time_index).rename(columns={"price_usd_per_mwh": "price"})


class KilowattHourPrices(PowerSource):
    """Gives hourly prices in USD/kWh while the entry says USD/MWh."""

    def hourly_profile(self, location, time_index):
        frame = flat(self, time_index)
        frame["price_usd_per_mwh"] = self.price_usd_per_mwh / 1000
        return frame


@hookimpl
def register_power_sources():
    return [
        MissingHours(**power_fields("missing_hours")),
        EmptyHours(**power_fields("empty_hours")),
        WallClock(**power_fields("wall_clock")),
        UnitlessColumns(**power_fields("unitless_columns")),
        KilowattHourPrices(**power_fields("kwh_prices")),
    ]
