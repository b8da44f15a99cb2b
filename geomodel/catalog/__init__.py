"""Catalogue of hardware systems, link technologies, power sources and build costs."""

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
from geomodel.catalog.registry import CATALOG_KINDS, Catalog, build_catalog

__all__ = [
    "CARBON_BASES",
    "CARBON_BASIS_COLUMNS",
    "CATALOG_KINDS",
    "GENERIC_ASSETS",
    "PROFILE_COLUMNS",
    "BuildCost",
    "Catalog",
    "CatalogEntry",
    "HardwareSystem",
    "LinkTechnology",
    "PowerSource",
    "build_catalog",
]
