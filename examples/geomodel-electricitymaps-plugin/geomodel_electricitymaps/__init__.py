"""geomodel-electricitymaps-plugin: grid power sources from real hourly data.

Each source configured in the file named by ``GEOMODEL_ELECTRICITYMAPS_CONFIG``
becomes a power source of kind ``grid``: hourly carbon intensity from an
Electricity Maps hourly CSV download (the ``(LCA)`` column for
``carbon_basis = "lifecycle"``, the ``(direct)`` column for ``"direct"``) and
hourly day-ahead prices from a CSV with a ``time`` column and a price column, or a
flat price. Files are checked as scenario time series are, with the same
messages. See README.md for the columns and the configuration file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from geomodel import Location, PowerSource, hookimpl
from geomodel.scenario.timeseries import SeriesError

from .config import CONFIG_ENV, ConfigError, config_path, read_config
from .csv_files import CARBON_COLUMNS, EM_COLUMNS, EM_TIME_COLUMN, DataFileError
from .source import ElectricityMapsGrid

#: The major version of geomodel's plugin API this plugin was written for.
GEOMODEL_PLUGIN_API = "1"
#: The plugin's name: its entry point.
NAME = "electricitymaps"
#: A configuration of the synthetic sample files shipped with the package.
SAMPLE_CONFIG = Path(__file__).resolve().with_name("sample") / "electricitymaps.toml"

__all__ = [
    "CARBON_COLUMNS",
    "CONFIG_ENV",
    "EM_COLUMNS",
    "EM_TIME_COLUMN",
    "SAMPLE_CONFIG",
    "ConfigError",
    "DataFileError",
    "ElectricityMapsGrid",
    "load_sources",
]


def load_sources(path: str | Path) -> list[ElectricityMapsGrid]:
    """The power sources a configuration file describes, files read and checked.

    Raises :class:`ConfigError` listing every problem of every source.
    """
    path = Path(path)
    sources, problems = [], []
    for name, settings in read_config(path).items():
        try:
            sources.append(_source(name, settings, path))
        except (SeriesError, ValueError) as error:
            problems.append(f"{path.name}: sources.{name}: {' '.join(str(error).split())}")
    if problems:
        raise ConfigError("; ".join(problems))
    return sources


def _source(name: str, settings: dict[str, Any], config: Path) -> ElectricityMapsGrid:
    basis = settings.get("carbon_basis", "lifecycle")
    fields: dict[str, Any] = {
        key: settings[key]
        for key in ("zone", "price_csv", "price_column", "price_to_usd", "country")
        if key in settings
    }
    draft = ElectricityMapsGrid.model_construct(
        name=name, carbon_csv=settings["carbon_csv"], carbon_basis=basis, **fields
    )
    carbon, prices = draft.carbon(), draft.prices()
    hours = draft.hourly_coverage()
    if hours.empty:
        raise DataFileError(
            f"{carbon.name} ({_period(carbon.hours)}) and {prices.name} ({_period(prices.hours)}) "
            "have no hour in common"
        )
    tag = settings.get("source_type", "agency")
    figure_sources = {
        "carbon_kg_per_mwh": f"{carbon.name}: mean of {carbon.column!r} over {_period(hours)} [{tag}]",
        "capacity_factor": "a grid connection is taken as always available [estimate]",
    }
    if prices is not None:
        price = float(prices.series(hours).mean()) * draft.price_to_usd
        factor = f" x {draft.price_to_usd:g}" if draft.price_to_usd != 1 else ""
        figure_sources["price_usd_per_mwh"] = (
            f"{prices.name}: mean of {prices.column!r}{factor} over the same hours [{tag}]"
        )
    else:
        price = float(settings["price_usd_per_mwh"])
        figure_sources["price_usd_per_mwh"] = f"flat price set in {config.name} [estimate]"
    notes = [settings.get("notes", "")]
    if carbon.estimated_share is not None:
        notes.append(f"{carbon.estimated_share:.1%} of the hours are estimates (Data Estimated = true)")
    location = Location(lat=settings["lat"], lon=settings["lon"]) if "lat" in settings else None
    return ElectricityMapsGrid(
        name=name,
        carbon_csv=settings["carbon_csv"],
        carbon_basis=basis,
        carbon_kg_per_mwh=float(carbon.series(hours).mean()),
        price_usd_per_mwh=price,
        price_basis=settings.get("price_basis", "hourly prices from the price file")[:200],
        location=location,
        source=settings.get("source", f"Electricity Maps hourly data ({carbon.name})"),
        source_type=tag,
        figure_sources=figure_sources,
        notes="; ".join(n for n in notes if n),
        **fields,
    )


def _period(hours) -> str:
    if len(hours) == 0:
        return "no hours"
    return f"{len(hours)} hours from {hours[0]:%Y-%m-%d %H:%M} to {hours[-1]:%Y-%m-%d %H:%M} UTC"


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """One grid power source per table of the configuration file; none without one."""
    path = config_path()
    return [] if path is None else list(load_sources(path))


@hookimpl
def validate_scenario(scenario: Any, catalog: Any) -> list[str]:
    """The files of every source a site uses must cover the scenario's horizon."""
    problems = []
    hours = scenario.time.hourly_index()
    for site_name, site in scenario.sites.items():
        used = {f"sites.{site_name}.grid": site.grid} if site.grid else {}
        used |= {f"sites.{site_name}.power_sources.{n}": n for n in site.power_sources}
        for where, name in used.items():
            source = catalog.power_sources.get(name)
            if not isinstance(source, ElectricityMapsGrid):
                continue
            try:
                source.hourly_profile(Location(lat=site.lat, lon=site.lon), hours)
            except DataFileError as error:
                problems.append(f"{where}: {error}")
    return problems
