"""``geomodel validate`` and ``geomodel schema``: check scenario files without solving."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from geomodel.cli.output import JSON_HELP, console, print_json, print_table

VARIANT_HELP = "Apply a named variant of the scenario (repeatable, in order)."
SET_HELP = "Override a field: path.to.field=value (repeatable)."


def validate(
    scenario_file: Path = typer.Argument(..., help="Scenario YAML file."),
    variant: list[str] = typer.Option([], "--variant", "-v", help=VARIANT_HELP),
    set_: list[str] = typer.Option([], "--set", help=SET_HELP),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Check a scenario without solving: every problem with file:line, field and reason."""
    from geomodel.catalog import build_catalog
    from geomodel.cli.plugins_command import plugin_problems, print_plugin_problems
    from geomodel.scenario import load_scenario
    from geomodel.scenario.load import SetOptions
    from geomodel.scenario.summary import summarize

    catalog = build_catalog()
    print_plugin_problems(catalog)
    scenario = load_scenario(
        scenario_file, variants=variant, overrides=SetOptions(set_), catalog=catalog
    )
    summary = summarize(scenario, catalog)
    if json_output:
        print_json({"valid": True, **summary, "plugin_failures": plugin_problems(catalog)})
        return
    out = console()
    out.print(
        f"[green]valid[/green]: {scenario_file}"
        + (f" with variants {', '.join(scenario.origin.variants)}" if variant else "")
    )
    rows = [
        {"what": "sites", "value": summary["sites"]},
        {"what": "systems", "value": ", ".join(f"{n} x{c}" for n, c in summary["systems"].items())},
        {"what": "chips", "value": summary["chips"]},
        {"what": "IT power at load (MW)", "value": summary["it_mw_at_load"]},
        {"what": "power envelope, all sites (MW)", "value": summary["power_envelope_mw"]},
        {"what": "training jobs", "value": summary["training_jobs"]},
        {"what": "inference services", "value": summary["inference_services"]},
        {"what": "user regions", "value": summary["regions"]},
        {"what": "hours (time steps)", "value": f"{summary['hours']:g} ({summary['time_steps']})"},
        {"what": "variants defined", "value": ", ".join(summary["variants_defined"]) or "-"},
        *(
            [{"what": "may build (most, all sites)", "value": describe_build(summary["may_build"])}]
            if summary["may_build"]
            else []
        ),
        {"what": "scenario hash", "value": summary["scenario_hash"][:16]},
    ]
    print_table(rows, {"what": "", "value": ""}, title=scenario.name or None)
    for warning in summary["warnings"]:
        out.print(f"[yellow]{escape(warning)}[/yellow]")


def describe_build(found: dict) -> str:
    """``gb200_nvl72 x600; 100 MW facility; solar_pv 400 MW; ...`` for the validate table."""
    parts = [f"{name} x{count}" for name, count in found.get("systems", {}).items()]
    if "power_envelope_mw" in found:
        parts.append(f"{found['power_envelope_mw']:g} MW facility")
    parts += [f"{name} {mw:g} MW" for name, mw in found.get("power_sources_mw", {}).items()]
    if "battery_mw" in found:
        parts.append(f"battery {found['battery_mw']:g} MW / {found['battery_mwh']:g} MWh")
    if found.get("new_sites"):
        parts.append(f"{found['new_sites']} new site(s)")
    if found.get("route_candidates"):
        parts.append(f"{found['route_candidates']} route candidate(s)")
    return "; ".join(parts)


def schema() -> None:
    """Print the JSON Schema (draft 2020-12) of scenario files."""
    from geomodel.scenario.schema import Scenario

    print(json.dumps(standard_keywords(Scenario.model_json_schema()), indent=2))


#: pydantic's constraint names -> JSON Schema's (pydantic leaves its own names on a
#: constrained type with a validator, such as counts that refuse true and false)
JSON_SCHEMA_KEYWORDS = {
    "ge": "minimum",
    "le": "maximum",
    "gt": "exclusiveMinimum",
    "lt": "exclusiveMaximum",
}


def standard_keywords(node: Any) -> Any:
    """``node`` with pydantic's ``ge``/``le``/``gt``/``lt`` as JSON Schema keywords,
    wherever they stand beside a ``type`` (so a property named ``ge`` is left alone)."""
    if isinstance(node, list):
        return [standard_keywords(item) for item in node]
    if not isinstance(node, dict):
        return node
    is_schema = "type" in node
    return {
        (JSON_SCHEMA_KEYWORDS.get(key, key) if is_schema else key): standard_keywords(value)
        for key, value in node.items()
    }
