"""The catalogue: every hardware system, link technology, power source, build cost and
weather point the loaded plugins contribute, validated, with the plugin each name came from."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from geomodel.catalog.costs import BuildCost
from geomodel.catalog.entries import (
    CatalogEntry,
    HardwareSystem,
    LinkTechnology,
    PowerSource,
    collecting_invalid_entries,
)
from geomodel.catalog.entry_problems import entry_problem_text
from geomodel.catalog.language_models import LanguageModel
from geomodel.catalog.weather import (
    WeatherMatch,
    WeatherPoint,
    nearest_weather_point,
    weather_point_in_reach,
)
from geomodel.errors import UnknownNameError
from geomodel.geo import Location
from geomodel.plugin_loader import (
    BUILTIN_DISTRIBUTION,
    DISABLE_ENV,
    PluginFailure,
    PluginHost,
    PluginInfo,
    load_plugins,
    one_line,
    strict_from_environment,
)

Entry = TypeVar("Entry", bound=CatalogEntry)

#: kind label -> one entry of that kind, in words
SINGULAR = {
    "hardware systems": "hardware system",
    "link technologies": "link technology",
    "power sources": "power source",
    "build costs": "build cost",
    "weather points": "weather point",
    "language models": "language model",
}
#: kind label -> (hook name, entry class); the order is the order of listings.
CATALOG_KINDS: dict[str, tuple[str, type[CatalogEntry]]] = {
    "hardware systems": ("register_hardware_systems", HardwareSystem),
    "link technologies": ("register_link_technologies", LinkTechnology),
    "power sources": ("register_power_sources", PowerSource),
    "build costs": ("register_build_costs", BuildCost),
    "weather points": ("register_weather_points", WeatherPoint),
    "language models": ("register_language_models", LanguageModel),
}


@dataclass
class Catalog:
    """Named entries by kind, the plugins loaded and the failures met on the way."""

    hardware: dict[str, HardwareSystem] = field(default_factory=dict)
    links: dict[str, LinkTechnology] = field(default_factory=dict)
    power_sources: dict[str, PowerSource] = field(default_factory=dict)
    build_costs: dict[str, BuildCost] = field(default_factory=dict)
    weather_points: dict[str, WeatherPoint] = field(default_factory=dict)
    language_models: dict[str, LanguageModel] = field(default_factory=dict)
    provider: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (kind, name) two or more third-party plugins define -> those plugins; used by none
    clashes: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)
    host: PluginHost | None = None

    def entries(self, kind: str) -> dict[str, Any]:
        return {
            "hardware systems": self.hardware,
            "link technologies": self.links,
            "power sources": self.power_sources,
            "build costs": self.build_costs,
            "weather points": self.weather_points,
            "language models": self.language_models,
        }[kind]

    def hardware_system(self, name: str) -> HardwareSystem:
        return self._lookup("hardware systems", name)

    def link_technology(self, name: str) -> LinkTechnology:
        return self._lookup("link technologies", name)

    def power_source(self, name: str) -> PowerSource:
        return self._lookup("power sources", name)

    def weather_point(self, name: str) -> WeatherPoint:
        return self._lookup("weather points", name)

    def language_model(self, name: str) -> LanguageModel:
        return self._lookup("language models", name)

    def nearest_weather_point(self, location: Location) -> WeatherMatch | None:
        """The nearest weather point to ``location`` however far, None when none is loaded."""
        return nearest_weather_point(self.weather_points.values(), location)

    def weather_point_in_reach(self, location: Location) -> WeatherMatch | None:
        """The nearest weather point whose reach holds ``location`` (the one a site there
        takes its weather from), or None: the site has no measured weather."""
        return weather_point_in_reach(self.weather_points.values(), location)

    def _lookup(self, kind: str, name: str) -> Any:
        entries = self.entries(kind)
        try:
            return entries[name]
        except KeyError:
            note = self.failure_note(kind, name)
            raise UnknownNameError(SINGULAR[kind], name, entries, note=note) from None

    def failure_note(self, kind: str, name: str) -> str:
        """Why ``name`` may be missing from ``kind``: the plugin that tried to register it
        and failed, or plugins whose whole load or hook of that kind failed; "" if none."""
        clash = self.clashes.get((kind, name))
        if clash:
            return clash_note(SINGULAR[kind], name, [self.plugins[p] for p in clash])
        exact = [f for f in self.failures if f.entry == name and f.kind == kind]
        if exact:
            return "; ".join(
                f"{_plugin_label(f)} tried to register {name!r} and failed: {f.reason}" for f in exact
            )
        lost = self.lost_note(kind)
        return f"it may be among the {kind} of a plugin that failed: {lost}" if lost else ""

    def lost_note(self, kind: str) -> str:
        """The plugins whose whole load or hook of ``kind`` failed, with why; "" if none."""
        hook = CATALOG_KINDS[kind][0]
        lost = [f for f in self.failures if not f.entry and f.stage in ("load", hook)]
        return "; ".join(f"{_plugin_label(f)} {_lost_what(f, kind)}: {f.reason}" for f in lost)

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


def clash_note(what: str, name: str, plugins: list[PluginInfo]) -> str:
    """Why a name two third-party plugins define is used from neither, and what to do."""
    listed = " and ".join(f"plugin {p.name!r} (distribution {p.distribution})" for p in plugins)
    return (
        f"{what} {name!r} is defined by {listed}, so geomodel uses neither (which one would "
        f"win must not depend on install order): uninstall one, or disable one by its "
        f"distribution name ({DISABLE_ENV}={plugins[-1].distribution})"
    )


def _plugin_label(failure: PluginFailure) -> str:
    return f"plugin {failure.name!r} (distribution {failure.distribution})"


def _lost_what(failure: PluginFailure, kind: str) -> str:
    return "failed to load" if failure.stage == "load" else f"could not register its {kind}"


def build_catalog(host: PluginHost | None = None) -> Catalog:
    """Collect and validate the entries of every loaded plugin into one catalogue.

    Built-ins load first (:func:`geomodel.plugin_loader.installed_entry_points`), so
    a name a later plugin defines again is refused and the failure names that later
    plugin; a name two third-party plugins define is used from neither
    (:attr:`Catalog.clashes`), and each is a failure naming the other. In strict mode
    every load and catalogue failure is raised at the end.
    """
    if host is None:
        host = load_plugins(strict=False)  # strict mode raises below, with every failure
        host.strict = strict_from_environment()
    catalog = Catalog(host=host)
    for kind, (hook_name, entry_class) in CATALOG_KINDS.items():
        entries = catalog.entries(kind)
        before = len(host.failures)
        with collecting_invalid_entries():
            returns = list(host.call_each(hook_name))
        for plugin, returned in returns:
            for entry in _validated(host, plugin, kind, entry_class, returned):
                if (kind, entry.name) in catalog.clashes or entry.name in entries:
                    _refuse(host, catalog, plugin, kind, entry.name)
                    continue
                entries[entry.name] = entry
                catalog.provider[(kind, entry.name)] = plugin.name
        _report_clashes(host, catalog, kind)
        host.failures[before:] = [
            failure if failure.kind else replace(failure, kind=kind)
            for failure in host.failures[before:]
        ]
    catalog.plugins = dict(host.plugins)
    catalog.failures = host.failures
    host.raise_if_strict()
    return catalog


def _refuse(host: PluginHost, catalog: Catalog, plugin: PluginInfo, kind: str, name: str) -> None:
    """A second definition of ``name``. Against a built-in the later plugin is the
    failure; between third-party plugins the name is taken from all of them, and each
    is a failure naming the others, so the plan never depends on load order."""
    clash = catalog.clashes.get((kind, name))
    if clash is None:
        first = host.plugins[catalog.provider[(kind, name)]]
        if first.name == plugin.name:  # the plugin's own list decides, not install order
            host.fail(
                plugin.name,
                CATALOG_KINDS[kind][0],
                f"{SINGULAR[kind]} {name!r} is returned twice: the first is kept",
                entry=name,
                kind=kind,
            )
            return
        if first.distribution == BUILTIN_DISTRIBUTION:
            host.fail(
                plugin.name,
                CATALOG_KINDS[kind][0],
                f"{SINGULAR[kind]} {name!r} is also defined by plugin {first.name!r} "
                f"(distribution {first.distribution}), which loaded first: refused, a built-in "
                "entry cannot be replaced",
                entry=name,
                kind=kind,
            )
            return
        clash = catalog.clashes[(kind, name)] = [first.name]
        del catalog.entries(kind)[name], catalog.provider[(kind, name)]
    clash.append(plugin.name)


def _report_clashes(host: PluginHost, catalog: Catalog, kind: str) -> None:
    """One failure per plugin of each name of ``kind`` that several plugins define."""
    for (clash_kind, name), plugins in catalog.clashes.items():
        if clash_kind != kind:
            continue
        infos = [host.plugins[p] for p in plugins]
        note = clash_note(SINGULAR[kind], name, infos)
        for info in infos:
            host.fail(info.name, CATALOG_KINDS[kind][0], note, entry=name, kind=kind)


def _validated(
    host: PluginHost, plugin: PluginInfo, kind: str, entry_class: type[Entry], returned: Any
) -> list[Entry]:
    """Entries re-validated like user data; bad ones are reported and dropped."""
    hook_name = CATALOG_KINDS[kind][0]
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
            cls, data = _fields_of(entry_class, item)
            valid.append(cls.model_validate(data))
        except (ValidationError, TypeError) as error:
            reason = (
                entry_problem_text(error, cls, data)
                if isinstance(error, ValidationError)
                else one_line(error)
            )
            host.fail(
                plugin.name,
                hook_name,
                f"{where} is invalid: {reason}",
                entry=label if isinstance(label, str) else "",
                kind=kind,
            )
    return valid


def _fields_of(entry_class: type[Entry], item: Any) -> tuple[type[BaseModel], dict]:
    """The class to validate ``item`` with and the fields to validate."""
    if isinstance(item, dict):
        return entry_class, item
    if not isinstance(item, entry_class):
        raise TypeError(f"expected {entry_class.__name__}, got {type(item).__name__}")
    # Re-validate: a plugin may have built the object with model_construct(), or its
    # constructor found a bad value while the hook ran (collecting_invalid_entries).
    return type(item), item.given_fields()
