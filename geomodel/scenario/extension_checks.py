"""Checks of a scenario's ``extensions`` section: whose settings they are, and whether
they hold.

Settings for an extension no loaded plugin provides would be ignored and the plan
solved without it, so each key must name a loaded plugin that takes settings; a
misspelt name gets the closest names, and a plugin that is disabled or failed to load
is named with why. A plugin that declares its settings (hook ``extension_settings``)
has them validated like every scenario field, each problem at its file and line.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from geomodel.catalog import Catalog
from geomodel.errors import closest_names
from geomodel.plugin_loader import DISABLE_ENV, PluginFailure
from geomodel.scenario.checker import Checker
from geomodel.scenario.errors import problems_from_validation
from geomodel.scenario.schema.extensions import validate_settings

#: Hooks through which a plugin reads its ``extensions.<plugin name>`` settings.
SETTINGS_HOOKS = ("extension_settings", "validate_scenario", "extend_model", "extension_results")
SETTINGS_HOOK = SETTINGS_HOOKS[0]


def check_extensions(c: Checker) -> None:
    """Each ``extensions.<name>`` names a loaded plugin that takes settings, and its
    settings validate against the model that plugin declares."""
    if not c.scenario.extensions or c.catalog.host is None:
        return  # a catalogue made by hand knows no plugins to check against
    takers = settings_plugins(c.catalog)
    models = settings_models(c)
    for name, settings in c.scenario.extensions.items():
        path = ("extensions", name)
        if name not in takers:
            c.add(path, _not_provided(c.catalog, name, takers))
            continue
        model = models.get(name)
        if model is None:
            continue
        try:
            validate_settings(model, settings, c.scenario)
        except ValidationError as error:
            c.problems.extend(problems_from_validation(error, model, c.document, prefix=path))


def settings_plugins(catalog: Catalog) -> list[str]:
    """Loaded plugins that implement a hook reading ``extensions.<plugin name>``."""
    host = catalog.host
    return [
        name
        for name in host.plugins
        if any(
            caller.name in SETTINGS_HOOKS
            for caller in host.manager.get_hookcallers(host.manager.get_plugin(name)) or []
        )
    ]


def settings_models(c: Checker) -> dict[str, type[BaseModel]]:
    """Plugin name -> the settings model it declares; a bad answer, or a hook that
    raises, is a problem of the scenario's settings for that plugin."""
    host = c.catalog.host
    models: dict[str, type[BaseModel]] = {}
    before = len(host.failures)
    for plugin, model in host.call_each(SETTINGS_HOOK):
        if isinstance(model, type) and issubclass(model, BaseModel):
            models[plugin.name] = model
        elif model is not None and plugin.name in c.scenario.extensions:
            c.add(
                ("extensions", plugin.name),
                f"plugin {plugin.name!r} (distribution {plugin.distribution}) could not check "
                f"these settings: its {SETTINGS_HOOK} returned {type(model).__name__}, not a "
                "pydantic model class; fix or disable the plugin",
            )
    for failure in host.failures[before:]:
        if failure.name in c.scenario.extensions:
            c.add(("extensions", failure.name), f"{failure}: these settings could not be checked")
    return models


def _not_provided(catalog: Catalog, name: str, takers: list[str]) -> str:
    """Why no plugin takes the settings under ``extensions.<name>``."""
    ignored = "so these settings would be ignored and the plan solved without them"
    disabled = catalog.host.disabled
    if name in disabled:
        return (
            f"plugin {name!r} (distribution {disabled[name]}) is disabled by {DISABLE_ENV}, "
            f"{ignored}: enable it, or remove extensions.{name}"
        )
    failed = [f for f in catalog.failures if f.name == name and f.stage == "load"]
    if failed:
        return f"{_failed(failed[0])}, {ignored}: fix it, or remove extensions.{name}"
    if name in catalog.plugins:
        return (
            f"plugin {name!r} takes no settings (it implements none of {', '.join(SETTINGS_HOOKS)}), "
            f"{ignored}"
        )
    close = closest_names(name, takers)
    hint = f"did you mean {', '.join(repr(n) for n in close)}? " if close else ""
    loaded = ", ".join(takers) if takers else "none"
    return (
        f"no loaded plugin named {name!r} takes settings, {ignored}; {hint}"
        f"(plugins that take settings: {loaded}; see `geomodel plugins`)"
    )


def _failed(failure: PluginFailure) -> str:
    where = f"plugin {failure.name!r} (distribution {failure.distribution})"
    return f"{where} failed to load ({failure.reason})"


def settings_for_inputs(scenario: Any, catalog: Catalog) -> dict[str, Any]:
    """The ``extensions`` section as the inputs carry it: a plugin's declared settings
    validated, with their defaults, in their units; other plugins' as given."""
    if not scenario.extensions:
        return {}
    host = catalog.host
    models = {}
    if host is not None:
        before = len(host.failures)
        models = {
            plugin.name: model
            for plugin, model in host.call_each(SETTINGS_HOOK)
            if isinstance(model, type) and issubclass(model, BaseModel)
        }
        del host.failures[before:]  # reported when the scenario was checked
    return {
        name: validate_settings(models[name], settings).model_dump(mode="json")
        if name in models
        else settings
        for name, settings in scenario.extensions.items()
    }
