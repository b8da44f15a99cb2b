"""Fresh plugin hosts holding only the plugins a test names."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from types import ModuleType

from geomodel.errors import UnknownNameError, UsageError
from geomodel.plugin_loader import (
    BUILTIN_DISTRIBUTION,
    DISABLE_ENV,
    PluginHost,
    PluginInfo,
    _dist_name,
    _load_entry_point,
    _module_name,
    _register,
    installed_entry_points,
    new_host,
    normalise_name,
)
from geomodel.testing.results import CheckResult

PluginSpec = str | ModuleType | object | tuple[str, object]


def builtin_plugin_names() -> list[str]:
    """Entry-point names of geomodel's own plugins (``hardware``, ``grid``, ...)."""
    return [ep.name for ep in installed_entry_points() if _dist_name(ep) == BUILTIN_DISTRIBUTION]


def plugin_name_of(plugin: object) -> str:
    """The name a plugin is known by: the entry point that names its module when it is
    installed, else its ``NAME`` attribute, else the last part of its import name."""
    found = _entry_point_of(plugin)
    if found is not None:
        return found.name
    name = getattr(plugin, "NAME", None)
    if isinstance(name, str) and name:
        return name
    return _module_name(plugin).rsplit(".", 1)[-1]


def _entry_point_of(plugin: object) -> EntryPoint | None:
    module = getattr(plugin, "__name__", None)
    if not isinstance(module, str):
        return None
    for entry_point in installed_entry_points():
        if entry_point.value == module:
            return entry_point
    return None


def plugin_host(*plugins: PluginSpec, strict: bool = False) -> PluginHost:
    """A fresh host holding exactly ``plugins``, in the order given.

    Each plugin is the entry-point name of an installed plugin (``"hardware"``),
    a ``(name, module)`` pair, or a module (named by :func:`plugin_name_of`).
    ``GEOMODEL_DISABLE_PLUGINS`` does not apply: a test gets what it names.
    ``strict=True`` makes any failure raise :class:`geomodel.errors.PluginError`
    listing all of them: load failures here, catalogue failures in ``build_catalog``.
    """
    host = new_host(strict)
    installed = {ep.name: ep for ep in installed_entry_points()}
    for plugin in plugins:
        if isinstance(plugin, str):
            if plugin not in installed:
                raise UnknownNameError("plugin", plugin, installed)
            _load_entry_point(host, installed[plugin])
            continue
        if isinstance(plugin, tuple):
            name, module = plugin
        else:
            name, module = plugin_name_of(plugin), plugin
        entry_point = _entry_point_of(module)
        if entry_point is not None and entry_point.name == name:
            distribution, version = _dist_name(entry_point), str(entry_point.dist.version)
        else:
            distribution, version = "local", "0"
        _register(host, name, module, distribution, version, _module_name(module))
    host.raise_if_strict()
    return host


def find_installed_plugin(name: str) -> EntryPoint:
    """The installed entry point whose entry-point name or distribution name is ``name``
    (of several with one entry-point name, the one the loader tries first)."""
    wanted = normalise_name(name)
    candidates = installed_entry_points()
    for entry_point in candidates:
        if normalise_name(entry_point.name) == wanted:
            return entry_point
    by_distribution = [ep for ep in candidates if normalise_name(_dist_name(ep)) == wanted]
    if len(by_distribution) == 1:
        return by_distribution[0]
    if by_distribution:
        raise _several_plugins(name, [ep.name for ep in by_distribution])
    known = {ep.name for ep in candidates} | {_dist_name(ep) for ep in candidates}
    raise UnknownNameError("plugin", name, known)


def _several_plugins(distribution: str, names: list[str]) -> UsageError:
    listed = ", ".join(names)
    return UsageError(
        "NAME", f"distribution {distribution} holds several plugins ({listed}); name one of them"
    )


def loaded_plugin_named(host: PluginHost, name: str) -> PluginInfo | CheckResult:
    """The plugin ``host`` loaded under the entry-point or distribution name ``name``;
    else the failed ``loads`` result that says why the loader has none (refused,
    failed to import, disabled). Raises UnknownNameError when nothing installed
    goes by that name, UsageError when a distribution holds several plugins."""
    wanted = normalise_name(name)
    loaded = [info for info in host.plugins.values() if normalise_name(info.name) == wanted]
    loaded = loaded or [
        info for info in host.plugins.values() if normalise_name(info.distribution) == wanted
    ]
    if len(loaded) > 1:
        raise _several_plugins(name, [info.name for info in loaded])
    if loaded:
        return loaded[0]
    failed = [
        f
        for f in host.failures
        if f.stage == "load" and wanted in {normalise_name(f.name), normalise_name(f.distribution)}
    ]
    if failed:
        reasons = "; ".join(f"distribution {f.distribution}: {f.reason}" for f in failed)
        message = f"geomodel does not load this plugin: {reasons}"
        return CheckResult("loads", failed[0].name, "", "", False, message)
    for entry_name, distribution in host.disabled.items():
        if wanted in {normalise_name(entry_name), normalise_name(distribution)}:
            message = (
                f"disabled by {DISABLE_ENV} (distribution {distribution}): geomodel does not "
                f"load it; unset {DISABLE_ENV} or take the name out to check it"
            )
            return CheckResult("loads", entry_name, "", "", False, message)
    find_installed_plugin(name)  # raises for a name nothing installed has
    message = f"installed, but geomodel loaded no plugin named {name!r}"
    return CheckResult("loads", name, "", "", False, message)


def refused_claims(host: PluginHost, info: PluginInfo) -> str:
    """What the loader refused of other distributions claiming ``info``'s plugin name."""
    refused = [
        f
        for f in host.failures
        if f.stage == "load" and f.name == info.name and f.distribution != info.distribution
    ]
    return "; ".join(
        f"distribution {f.distribution}'s plugin of that name was refused: {f.reason}" for f in refused
    )
