"""Fresh plugin hosts holding only the plugins a test names."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from types import ModuleType

from geomodel.errors import UnknownNameError, UsageError
from geomodel.plugin_loader import (
    BUILTIN_DISTRIBUTION,
    PluginHost,
    _dist_name,
    _load_entry_point,
    _module_name,
    _register,
    installed_entry_points,
    new_host,
    normalise_name,
)

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
    """The installed plugin whose entry-point name or distribution name is ``name``."""
    wanted = normalise_name(name)
    candidates = installed_entry_points()
    for entry_point in candidates:
        if normalise_name(entry_point.name) == wanted:
            return entry_point
    by_distribution = [ep for ep in candidates if normalise_name(_dist_name(ep)) == wanted]
    if len(by_distribution) == 1:
        return by_distribution[0]
    if by_distribution:
        names = ", ".join(ep.name for ep in by_distribution)
        raise UsageError(
            "NAME", f"distribution {name} holds several plugins ({names}); name one of them"
        )
    known = {ep.name for ep in candidates} | {_dist_name(ep) for ep in candidates}
    raise UnknownNameError("plugin", name, known)
