"""Outputs of model extensions in the results: each plugin's ``extension_results``.

Every output is checked before it joins: named with the plugin's prefix, not a name
the core uses, units and a description given, a variable on existing dimensions with
their sizes, finite numbers. One that breaks a rule, or a hook that raises, is left
out with a warning naming the plugin, so a missing output is never silent. KPIs are
stored in the results' ``extension_kpis_json`` attribute (name -> value, units,
description, plugin), which :func:`extension_kpi_specs` reads back.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import numpy as np
import xarray as xr

from geomodel.plugin_loader import component_prefix
from geomodel.results.extension_outputs import ExtensionKpi, ExtensionVariable
from geomodel.results.kpis import KPI_SPECS

if TYPE_CHECKING:
    from geomodel.plugin_loader import PluginHost

HOOK = "extension_results"
#: results attribute holding the extensions' KPIs
KPIS_ATTRIBUTE = "extension_kpis_json"


def add_extension_results(
    model: Any, inputs: xr.Dataset, results: xr.Dataset, host: PluginHost | None
) -> tuple[dict[str, float], list[str]]:
    """Add every plugin's valid outputs to ``results``; (KPIs by name, warnings)."""
    if host is None:
        return {}, []
    kpis: dict[str, dict[str, Any]] = {}
    warnings: list[str] = []
    before = len(host.failures)
    view = results.copy()  # what the hook sees; it must not change the results
    for plugin, returned in host.call_each(HOOK, model=model, inputs=inputs, results=view):
        if returned is None:
            continue
        outputs = returned if isinstance(returned, list | tuple) else [returned]
        for output in outputs:
            problem = _problem(output, plugin.name, results, kpis)
            if problem:
                warnings.append(
                    f"warning: plugin {plugin.name!r} (distribution {plugin.distribution}) "
                    f"{HOOK}: {problem}; left out of the results"
                )
            elif isinstance(output, ExtensionVariable):
                results[output.name] = xr.Variable(
                    output.dims,
                    np.asarray(output.values, dtype=float),
                    {"units": output.units, "description": output.description},
                )
            else:
                kpis[output.name] = {
                    "value": float(output.value),
                    "units": output.units,
                    "description": output.description,
                    "plugin": plugin.name,
                }
    for failure in host.failures[before:]:
        warnings.append(f"warning: {failure}; its outputs are missing from the results")
    if kpis:
        results.attrs[KPIS_ATTRIBUTE] = json.dumps(kpis, sort_keys=True)
    return {name: spec["value"] for name, spec in kpis.items()}, warnings


def _problem(output: Any, plugin: str, results: xr.Dataset, kpis: dict[str, Any]) -> str:
    """Why ``output`` cannot join the results; "" when it can."""
    if not isinstance(output, ExtensionVariable | ExtensionKpi):
        return (
            f"returned a {type(output).__name__}; return ExtensionVariable and ExtensionKpi "
            "items (geomodel.extensions)"
        )
    name = output.name
    prefix = component_prefix(plugin)
    if not isinstance(name, str) or not name.startswith(prefix):
        return f"output {name!r} must be named with the plugin's prefix {prefix!r}"
    if name in results.variables or name in KPI_SPECS or name in kpis:
        return f"output {name!r} is already a results name"
    for attribute in ("units", "description"):
        if not isinstance(getattr(output, attribute), str) or not getattr(output, attribute).strip():
            return f"output {name!r} needs its {attribute} (text)"
    if isinstance(output, ExtensionKpi):
        value = output.value
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return f"KPI {name!r} = {value!r} is not a finite number"
        return ""
    return _variable_problem(output, results)


def _variable_problem(output: ExtensionVariable, results: xr.Dataset) -> str:
    dims = tuple(output.dims)
    unknown = [d for d in dims if d not in results.sizes]
    if unknown:
        return (
            f"variable {output.name!r} is on dimensions {unknown} the results lack "
            f"(they have {', '.join(results.sizes)})"
        )
    try:
        values = np.asarray(output.values, dtype=float)
    except (TypeError, ValueError):
        return f"variable {output.name!r} has values that are not numbers"
    shape = tuple(results.sizes[d] for d in dims)
    if values.shape != shape:
        return f"variable {output.name!r} has shape {values.shape}; its dimensions {dims} are {shape}"
    if not np.isfinite(values).all():
        return f"variable {output.name!r} has values that are not finite"
    return ""


def extension_kpi_specs(dataset: xr.Dataset) -> dict[str, dict[str, Any]]:
    """The extensions' KPIs a results Dataset records: name -> value, units, description,
    plugin (empty when none)."""
    text = dataset.attrs.get(KPIS_ATTRIBUTE, "")
    return json.loads(text) if text else {}
