"""Conformance checks of the scenario hooks: ``validate_scenario`` and ``extend_model``.

Both run on the minimal scenario (:mod:`geomodel.testing.scenario`). A plugin
whose hooks read settings from ``extensions.<plugin name>`` declares example
settings at module level, and the checks put them into the scenario::

    GEOMODEL_EXAMPLE_SETTINGS = {"sites": {"site_a": {"limit": "10 m^3/day"}}}

(``site_a`` is the minimal scenario's site.) Checked: ``validate_scenario``
returns a list of strings, empty for a scenario that does not use the plugin and
for the example settings; ``extend_model`` adds components named with the
plugin's name as a prefix (and adds something when given settings), and the
minimal scenario still builds and solves to optimality with the extension on.
"""

from __future__ import annotations

from typing import Any

from geomodel.plugin_loader import PluginHost, component_prefix
from geomodel.testing.results import CheckResult
from geomodel.testing.scenario import MINIMAL_PLUGINS, load_minimal_scenario, minimal_scenario

#: Module attribute with the settings the checks put under ``extensions.<plugin name>``.
EXAMPLE_SETTINGS_ATTRIBUTE = "GEOMODEL_EXAMPLE_SETTINGS"
SCENARIO_KIND = "scenario checks"
#: the hook declaring a plugin's settings (geomodel.scenario.extension_checks reads it)
SETTINGS_HOOK = "extension_settings"
MODEL_KIND = "model extension"


def implemented_hooks(host: PluginHost, plugin: str) -> set[str]:
    plugin_object = host.manager.get_plugin(plugin)
    return {caller.name for caller in host.manager.get_hookcallers(plugin_object) or []}


def call_plugin_hook(host: PluginHost, plugin: str, hook: str, **kwargs: Any) -> tuple[Any, str]:
    """(result, problem) of one plugin's implementation of ``hook``."""
    before = len(host.failures)
    results = [result for info, result in host.call_each(hook, **kwargs) if info.name == plugin]
    raised = [f.reason for f in host.failures[before:] if f.name == plugin]
    del host.failures[before:]  # other plugins' faults are not this check's business
    if raised:
        return None, f"{hook} raised {raised[0]}"
    return (results[0] if results else None), ""


def check_scenario_hooks(
    host: PluginHost, catalog: Any, plugin: str, settings: dict[str, Any] | None
) -> list[CheckResult]:
    """Check ``validate_scenario`` and ``extend_model`` where the plugin implements them."""
    hooks = implemented_hooks(host, plugin) & {"validate_scenario", "extend_model", SETTINGS_HOOK}
    if not hooks:
        return []
    missing = [name for name in MINIMAL_PLUGINS if name not in host.plugins]
    if missing:
        message = (
            f"the minimal scenario needs the built-in plugins {', '.join(missing)}, which are not loaded"
        )
        return [CheckResult("minimal-scenario", plugin, "", "", False, message, SCENARIO_KIND)]
    results: list[CheckResult] = []
    if SETTINGS_HOOK in hooks:
        results += _settings_checks(host, catalog, plugin, settings)
    if "validate_scenario" in hooks:
        results += _validate_checks(host, catalog, plugin, settings)
    if "extend_model" in hooks:
        results += _extension_checks(host, catalog, plugin, settings)
    return results


def _settings_checks(
    host: PluginHost, catalog: Any, plugin: str, settings: dict[str, Any] | None
) -> list[CheckResult]:
    """``extension-settings``: the hook returns a pydantic model class, and the example
    settings pass it (through the scenario loader, as a user's would)."""
    from pydantic import BaseModel

    def result(passed: bool, message: str) -> CheckResult:
        field = f"extensions.{plugin}"
        return CheckResult("extension-settings", plugin, "", field, passed, message, SCENARIO_KIND)

    model, problem = call_plugin_hook(host, plugin, SETTINGS_HOOK)
    if problem:
        return [result(False, problem)]
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return [result(False, f"returned {model!r}; return the pydantic model class of the settings")]
    if not settings:
        return [result(True, f"declares {model.__name__}; no {EXAMPLE_SETTINGS_ATTRIBUTE} to try it on")]
    _, problem = _scenario(catalog, plugin, settings)
    if problem:
        return [result(False, f"the example settings do not pass {model.__name__}: {problem}")]
    return [result(True, f"the example settings pass {model.__name__}")]


def _scenario(catalog: Any, plugin: str, settings: dict[str, Any] | None) -> tuple[Any, str]:
    from geomodel.scenario import ScenarioError

    data = minimal_scenario(extensions={plugin: settings} if settings else None)
    try:
        return load_minimal_scenario(catalog, data), ""
    except ScenarioError as error:
        return None, " ".join(str(error).split())


