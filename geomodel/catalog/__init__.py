"""Catalogue of hardware systems, link technologies, power sources, build costs, weather
points and language models."""

from geomodel.catalog.costs import GENERIC_ASSETS, BuildCost
from geomodel.catalog.entries import (
    CARBON_BASES,
    CARBON_BASIS_COLUMNS,
    PROFILE_COLUMNS,
    CatalogEntry,
    HardwareSystem,
    LinkTechnology,
    PowerSource,
)
from geomodel.catalog.language_models import LanguageModel
from geomodel.catalog.registry import CATALOG_KINDS, Catalog, build_catalog
from geomodel.catalog.weather import WEATHER_BOUNDS, WEATHER_COLUMNS, WeatherMatch, WeatherPoint

__all__ = [
    "CARBON_BASES",
    "CARBON_BASIS_COLUMNS",
    "CATALOG_KINDS",
    "GENERIC_ASSETS",
    "PROFILE_COLUMNS",
    "WEATHER_BOUNDS",
    "WEATHER_COLUMNS",
    "BuildCost",
    "Catalog",
    "CatalogEntry",
    "HardwareSystem",
    "LanguageModel",
    "LinkTechnology",
    "PowerSource",
    "WeatherMatch",
    "WeatherPoint",
    "build_catalog",
]
