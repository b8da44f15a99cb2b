"""What a model-extension plugin uses of geomodel: typed settings and typed outputs.

A plugin declares its ``extensions.<plugin name>`` settings as a model derived from
:class:`ExtensionSettings` (hook ``extension_settings``), with :func:`Quantity` fields
for figures with units and :data:`SiteName` keys for per-site settings; geomodel
validates them with the scenario. ``extend_model`` reads them back with
:func:`settings_from_inputs`; ``extension_results`` returns :class:`ExtensionVariable`
and :class:`ExtensionKpi` items for the results and ``geomodel report``.
docs/plugins.md shows a whole plugin built this way.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, TypeVar

from geomodel.results.extension_outputs import ExtensionKpi, ExtensionOutput, ExtensionVariable
from geomodel.scenario.schema.extensions import ExtensionSettings, SiteName, validate_settings
from geomodel.scenario.units import Quantity

if TYPE_CHECKING:
    import xarray as xr

Settings = TypeVar("Settings", bound=ExtensionSettings)

#: Inputs attribute with every plugin's settings (validated ones with their defaults).
SETTINGS_ATTRIBUTE = "extensions_json"


def settings_from_inputs(inputs: xr.Dataset, plugin: str, model: type[Settings]) -> Settings | None:
    """The settings of ``extensions.<plugin>`` the inputs carry, as ``model``; None when
    the scenario gives none (then the extension adds nothing)."""
    settings = json.loads(inputs.attrs.get(SETTINGS_ATTRIBUTE, "{}")).get(plugin)
    return None if settings is None else validate_settings(model, settings)


__all__ = [
    "SETTINGS_ATTRIBUTE",
    "ExtensionKpi",
    "ExtensionOutput",
    "ExtensionSettings",
    "ExtensionVariable",
    "Quantity",
    "SiteName",
    "settings_from_inputs",
]
