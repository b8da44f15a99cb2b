"""Catalogue of hardware systems, link technologies and power sources."""

from geomodel.catalog.entries import (
    PROFILE_COLUMNS,
    CatalogEntry,
    HardwareSystem,
    LinkTechnology,
    PowerSource,
)
from geomodel.catalog.registry import CATALOG_KINDS, Catalog, build_catalog

__all__ = [
    "CATALOG_KINDS",
    "PROFILE_COLUMNS",
    "Catalog",
    "CatalogEntry",
    "HardwareSystem",
    "LinkTechnology",
    "PowerSource",
    "build_catalog",
]