def _validate_checks(
    host: PluginHost, catalog: Any, plugin: str, settings: dict[str, Any] | None
) -> list[CheckResult]:
    def result(field: str, passed: bool, message: str) -> CheckResult:
        return CheckResult("validate-scenario", plugin, "", field, passed, message, SCENARIO_KIND)

    cases = [("", None)] + ([(f"extensions.{plugin}", settings)] if settings else [])
    # loaded without the plugin, so its own hook is called here, on its own
    base, problem = _scenario(_without(catalog, plugin), plugin, None)
    if problem:
        return [result("", False, f"the minimal scenario is invalid: {problem}")]
    results = []
    for field, given in cases:
        what = "the example settings" if given else "a scenario that does not use the plugin"
        scenario = base.model_copy(update={"extensions": {plugin: given}}) if given else base
        returned, problem = call_plugin_hook(
            host, plugin, "validate_scenario", scenario=scenario, catalog=catalog
        )
        if problem:
            results.append(result(field, False, f"with {what}: {problem}"))
        elif not isinstance(returned, list) or not all(isinstance(p, str) for p in returned):
            results.append(
                result(field, False, f"returned {returned!r}; it must return a list of strings")
            )
        elif returned:
            results.append(result(field, False, f"reports problems for {what}: {'; '.join(returned)}"))
        else:
            results.append(result(field, True, f"no problems reported for {what}"))
    return results


def _without(catalog: Any, plugin: str) -> Any:
    """The catalogue with a host lacking ``plugin``, so loading the scenario runs the
    other plugins' checks and this plugin's hook is called on its own."""
    from dataclasses import replace

    from geomodel.testing.hosts import plugin_host

    others = plugin_host(
        *[
            (info.name, catalog.host.manager.get_plugin(info.name))
            for info in catalog.plugins.values()
            if info.name != plugin
        ]
    )
    return replace(catalog, host=others)


def _extension_checks(
    host: PluginHost, catalog: Any, plugin: str, settings: dict[str, Any] | None
) -> list[CheckResult]:
    from geomodel.api import solve_inputs
    from geomodel.inputs.build import build_inputs
    from geomodel.model.build import build_model

    def result(check: str, passed: bool, message: str, field: str = "") -> CheckResult:
        return CheckResult(check, plugin, "", field, passed, message, MODEL_KIND)

    scenario, problem = _scenario(catalog, plugin, settings)
    if problem:
        return [result("model-extension", False, f"the minimal scenario is invalid: {problem}")]
    results = [_untouched_check(host, catalog, plugin, result)]
    inputs = build_inputs(scenario, catalog)
    model = build_model(inputs)
    before = {component.name for component in model.component_objects(descend_into=True)}
    _, problem = call_plugin_hook(host, plugin, "extend_model", model=model, inputs=inputs)
    if problem:
        return [result("model-extension", False, problem)]
    added = sorted({c.name for c in model.component_objects(descend_into=True)} - before)
    rows, columns = _size_of(model, set(added))
    prefix = component_prefix(plugin)
    badly_named = [name for name in added if not name.startswith(prefix)]
    if badly_named:
        message = (
            f"components {badly_named} do not start with {prefix!r}; prefix them with the plugin's name"
        )
        results.append(result("extension-names", False, message, ", ".join(badly_named)))
    elif added:
        results.append(result("extension-names", True, f"adds {', '.join(added)}"))
    if settings and not added:
        message = f"adds nothing to the model with the settings {settings!r}"
        results.append(result("extension-names", False, message, f"extensions.{plugin}"))
    if not settings:
        results.append(
            result(
                "example-settings",
                True,
                f"no {EXAMPLE_SETTINGS_ATTRIBUTE}: checked on the minimal scenario without settings; "
                "declare them so the checks exercise the extension",
            )
        )
    if not rows and not columns:
        what = f"with the settings {settings!r}" if settings else "without settings"
        message = (
            f"the extension adds no constraint rows or variables to the minimal scenario {what}, "
            "so solving it checks nothing; "
            + (
                "its example settings must make it add what it adds in real use"
                if settings
                else f"declare {EXAMPLE_SETTINGS_ATTRIBUTE} that make it add its constraints"
            )
        )
        results.append(
            result("model-solves", False, message, f"extensions.{plugin}" if settings else "")
        )
        return results
    results.extend(_solve_check(host, inputs, plugin, solve_inputs, result, rows, columns))
    return results


