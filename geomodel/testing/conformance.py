"""Run every conformance check on one plugin: a module under test or an installed plugin."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

import pandas as pd

from geomodel.catalog import CATALOG_KINDS, build_catalog
from geomodel.catalog.entries import collecting_invalid_entries
from geomodel.geo import Location
from geomodel.hookspecs import PLUGIN_API_VERSION
from geomodel.plugin_loader import PluginHost, PluginInfo, load_plugins, normalise_name
from geomodel.testing.costs import check_build_costs, check_buildable
from geomodel.testing.entries import check_entries
from geomodel.testing.extension import EXAMPLE_SETTINGS_ATTRIBUTE, check_scenario_hooks
from geomodel.testing.hosts import (
    BUILTIN_DISTRIBUTION,
    builtin_plugin_names,
    loaded_plugin_named,
    plugin_host,
    plugin_name_of,
    refused_claims,
)
from geomodel.testing.names import Provider, check_names, declared_overrides
from geomodel.testing.profiles import check_profile
from geomodel.testing.results import CheckResult, ConformanceReport
from geomodel.testing.weather import check_weather_point


def check_plugin(
    plugin: Any,
    name: str | None = None,
    *,
    settings: dict[str, Any] | None = None,
    time_index: pd.DatetimeIndex | None = None,
    location: Location | None = None,
) -> ConformanceReport:
    """Check a plugin module (installed or not) beside geomodel's built-in plugins.

    ``name`` is the plugin's name (default: :func:`geomodel.testing.plugin_name_of`);
    ``settings`` the ``extensions.<name>`` settings for the scenario checks
    (default: the module's ``GEOMODEL_EXAMPLE_SETTINGS``); ``time_index`` and
    ``location`` where profiles are asked for (default: see
    :mod:`geomodel.testing.profiles`). Returns every result; call
    :meth:`ConformanceReport.assert_ok` to fail a test on any failure.
    """
    name = name or plugin_name_of(plugin)
    host = plugin_host(*builtin_plugin_names(), (name, plugin))
    return run_checks(host, name, plugin, settings=settings, time_index=time_index, location=location)


def check_installed_plugin(
    name: str,
    *,
    settings: dict[str, Any] | None = None,
    time_index: pd.DatetimeIndex | None = None,
    location: Location | None = None,
) -> ConformanceReport:
    """Check the installed plugin named ``name`` (entry-point or distribution name)
    as ``geomodel check-plugin`` does: beside the other plugins, loaded exactly as
    geomodel loads them (``GEOMODEL_DISABLE_PLUGINS`` applies), so the plugin checked
    is the one a run would use. A plugin the loader refused, could not import or was
    told to leave out fails ``loads`` with the loader's reason."""
    host = load_plugins(strict=False)
    found = loaded_plugin_named(host, name)
    if isinstance(found, CheckResult):
        report = ConformanceReport(found.plugin, _failed_distribution(host, found.plugin, name))
        report.extend([found])
        return report
    plugin = host.manager.get_plugin(found.name)
    report = run_checks(
        host, found.name, plugin, settings=settings, time_index=time_index, location=location
    )
    refused = refused_claims(host, found)
    if refused:
        report.results[0] = replace(report.results[0], message=f"{report.results[0].message}; {refused}")
    return report


def run_checks(
    host: PluginHost,
    name: str,
    plugin: Any,
    *,
    settings: dict[str, Any] | None = None,
    time_index: pd.DatetimeIndex | None = None,
    location: Location | None = None,
) -> ConformanceReport:
    """Every check of plugin ``name`` (the object ``plugin``) loaded in ``host``."""
    info = host.plugins.get(name) if host.manager.get_plugin(name) is plugin else None
    distribution = info.distribution if info else _failed_distribution(host, name)
    report = ConformanceReport(name, distribution)
    report.extend(_load_checks(host, info, name, plugin))
    if info is None:
        return report
    own, others, results = _catalogue_checks(host, name)
    report.extend(results)
    overrides, problems = declared_overrides(plugin, name)
    report.extend(problems)
    report.extend(check_names(name, own, others, overrides))
    for source in own.get("power sources", []):
        report.extend(check_profile(source, name, location=location, time_index=time_index))
    for point in own.get("weather points", []):
        report.extend(check_weather_point(point, name, time_index=time_index))
    if settings is None:
        settings = getattr(plugin, EXAMPLE_SETTINGS_ATTRIBUTE, None)
    catalog = build_catalog(host)
    report.extend(check_build_costs(own.get("build costs", []), catalog, name))
    report.extend(check_buildable(own, catalog, name))
    report.extend(check_scenario_hooks(host, catalog, name, settings))
    return report


def _failed_distribution(host: PluginHost, name: str, distribution: str = "") -> str:
    """The distribution of a plugin that did not load (``distribution`` if it is one)."""
    wanted = {normalise_name(name), normalise_name(distribution or name)}
    for failure in host.failures:
        if normalise_name(failure.distribution) in wanted:
            return failure.distribution
    for entry_name, dist in host.disabled.items():
        if wanted & {normalise_name(entry_name), normalise_name(dist)}:
            return dist
    return next((f.distribution for f in host.failures if f.name == name), "unknown")


def _load_checks(host: PluginHost, info: PluginInfo | None, name: str, plugin: Any) -> list[CheckResult]:
    if info is None:
        reasons = [f.reason for f in host.failures if f.name == name and f.stage == "load"] or [
            "not loaded"
        ]
        return [CheckResult("loads", name, "", "", False, "; ".join(reasons))]
    results = [CheckResult("loads", name, "", "", True, f"loaded from {info.module} ({info.label})")]
    declared = getattr(plugin, "GEOMODEL_PLUGIN_API", None)
    if declared is None:
        major = PLUGIN_API_VERSION.split(".")[0]
        message = f'declare the plugin API it was written for: GEOMODEL_PLUGIN_API = "{major}"'
        results.append(CheckResult("plugin-api", name, "", "GEOMODEL_PLUGIN_API", False, message))
    else:
        message = f"written for plugin API {declared}; this geomodel provides {PLUGIN_API_VERSION}"
        results.append(CheckResult("plugin-api", name, "", "GEOMODEL_PLUGIN_API", True, message))
    hooks = sorted(c.name for c in host.manager.get_hookcallers(plugin) or [])
    if hooks:
        results.append(CheckResult("hooks", name, "", "", True, f"implements {', '.join(hooks)}"))
    else:
        results.append(CheckResult("hooks", name, "", "", False, "implements no geomodel hook"))
    return results


def _catalogue_checks(
    host: PluginHost, name: str
) -> tuple[dict[str, list], dict[str, dict[str, Provider]], list[CheckResult]]:
    """(own valid entries by kind, other plugins' names by kind, results)."""
    own: dict[str, list] = {}
    others: dict[str, dict[str, Provider]] = defaultdict(dict)
    results: list[CheckResult] = []
    for kind, (hook, _) in CATALOG_KINDS.items():
        before = len(host.failures)
        with collecting_invalid_entries():
            returns = list(host.call_each(hook))
        for info, returned in returns:
            if info.name == name:
                checked, valid = check_entries(kind, returned, name)
                results.extend(checked)
                own[kind] = valid
                continue
            builtin = info.distribution == BUILTIN_DISTRIBUTION
            for item in returned if isinstance(returned, list | tuple) else []:
                entry_name = item.get("name") if isinstance(item, dict) else getattr(item, "name", None)
                if isinstance(entry_name, str):
                    others[kind].setdefault(entry_name, Provider(info.name, info.distribution, builtin))
        for failure in host.failures[before:]:
            if failure.name == name:
                message = f"{hook} raised {failure.reason}"
                results.append(CheckResult("hook-runs", name, "", "", False, message, kind))
        del host.failures[before:]
    return own, others, results
