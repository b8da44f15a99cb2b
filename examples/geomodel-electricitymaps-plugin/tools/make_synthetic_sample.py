"""Write the synthetic sample files in geomodel_electricitymaps/sample/.

The numbers are made up by the formulas below, shaped like a mid-European grid in
January (a midday solar dip in carbon, an evening price peak, a windy spell, a
negative-price Sunday noon); they are NOT Electricity Maps data and describe no
real zone. Zone Id ``XX`` and Data Source ``SYNTHETIC`` say so in every row.

    python tools/make_synthetic_sample.py
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pandas as pd

SAMPLE = Path(__file__).resolve().parents[1] / "geomodel_electricitymaps" / "sample"
HOURS = pd.date_range("2025-01-06", periods=7 * 24, freq="h", tz="UTC")  # Monday to Sunday
ESTIMATED_HOURS = {30, 31, 32, 100, 101, 102}  # hours marked as estimated, to show the flag

COLUMNS = [
    "Datetime (UTC)",
    "Country",
    "Zone Name",
    "Zone Id",
    "Carbon Intensity gCO₂eq/kWh (direct)",
    "Carbon Intensity gCO₂eq/kWh (LCA)",
    "Low Carbon Percentage",
    "Renewable Percentage",
    "Data Source",
    "Data Estimated",
    "Data Estimation Method",
]


def main() -> None:
    hour = HOURS.hour.to_numpy() + 0.5
    t = np.arange(len(HOURS))
    daylight = np.clip(np.cos(2 * np.pi * (hour - 12) / 24), 0, None)  # 0 at night, 1 at noon
    wind = 0.5 + 0.5 * np.sin(2 * np.pi * (t - 36) / 84)  # a 3.5-day windy spell, 0..1
    renewable = 30 + 25 * wind + 12 * daylight  # percent
    low_carbon = renewable + 12  # plus nuclear
    lca = 520 - 4.2 * renewable  # gCO2eq/kWh, lifecycle
    direct = 0.9 * lca - 25
    evening = np.cos(2 * np.pi * (hour - 19) / 24)
    weekend = HOURS.dayofweek.to_numpy() >= 5
    price = 95 + 35 * evening - 60 * wind - 30 * daylight * weekend  # USD/MWh, may go negative

    with open(SAMPLE / "SYNTHETIC_XX_2025_hourly.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(COLUMNS)
        for i, when in enumerate(HOURS):
            estimated = i in ESTIMATED_HOURS
            writer.writerow(
                [
                    when.strftime("%Y-%m-%d %H:%M:%S"),
                    "Synthetic",
                    "Synthetic test zone",
                    "XX",
                    f"{direct[i]:.2f}",
                    f"{lca[i]:.2f}",
                    f"{low_carbon[i]:.2f}",
                    f"{renewable[i]:.2f}",
                    "SYNTHETIC (geomodel sample, not Electricity Maps data)",
                    "true" if estimated else "false",
                    "SYNTHETIC_INTERPOLATION" if estimated else "",
                ]
            )
    with open(SAMPLE / "SYNTHETIC_XX_2025_day_ahead.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["time", "price_usd_per_mwh"])
        for i, when in enumerate(HOURS):
            writer.writerow([when.isoformat(), f"{price[i]:.2f}"])


if __name__ == "__main__":
    main()
