"""geomodel.testing: the plugin author's kit.

Everything a plugin's own tests need, public and stable like the rest of
geomodel's API (docs/plugins.md, "Testing your plugin"):

* :func:`plugin_host` — a fresh plugin host holding only the plugins you name;
* :func:`minimal_scenario` and :func:`load_minimal_scenario` — the smallest valid
  scenario (one site, one firm source, one training job, four hours);
* :func:`check_plugin` / :func:`check_installed_plugin` — every conformance check
  on one plugin, as a :class:`ConformanceReport` of :class:`CheckResult` rows
  (``geomodel check-plugin`` prints the same);
* the checks one by one: :func:`check_entries`, :func:`check_profile`,
  :func:`check_weather_point`, :func:`check_names`, :func:`check_scenario_hooks`;
* pytest fixtures (``geomodel_check_plugin``, ``geomodel_plugin_host``,
  ``geomodel_minimal_scenario``), registered through the ``pytest11`` entry point
  of geomodel, so they need no import.
"""

from geomodel.testing.conformance import check_installed_plugin, check_plugin, run_checks
from geomodel.testing.entries import FIELD_UNITS, check_entries
from geomodel.testing.extension import (
    EXAMPLE_SETTINGS_ATTRIBUTE,
    check_scenario_hooks,
    component_prefix,
)
from geomodel.testing.hosts import (
    builtin_plugin_names,
    find_installed_plugin,
    plugin_host,
    plugin_name_of,
)
from geomodel.testing.names import OVERRIDES_ATTRIBUTE, check_names
from geomodel.testing.profiles import (
    DEFAULT_LOCATION,
    HOURLY_BOUNDS,
    MEAN_TOLERANCE,
    check_profile,
    year_index,
)
from geomodel.testing.results import CHECKS, CheckResult, ConformanceReport
from geomodel.testing.scenario import (
    MINIMAL_PLUGINS,
    MINIMAL_SITE,
    load_minimal_scenario,
    minimal_scenario,
)
from geomodel.testing.weather import check_weather_point

__all__ = [
    "CHECKS",
    "DEFAULT_LOCATION",
    "EXAMPLE_SETTINGS_ATTRIBUTE",
    "FIELD_UNITS",
    "HOURLY_BOUNDS",
    "MEAN_TOLERANCE",
    "MINIMAL_PLUGINS",
    "MINIMAL_SITE",
    "OVERRIDES_ATTRIBUTE",
    "CheckResult",
    "ConformanceReport",
    "builtin_plugin_names",
    "check_entries",
    "check_installed_plugin",
    "check_names",
    "check_plugin",
    "check_profile",
    "check_scenario_hooks",
    "check_weather_point",
    "component_prefix",
    "find_installed_plugin",
    "load_minimal_scenario",
    "minimal_scenario",
    "plugin_host",
    "plugin_name_of",
    "run_checks",
    "year_index",
]
