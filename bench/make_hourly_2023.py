"""Build the measured year shipped in plugins/data from a folder of hourly 2023 files.

The folder holds ``zones.csv`` (the zones table) and, per zone, ``ZONE_carbon.csv.gz``,
``ZONE_price.csv.gz`` and ``ZONE_weather.csv.gz`` indexed by ``time_utc``: the 2023 data
of the public repository HewlettPackard/green-dcc (``data/carbon_intensity``,
``data/electricity_prices/standardized``, ``data/weather``: Electricity Maps carbon
intensity, the market operators' prices, Open-Meteo weather) aligned to one UTC index,
as plugins/data/hourly_2023.md describes.

Writes ``hourly_2023.npz`` and ``hourly_2023_zones.csv``; run by hand when the measured
year changes (the package ships the output, not this script):
``python bench/make_hourly_2023.py /path/to/hourly/2023``.

Values are stored as float32 (seven significant digits, well below the sources' own
precision) and the ``estimated`` flags as int8, one array of shape (zone, hour) per
series, compressed; empty cells stay NaN so the reader can count and fill them. The
zones table keeps the source's columns.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

#: (file kind, source column, stored series name, dtype)
SERIES = (
    ("carbon", "carbon_direct_gco2_kwh", "carbon_direct", "float32"),
    ("carbon", "carbon_lca_gco2_kwh", "carbon_lifecycle", "float32"),
    ("carbon", "estimated", "carbon_estimated", "int8"),
    ("price", "price_usd_mwh", "price", "float32"),
    ("weather", "temperature_c", "temperature_c", "float32"),
    ("weather", "relative_humidity_pct", "relative_humidity_pct", "float32"),
    ("weather", "cloud_cover_pct", "cloud_cover_pct", "float32"),
    ("weather", "wind_speed_10m_km_h", "wind_speed_10m_km_h", "float32"),
)
YEAR = 2023


def main(source: Path) -> None:
    hours = pd.date_range(f"{YEAR}-01-01", f"{YEAR + 1}-01-01", freq="1h", tz="UTC", inclusive="left")
    zones = pd.read_csv(source / "zones.csv", dtype=str, keep_default_na=False)
    arrays: dict[str, np.ndarray] = {}
    for kind in ("carbon", "price", "weather"):
        covered = sorted(z for z in zones["zone"] if (source / f"{z}_{kind}.csv.gz").exists())
        frames = [
            pd.read_csv(source / f"{z}_{kind}.csv.gz", index_col=0, parse_dates=True).reindex(hours)
            for z in covered
        ]
        arrays[f"{kind}_zones"] = np.array(covered)
        for file_kind, column, name, dtype in SERIES:
            if file_kind == kind:
                values = np.stack([f[column].to_numpy(dtype=float) for f in frames])
                if dtype == "int8":
                    values = np.nan_to_num(values, nan=0.0)
                arrays[name] = values.astype(dtype)
    here = Path(__file__).resolve().parents[1] / "plugins" / "data"
    np.savez_compressed(here / f"hourly_{YEAR}.npz", **arrays)
    zones.to_csv(here / f"hourly_{YEAR}_zones.csv", index=False)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
