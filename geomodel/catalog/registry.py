"""The catalogue: every hardware system, link technology and power source the
loaded plugins contribute, validated, with the plugin each name came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from geomodel.catalog.costs import BuildCost
from geomodel.catalog.entries import CatalogEntry, HardwareSystem, LinkTechnology, PowerSource
from geomodel.errors import UnknownNameError
from geomodel.plugin_loader import PluginFailure, PluginHost, PluginInfo, load_plugins, one_line

Entry = TypeVar("Entry", bound=CatalogEntry)

#: kind label -> (hook name, entry class); the order is the order of listings.
CATALOG_KINDS: dict[str, tuple[str, type[CatalogEntry]]] = {
    "hardware systems": ("register_hardware_systems", HardwareSystem),
    "link technologies": ("register_link_technologies", LinkTechnology),
    "power sources": ("register_power_sources", PowerSource),
    "build costs": ("register_build_costs", BuildCost),
}


@dataclass
class Catalog:
    """Named entries by kind, the plugins loaded and the failures met on the way."""

    hardware: dict[str, HardwareSystem] = field(default_factory=dict)
    links: dict[str, LinkTechnology] = field(default_factory=dict)
    power_sources: dict[str, PowerSource] = field(default_factory=dict)
    build_costs: dict[str, BuildCost] = field(default_factory=dict)
    provider: dict[tuple[str, str], str] = field(default_factory=dict)
    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)
    host: PluginHost | None = None

    def entries(self, kind: str) -> dict[str, Any]:
        return {
            "hardware systems": self.hardware,
            "link technologies": self.links,
            "power sources": self.power_sources,
            "build costs": self.build_costs,
        }[kind]

    def hardware_system(self, name: str) -> HardwareSystem:
        return _lookup(self.hardware, "hardware system", name)

    def link_technology(self, name: str) -> LinkTechnology:
        return _lookup(self.links, "link technology", name)

    def power_source(self, name: str) -> PowerSource:
        return _lookup(self.power_sources, "power source", name)

    def contributions(self, plugin_name: str) -> dict[str, list[str]]:
        """What one plugin contributes: kind -> sorted entry names."""
        return {
            kind: sorted(
                name for (k, name), p in self.provider.items() if k == kind and p == plugin_name
            )
            for kind in CATALOG_KINDS
        }

    def versions(self) -> dict[str, str]:
        """Distribution versions of the plugins in use, for result attributes."""
        return {info.distribution: info.version for info in self.plugins.values()}


def _lookup(entries: Mapping[str, Entry], kind: str, name: str) -> Entry:
    try:
        return entries[name]
    except KeyError:
        raise UnknownNameError(kind, name, entries) from None


def build_catalog(host: PluginHost | None = None) -> Catalog:
    """Collect and validate the entries of every loaded plugin into one catalogue."""
    host = host if host is not None else load_plugins()
    catalog = Catalog(host=host)
    for kind, (hook_name, entry_class) in CATALOG_KINDS.items():
        entries = catalog.entries(kind)
        for plugin, returned in host.call_each(hook_name):
            for entry in _validated(host, plugin, hook_name, entry_class, returned):
                if entry.name in entries:
                    first = catalog.provider[(kind, entry.name)]
                    host.fail(
                        plugin.name,
                        hook_name,
                        f"{kind[:-1]} {entry.name!r} is also defined by plugin {first!r} "
                        f"(distribution {host.plugins[first].distribution}); keeping the first",
                    )
                    continue
                entries[entry.name] = entry
                catalog.provider[(kind, entry.name)] = plugin.name
    catalog.plugins = dict(host.plugins)
    catalog.failures = host.failures
    return catalog


def _validated(
    host: PluginHost, plugin: PluginInfo, hook_name: str, entry_class: type[Entry], returned: Any
) -> list[Entry]:
    """Entries re-validated like user data; bad ones are reported and dropped."""
    if returned is None:
        return []
    if not isinstance(returned, list | tuple):
        host.fail(plugin.name, hook_name, f"returned {type(returned).__name__}, expected a list")
        return []
    valid = []
    for position, item in enumerate(returned):
        label = getattr(item, "name", None) or (item.get("name") if isinstance(item, dict) else None)
        where = f"entry {position} ({label!r})" if label else f"entry {position}"
        try:
            valid.append(_as_entry(entry_class, item))
        except (ValidationError, TypeError) as error:
            host.fail(plugin.name, hook_name, f"{where} is invalid: {one_line(error)}")
    return valid


def _as_entry(entry_class: type[Entry], item: Any) -> Entry:
    if isinstance(item, dict):
        return entry_class.model_validate(item)
    if not isinstance(item, entry_class):
        raise TypeError(f"expected {entry_class.__name__}, got {type(item).__name__}")
    # Re-validate: a plugin may have built the object with model_construct().
    cls: type[BaseModel] = type(item)
    return cls.model_validate(dict(item))
