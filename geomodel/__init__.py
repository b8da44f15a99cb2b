"""geomodel: plan where AI compute runs across geo-distributed data centres.

The public Python API. Internals live in subpackages and may move; what is
re-exported here is stable.
"""

from importlib.metadata import PackageNotFoundError, version

from geomodel.catalog import Catalog, HardwareSystem, LinkTechnology, PowerSource, build_catalog
from geomodel.errors import GeomodelError, UnknownNameError, UsageError
from geomodel.geo import Location, geodesic_km
from geomodel.hookspecs import PLUGIN_API_VERSION, hookimpl
from geomodel.plugin_loader import load_plugins

try:
    __version__ = version("geomodel")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = [
    "PLUGIN_API_VERSION",
    "Catalog",
    "GeomodelError",
    "HardwareSystem",
    "LinkTechnology",
    "Location",
    "PowerSource",
    "UnknownNameError",
    "UsageError",
    "__version__",
    "build_catalog",
    "geodesic_km",
    "hookimpl",
    "load_plugins",
]
