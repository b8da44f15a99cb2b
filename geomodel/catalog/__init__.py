"""Catalogue of hardware systems, link technologies and power sources."""

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
    "PROFILE_COLUMNS",
    "Catalog",
    "CatalogEntry",
    "HardwareSystem",
    "LinkTechnology",
    "PowerSource",
    "build_catalog",
]