def _untouched_check(host: PluginHost, catalog: Any, plugin: str, result: Any) -> CheckResult:
    """``extend_model`` on the minimal scenario without this plugin's settings must leave
    the model as it was: an extension a scenario does not ask for must not change its plan."""
    from geomodel.inputs.build import build_inputs
    from geomodel.model.build import build_model

    scenario, problem = _scenario(catalog, plugin, None)
    if problem:
        return result("unused-untouched", False, f"the minimal scenario is invalid: {problem}")
    inputs = build_inputs(scenario, catalog)
    model = build_model(inputs)
    before = model_signature(model)
    _, problem = call_plugin_hook(host, plugin, "extend_model", model=model, inputs=inputs)
    if problem:
        message = f"on a scenario without extensions.{plugin}, {problem}"
        return result("unused-untouched", False, message)
    after = model_signature(model)
    changed = sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )
    if changed:
        message = (
            f"changes a scenario that does not use it (no extensions.{plugin}): "
            f"{', '.join(changed[:8])}; return without changing the model when the scenario "
            f"gives no settings (settings_from_inputs(inputs, NAME, Settings) is None)"
        )
        return result("unused-untouched", False, message)
    return result("unused-untouched", True, f"leaves a scenario without extensions.{plugin} unchanged")


def model_signature(model: Any) -> dict[str, str]:
    """Each active component of a model -> its size and, for expressions, constraints and
    the objective, their text: equal signatures, equal models (at the minimal scenario's
    size the text is short)."""
    import pyomo.environ as pyo

    signature = {}
    for component in model.component_objects(active=True, descend_into=True):
        if component.is_indexed() and not len(component):
            continue  # an empty component changes nothing
        text = str(len(component)) if component.is_indexed() else "1"
        if isinstance(component, pyo.Expression | pyo.Constraint | pyo.Objective):
            text += ";" + ";".join(str(item.expr) for item in component.values())
        elif isinstance(component, pyo.Var):
            text += ";" + ";".join(f"{v.lb},{v.ub},{v.fixed}" for v in component.values())
        signature[component.name] = text
    return signature


def _size_of(model: Any, names: set[str]) -> tuple[int, int]:
    """Active constraint rows and variables of the components named ``names``."""
    import pyomo.environ as pyo

    rows = sum(
        len(c)
        for c in model.component_objects(pyo.Constraint, active=True, descend_into=True)
        if c.name in names
    )
    columns = sum(len(v) for v in model.component_objects(pyo.Var, descend_into=True) if v.name in names)
    return rows, columns


def _solve_check(
    host: PluginHost,
    inputs: Any,
    plugin: str,
    solve_inputs: Any,
    result: Any,
    rows: int,
    columns: int,
) -> list[CheckResult]:
    from geomodel.errors import ExtensionError

    before = len(host.failures)
    try:  # other plugins' broken extensions are not this check's business
        solved = solve_inputs(inputs, host=host, allow_broken_extensions=True)
    except ExtensionError:  # strict mode: every failure is fatal
        solved = None
    failed = [f.reason for f in host.failures[before:] if f.name == plugin and f.stage == "extend_model"]
    del host.failures[before:]
    if failed:
        return [result("model-solves", False, f"extend_model raised {failed[0]} during the solve")]
    if solved is None:
        return [result("model-solves", False, "another plugin's extension failed in strict mode")]
    status = solved.kpis.get("solver_status")
    applied = solved.dataset.attrs.get("extensions", "").split(",")
    if status != "optimal":
        detail = "; ".join(solved.messages)
        return [
            result(
                "model-solves", False, f"the minimal scenario with the extension ends {status}: {detail}"
            )
        ]
    if plugin not in applied:
        return [
            result("model-solves", False, f"the solve did not apply the extension (applied: {applied})")
        ]
    plain = solve_inputs(inputs, host=None)
    message = (
        f"builds and solves to optimality with its {rows:,} constraint rows and {columns:,} "
        f"variables: objective {solved.kpis['objective']:,.2f} USD "
        f"({plain.kpis.get('objective', float('nan')):,.2f} USD without extensions)"
    )
    return [result("model-solves", True, message), *_results_check(host, plugin, solved, plain, result)]


def _results_check(host: PluginHost, plugin: str, solved: Any, plain: Any, result: Any) -> list:
    """``extension-results``: what ``extension_results`` returned joined the results
    (the warnings of a solve name each output it left out, and why)."""
    from geomodel.results.extension_results import HOOK, extension_kpi_specs

    if HOOK not in implemented_hooks(host, plugin):
        return []
    refused = [m for m in solved.messages if f"plugin {plugin!r}" in m and HOOK in m]
    if refused:
        return [result("extension-results", False, "; ".join(refused))]
    variables = sorted(set(solved.dataset.data_vars) - set(plain.dataset.data_vars))
    kpis = sorted(
        n for n, spec in extension_kpi_specs(solved.dataset).items() if spec["plugin"] == plugin
    )
    if not variables and not kpis:
        message = "returned nothing for the minimal scenario with the example settings"
        return [result("extension-results", False, message)]
    message = (
        f"adds the variables {', '.join(variables) or 'none'} and the KPIs {', '.join(kpis) or 'none'}"
    )
    return [result("extension-results", True, message)]
