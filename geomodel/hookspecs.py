"""The plugin contract: every hook a geomodel plugin may implement.

This module is the public plugin API. Each hook is an empty function whose
docstring is its documentation; ``docs/plugins.md`` has a section per hook and a
test keeps the two in step. Arguments are only ever added, never removed or
renamed without a deprecation period (pluggy's ``warn_on_impl_args``), and a
plugin may implement a hook with fewer arguments than the spec lists.

A plugin module may declare ``GEOMODEL_PLUGIN_API = "1"``: the major version of
this contract it was written for (or ``"1.4"``: the version whose hooks it uses).
A plugin built for another major version is refused with both versions in the
message; one that needs a later minor version than this geomodel provides is
refused with the geomodel release that provides it.

Versions (:data:`PLUGIN_API_HISTORY`): each plugin API version, what it added and
the first geomodel release that provides it. Require that release in a plugin's
``dependencies`` when it uses what the version added.

============  ===============  ==========================================================
plugin API    geomodel         added
============  ===============  ==========================================================
1.0           0.1.0            catalogue hooks for hardware, links and power;
                               ``validate_scenario``; ``extend_model``
1.1           0.1.0            ``register_build_costs``
1.2           0.1.0            ``register_weather_points``
1.3           0.2.0            ``extension_settings``; ``extension_results``
1.4           0.2.0            ``register_language_models``
============  ===============  ==========================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import xarray as xr
    from pydantic import BaseModel

    from geomodel.catalog.costs import BuildCost
    from geomodel.catalog.entries import HardwareSystem, LinkTechnology, PowerSource
    from geomodel.catalog.language_models import LanguageModel
    from geomodel.catalog.weather import WeatherPoint
    from geomodel.results.extension_outputs import ExtensionOutput

PROJECT_NAME = "geomodel"
#: Version of this contract; the major part must match a plugin's GEOMODEL_PLUGIN_API.
PLUGIN_API_VERSION = "1.4"
#: Plugin API version -> the first geomodel release that provides it (table above).
PLUGIN_API_HISTORY: dict[str, str] = {
    "1.0": "0.1.0",
    "1.1": "0.1.0",
    "1.2": "0.1.0",
    "1.3": "0.2.0",
    "1.4": "0.2.0",
}

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


# --- catalogue: called once when the catalogue is built ----------------------


@hookspec
def register_hardware_systems() -> list[HardwareSystem]:
    """Hardware systems this plugin contributes to the catalogue.

    Returns:
        A list of :class:`geomodel.catalog.HardwareSystem`. Each is validated on
        return; an invalid entry is reported with the plugin's name and skipped
        (also one whose constructor raised inside the hook: the others are kept).
        A name a built-in (or an earlier plugin) has is refused.
    Units:
        ``*_pflops_per_chip`` dense PFLOPS; ``hbm_gb_per_chip`` GB;
        ``active_power_kw_per_chip`` (nameplate) and ``idle_power_kw_per_chip`` kW per
        chip including its share of host, switch and fan power; optional
        ``training_power_kw_per_chip`` and ``serving_power_kw_per_chip``, the same
        scope at typical load (default: the nameplate);
        ``scale_up_bandwidth_gbyte_s_per_chip`` GB/s bidirectional;
        ``scale_out_bandwidth_gbit_s_per_chip`` Gb/s; ``mtbf_hours_per_chip`` h;
        ``capex_usd_per_system`` USD.
    Called:
        once per catalogue build, with no arguments.
    firstresult:
        no; the lists of all plugins are joined. A name given by two plugins is
        an error naming both.
    Added in:
        plugin API 1.0
    """


@hookspec
def register_link_technologies() -> list[LinkTechnology]:
    """Data-centre interconnect technologies (fibre kind plus optics).

    Returns:
        A list of :class:`geomodel.catalog.LinkTechnology`, validated on return.
    Units:
        ``latency_us_per_km`` one-way microseconds per fibre km;
        ``capacity_gbit_s_per_fibre_pair`` Gb/s; ``transceiver_power_w_per_gbit_s``
        W per Gb/s for both ends; ``amplifier_power_w_per_span`` W per fibre pair;
        ``span_km``, ``reach_km`` km; ``route_factor`` fibre km per great-circle km;
        ``capex_usd_per_km`` USD.
    Called:
        once per catalogue build, with no arguments.
    firstresult:
        no; the lists of all plugins are joined.
    Added in:
        plugin API 1.0
    """


@hookspec
def register_power_sources() -> list[PowerSource]:
    """Power sources: grid regions (kind ``grid``) and generators.

    Returns:
        A list of :class:`geomodel.catalog.PowerSource` (or subclasses). A source's
        ``hourly_profile(location, time_index)`` maps a site location and an
        hourly, timezone-aware ``pandas.DatetimeIndex`` to a DataFrame on that
        index with columns ``capacity_factor``, ``price_usd_per_mwh`` and
        ``carbon_kg_per_mwh`` (optionally ``carbon_direct_kg_per_mwh`` and
        ``carbon_lifecycle_kg_per_mwh`` too); ``series_basis()`` says what each
        series rests on and ``shaped()`` gives the source on shaped profiles only.
    Units:
        ``price_usd_per_mwh`` USD/MWh; ``carbon_kg_per_mwh`` kgCO2e/MWh
        (= gCO2e/kWh); ``capacity_factor`` dimensionless in [0, 1], the annual
        mean of the profile.
    Called:
        once per catalogue build; profiles are called when a scenario is turned
        into model inputs, once per (site, source) pair.
    firstresult:
        no; the lists of all plugins are joined.
    Added in:
        plugin API 1.0
    """


@hookspec
def register_build_costs() -> list[BuildCost]:
    """Build costs: capex, fixed O&M and lifetime of assets planning mode may build.

    A plugin prices its own entries by listing them in ``applies_to`` (its hardware
    systems, power sources or link technologies); ``applies_to`` may also name a
    generic asset (``facility``, ``site``, ``battery_power``, ``battery_energy``).
    A scenario's build option takes the entry that applies to it unless it names
    another (``cost: NAME``) or gives its own figures.

    Returns:
        A list of :class:`geomodel.catalog.BuildCost`, validated on return.
    Units:
        ``capex_usd_per_unit`` USD and ``fixed_om_usd_per_unit_year`` USD a year, per
        ``unit`` (system, site, MW, MW_IT, MWh, km, pair_km, pair, pair_span, module);
        ``variable_cost_usd_per_mwh`` USD/MWh; ``lifetime_years`` years;
        ``gbit_s_per_unit`` Gb/s; ``usd_year`` the dollar basis.
    Called:
        once per catalogue build, with no arguments.
    firstresult:
        no; the lists of all plugins are joined. Two entries applying to the same
        asset are reported by the conformance checks; a scenario then names one.
    Added in:
        plugin API 1.1
    """


@hookspec
def register_weather_points() -> list[WeatherPoint]:
    """Weather points: places whose hourly weather sites within reach take.

    Weather-driven PUE, solar and wind read the weather at a site from the nearest
    point whose ``reach_km`` holds the site (a tie goes to the point loaded first, so
    a built-in); a site with no point in reach has no measured weather, and a scenario
    that asks it for weather-driven figures gets one line naming the nearest point.

    Returns:
        A list of :class:`geomodel.catalog.WeatherPoint` (or subclasses), validated on
        return. A point's ``hourly_weather(time_index)`` maps an hourly,
        timezone-aware ``pandas.DatetimeIndex`` to a DataFrame on that index with
        columns ``temperature_c``, ``relative_humidity_pct``, ``cloud_cover_pct`` and
        ``wind_speed_10m_m_s``, without gaps; ``hourly_coverage()`` returns the hours
        it has weather for, or None for any hour (by the plugin's own rule, as the
        built-in maps any year onto its measured one).
    Units:
        ``temperature_c`` degC at 2 m; ``relative_humidity_pct`` % at 2 m;
        ``cloud_cover_pct`` % of the sky; ``wind_speed_10m_m_s`` m/s at 10 m;
        ``reach_km`` great-circle km; ``location`` degrees (WGS84).
    Called:
        once per catalogue build, with no arguments; ``hourly_weather`` when a
        scenario with weather-driven figures is turned into model inputs, once per
        (site, figure) that follows the weather.
    firstresult:
        no; the lists of all plugins are joined. A name a built-in (or an earlier
        plugin) has is refused.
    Added in:
        plugin API 1.2
    """


@hookspec
def register_language_models() -> list[LanguageModel]:
    """Language models services may name: the shape serving and training them need.

    Returns:
        A list of :class:`geomodel.catalog.LanguageModel`, validated on return: total
        and active parameters, layers, widths, the numbers the KV cache keeps per token
        and, for a mixture of experts, experts and experts per token.
    Units:
        ``params`` and ``active_params`` parameters; ``kv_values_per_token`` numbers per
        token over all layers (bytes follow from the service's KV precision);
        ``context_tokens`` tokens.
    Called:
        once per catalogue build, with no arguments.
    firstresult:
        no; the lists of all plugins are joined. A name a built-in (or an earlier
        plugin) has is refused.
    Added in:
        plugin API 1.4
    """


# --- scenario: called when a scenario is validated --------------------------


@hookspec
def validate_scenario(scenario: Any, catalog: Any) -> list[str]:
    """Extra checks a plugin makes on a scenario that passed the core validation.

    Parameters:
        scenario: the validated scenario object.
        catalog: the :class:`geomodel.Catalog` the scenario is resolved against.
    Returns:
        A list of problems, each one sentence; empty when fine. A problem that
        starts with the field path and a colon (``extensions.acme.sites.a: ...``)
        is reported at that field's file and line. An implementation that raises
        is a problem of the scenario too (its check could not run), reported with
        the plugin's name.
    Units:
        none.
    Called:
        after the core validation of a scenario, before inputs are built.
    firstresult:
        no; the problems of all plugins are reported together.
    Added in:
        plugin API 1.0
    """


@hookspec
def extension_settings() -> type[BaseModel] | None:
    """The pydantic model of this plugin's settings under ``extensions.<plugin name>``.

    Declaring the settings makes geomodel check them like every scenario field:
    types, ranges, units (a :func:`geomodel.extensions.Quantity` field takes
    ``"400 MWh"`` or a bare number in its unit), defaults, unknown fields with a
    did-you-mean, each problem at its file and line, all of a file at once. Derive
    the model from :class:`geomodel.extensions.ExtensionSettings` (unknown fields
    are errors); key per-site settings by :data:`geomodel.extensions.SiteName` to
    have site names checked against the scenario. ``extend_model`` then reads the
    validated settings with :func:`geomodel.extensions.settings_from_inputs`.

    Returns:
        A pydantic model class, or None for no declared settings (the plugin then
        checks its settings itself, in ``validate_scenario``). Something else is a
        failure of the plugin and a problem of any scenario that gives it settings.
    Units:
        those the model's fields declare; validated values are stored in them.
    Called:
        when a scenario that has an ``extensions`` section is validated, and when
        its inputs are built (the validated settings, with their defaults, go
        into the inputs' ``extensions_json`` attribute).
    firstresult:
        no; each plugin answers for its own ``extensions.<plugin name>``.
    Added in:
        plugin API 1.3
    """


# --- model: called when the optimisation model is built ----------------------


@hookspec
def extend_model(model: Any, inputs: xr.Dataset) -> None:
    """Add variables, constraints or objective terms to the optimisation model.

    Parameters:
        model: the Pyomo ``ConcreteModel`` after the core build and before the
            solve; add components with names prefixed by the plugin's name.
        inputs: the validated inputs Dataset the model was built from.
    Returns:
        None; the hook changes ``model`` in place. An implementation that raises
        fails the solve with :class:`geomodel.errors.ExtensionError` naming the
        plugin, unless the caller allows broken extensions; docs/plugins.md lists
        the model's names an extension may use.
    Units:
        model units: MW for power, MWh for energy, thousand USD for cost terms,
        tCO2e for emissions, hours for time-step durations.
    Called:
        once per model build, after every core constraint exists.
    firstresult:
        no; every plugin's extension is applied, in registration order.
    Added in:
        plugin API 1.0
    """


# --- results: called when a solved model is read back ------------------------


@hookspec
def extension_results(model: Any, inputs: xr.Dataset, results: xr.Dataset) -> list[ExtensionOutput]:
    """Variables and KPIs this plugin's extension adds to the results and ``report``.

    Parameters:
        model: the solved Pyomo ``ConcreteModel`` (read values with ``pyo.value``;
            the plugin's own components are there by the names it gave them).
        inputs: the inputs Dataset the model was built from.
        results: the results Dataset read back so far (core variables such as
            ``it_power_mw``); do not change it, return what to add.
    Returns:
        A list of :class:`geomodel.extensions.ExtensionVariable` (a Dataset
        variable on existing dimensions, with units and a description) and
        :class:`geomodel.extensions.ExtensionKpi` (one number with units and a
        description), each named with the plugin's name as a prefix; empty for a
        scenario that does not use the plugin. Variables join the results Dataset;
        KPIs join ``Result.kpis``, the KPI table of ``run`` and ``report``, and the
        result's ``extension_kpis_json`` attribute. An output that breaks these
        rules, or an implementation that raises, is dropped with a warning naming
        the plugin in the result's messages.
    Units:
        each output's ``units`` (model units: MW, MWh, kUSD, tCO2e; or your own,
        such as m3).
    Called:
        once per solve that has a solution, after the core results are read.
    firstresult:
        no; the outputs of all plugins are joined.
    Added in:
        plugin API 1.3
    """
