"""The schema side of plugin settings: what ``extensions.<plugin name>`` is checked with.

A plugin declares its settings as a pydantic model (hook ``extension_settings``); the
base class and the site-name key type here make those settings behave like every
scenario section: unknown fields are errors with a did-you-mean, quantities take
units, and a site a plugin's settings name must be a site of the scenario.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, ValidationInfo

from geomodel.errors import closest_names
from geomodel.scenario.schema.fields import Name, Section

#: Key of the validation context holding the scenario the settings belong to.
SCENARIO_CONTEXT = "scenario"


class ExtensionSettings(Section):
    """Base of a plugin's settings model: unknown fields are errors, defaults are validated."""


def _known_site(name: str, info: ValidationInfo) -> str:
    """A site of the scenario being validated (any name when there is none to check)."""
    scenario = (info.context or {}).get(SCENARIO_CONTEXT)
    if scenario is None or name in scenario.sites:
        return name
    close = closest_names(name, list(scenario.sites))
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(f"unknown site {name!r}{hint} (known sites: {', '.join(scenario.sites)})")


#: A mapping key (or field) naming one of the scenario's sites.
SiteName = Annotated[Name, AfterValidator(_known_site)]


def validate_settings(model: type[Section], settings: Any, scenario: Any = None) -> Section:
    """``settings`` validated by a plugin's ``model``, site names against ``scenario``."""
    return model.model_validate(settings, context={SCENARIO_CONTEXT: scenario})
