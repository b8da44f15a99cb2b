"""geomodel: plan where AI compute runs across geo-distributed data centres.

The public Python API. Internals live in subpackages and may move; what is
re-exported here is stable.
"""

from importlib.metadata import PackageNotFoundError, version

from geomodel.catalog import (
    Catalog,
    HardwareSystem,
    LanguageModel,
    LinkTechnology,
    PowerSource,
    WeatherPoint,
    build_catalog,
)
from geomodel.errors import GeomodelError, UnknownNameError, UsageError
from geomodel.geo import Location, geodesic_km
from geomodel.hookspecs import PLUGIN_API_VERSION, hookimpl
from geomodel.lazy import lazy_getattr
from geomodel.plugin_loader import load_plugins

try:
    __version__ = version("geomodel")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

#: Public names loaded on first use, so ``import geomodel`` stays light (no Pyomo).
_LAZY = {
    "load_scenario": "geomodel.scenario",
    "Scenario": "geomodel.scenario",
    "ScenarioError": "geomodel.scenario",
    "build_inputs": "geomodel.inputs.build",
    "solve": "geomodel.api",
    "solve_inputs": "geomodel.api",
    "Result": "geomodel.results.result",
    "open_result": "geomodel.results.result",
    "run_batch": "geomodel.batch.engine",
    "open_batch": "geomodel.batch.store",
    "serving_estimate": "geomodel.performance.serving",
    "training_estimate": "geomodel.performance.training",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


def __dir__() -> list[str]:
    """Every public name, the lazily loaded ones too (``dir(geomodel)``, completion)."""
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "PLUGIN_API_VERSION",
    "Catalog",
    "GeomodelError",
    "HardwareSystem",
    "LanguageModel",
    "LinkTechnology",
    "Location",
    "PowerSource",
    "Result",
    "Scenario",
    "ScenarioError",
    "UnknownNameError",
    "UsageError",
    "WeatherPoint",
    "__version__",
    "build_catalog",
    "build_inputs",
    "geodesic_km",
    "hookimpl",
    "load_plugins",
    "load_scenario",
    "open_batch",
    "open_result",
    "run_batch",
    "serving_estimate",
    "solve",
    "solve_inputs",
    "training_estimate",
]
