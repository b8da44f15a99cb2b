"""The configuration file: which power sources to make from which files.

Hooks take no arguments, so the plugin reads a small TOML file named by the
environment variable ``GEOMODEL_ELECTRICITYMAPS_CONFIG``; without it the plugin
contributes nothing. One table per power source; relative paths resolve from
the configuration file's folder::

    [sources.em_de]
    carbon_csv = "DE_2024_hourly.csv"      # Electricity Maps hourly download
    carbon_basis = "lifecycle"             # lifecycle: the (LCA) column; direct: (direct)
    zone = "DE"                            # optional: the Zone Id every row must have
    lat = 51.2                             # optional: where the grid region is
    lon = 10.4
    price_csv = "DE_2024_day_ahead.csv"    # time + price column; or a flat price_usd_per_mwh
    price_column = "price_eur_per_mwh"     # default price_usd_per_mwh
    price_to_usd = 1.08                    # multiplier to USD/MWh, default 1
    price_basis = "EPEX SPOT day-ahead, DE-LU, 2024"
    source = "Electricity Maps, Germany 2024, hourly download"
    source_type = "agency"                 # vendor, paper, agency, press or estimate
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from geomodel.errors import GeomodelError

CONFIG_ENV = "GEOMODEL_ELECTRICITYMAPS_CONFIG"
REQUIRED = {"carbon_csv"}
OPTIONAL = {
    "carbon_basis",
    "zone",
    "lat",
    "lon",
    "country",
    "price_csv",
    "price_column",
    "price_to_usd",
    "price_usd_per_mwh",
    "price_basis",
    "source",
    "source_type",
    "notes",
}
BASES = ("lifecycle", "direct")


class ConfigError(GeomodelError):
    """The configuration file is missing or wrong; the message lists every problem."""


def config_path() -> Path | None:
    """The file named by GEOMODEL_ELECTRICITYMAPS_CONFIG, or None when it is not set."""
    value = os.environ.get(CONFIG_ENV, "").strip()
    return Path(value).expanduser() if value else None


def read_config(path: Path) -> dict[str, dict[str, Any]]:
    """Source name -> its settings, paths made absolute; ConfigError listing every problem."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{CONFIG_ENV} names {path}, which does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"{path.name}: cannot read it as TOML: {error}") from None
    sources = data.get("sources")
    if not isinstance(sources, dict) or not sources:
        raise ConfigError(f"{path.name}: expected one or more [sources.<name>] tables")
    problems: list[str] = []
    settings: dict[str, dict[str, Any]] = {}
    for name, table in sources.items():
        where = f"{path.name}: sources.{name}"
        if not isinstance(table, dict):
            problems.append(f"{where}: expected a table of settings")
            continue
        found = _problems(table)
        problems += [f"{where}: {problem}" for problem in found]
        if not found:
            settings[name] = _absolute(table, path.parent)
    if problems:
        raise ConfigError("; ".join(problems))
    return settings


def _problems(table: dict[str, Any]) -> list[str]:
    problems = [f"unknown setting {key!r}" for key in table if key not in REQUIRED | OPTIONAL]
    problems += [f"missing {key!r}" for key in sorted(REQUIRED - set(table))]
    if table.get("carbon_basis", "lifecycle") not in BASES:
        problems.append(f"carbon_basis must be 'lifecycle' or 'direct', not {table['carbon_basis']!r}")
    if ("price_csv" in table) == ("price_usd_per_mwh" in table):
        problems.append("give either price_csv (hourly prices) or price_usd_per_mwh (a flat price)")
    if ("lat" in table) != ("lon" in table):
        problems.append("give both lat and lon, or neither")
    return problems


def _absolute(table: dict[str, Any], folder: Path) -> dict[str, Any]:
    resolved = dict(table)
    for key in ("carbon_csv", "price_csv"):
        if key in resolved:
            resolved[key] = str((folder / Path(resolved[key]).expanduser()).resolve())
    return resolved
