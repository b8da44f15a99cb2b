"""``geomodel plugins``: what is loaded, from where, and what each contributes."""

from __future__ import annotations

import typer
from rich.markup import escape

from geomodel.catalog import CATALOG_KINDS, Catalog, build_catalog
from geomodel.cli.output import JSON_HELP, console, print_json, print_table


def plugin_problems(catalog: Catalog) -> list[str]:
    """Every plugin failure and loader warning, one line each (plugin, stage, reason)."""
    warnings = catalog.host.warnings if catalog.host is not None else []
    return [str(failure) for failure in catalog.failures] + list(warnings)


def print_plugin_problems(catalog: Catalog) -> None:
    """What `validate` and `run` say before anything else: each plugin failure on one
    line on stderr, so no refused or dropped entry goes unnoticed."""
    out = console(stderr=True)
    for line in plugin_problems(catalog):
        out.print(f"[yellow]warning: {escape(line)}[/yellow]", soft_wrap=True)


def plugins_report(catalog: Catalog) -> dict:
    """Loaded plugins and failures as plain data (the JSON output)."""
    return {
        "plugins": [
            {
                "name": info.name,
                "distribution": info.distribution,
                "version": info.version,
                "module": info.module,
                "plugin_api": info.api_version,
                "contributes": catalog.contributions(info.name),
            }
            for info in catalog.plugins.values()
        ],
        "failed": [
            {
                "name": f.name,
                "distribution": f.distribution,
                "stage": f.stage,
                "reason": f.reason,
            }
            for f in catalog.failures
        ],
        "warnings": list(catalog.host.warnings) if catalog.host is not None else [],
        "power_sources": power_source_rows(catalog),
        "weather_points": weather_point_rows(catalog),
    }


def power_source_rows(catalog: Catalog) -> list[dict]:
    """Every power source with what each hourly series rests on (measured or shaped)."""
    rows = []
    for (kind, name), plugin in catalog.provider.items():
        if kind != "power sources":
            continue
        source = catalog.power_sources[name]
        rows.append(
            {
                "name": name,
                "kind": source.kind,
                "plugin": plugin,
                "distribution": catalog.plugins[plugin].distribution,
                "location": None
                if source.location is None
                else [source.location.lat, source.location.lon],
                "price_adder_usd_per_mwh": source.price_adder_usd_per_mwh,
                "series_basis": source.series_basis(),
            }
        )
    return rows


def weather_point_rows(catalog: Catalog) -> list[dict]:
    """Every weather point: where it is, how far it reaches, what its weather rests on."""
    return [
        {
            "name": name,
            "zone": point.zone,
            "plugin": catalog.provider[("weather points", name)],
            "distribution": catalog.plugins[catalog.provider[("weather points", name)]].distribution,
            "location": [point.location.lat, point.location.lon],
            "reach_km": point.reach_km,
            "basis": point.basis,
            "licence": point.licence,
        }
        for name, point in catalog.weather_points.items()
    ]


def plugins(json_output: bool = typer.Option(False, "--json", help=JSON_HELP)) -> None:
    """List loaded plugins, what each contributes, and any that failed to load."""
    report = plugins_report(build_catalog())
    if json_output:
        print_json(report)
        return
    rows = []
    for plugin in report["plugins"]:
        contributes = "; ".join(
            f"{kind}: {', '.join(names)}" for kind, names in plugin["contributes"].items() if names
        )
        rows.append({**plugin, "contributes": contributes or "(hooks only)"})
    print_table(
        rows,
        {
            "name": "plugin",
            "distribution": "distribution",
            "version": "version",
            "module": "module",
            "contributes": "contributes",
        },
        title="Loaded plugins",
    )
    if report["failed"]:
        print_table(
            report["failed"],
            {"name": "plugin", "distribution": "distribution", "stage": "stage", "reason": "reason"},
            title="Plugins that failed",
        )
    else:
        console().print(f"No plugin failed. Catalogue kinds: {', '.join(CATALOG_KINDS)}.")
    basis_rows = [
        {
            **row,
            "price": row["series_basis"].get("price_usd_per_mwh", ""),
            "carbon": row["series_basis"].get("carbon_kg_per_mwh", ""),
        }
        for row in report["power_sources"]
    ]
    print_table(
        basis_rows,
        {
            "name": "power source",
            "kind": "kind",
            "price": "price series",
            "price_adder_usd_per_mwh": "default adder USD/MWh",
            "carbon": "carbon series",
        },
        title="What each power source's hourly series rest on",
    )
    if report["weather_points"]:
        print_table(
            [
                {**row, "where": f"{row['location'][0]:.2f}, {row['location'][1]:.2f}"}
                for row in report["weather_points"]
            ],
            {
                "name": "weather point",
                "zone": "zone",
                "where": "lat, lon",
                "reach_km": "reach km",
                "basis": "basis",
                "plugin": "plugin",
            },
            title="Weather points (a site takes the nearest within its reach)",
        )
    for warning in report["warnings"]:
        console().print(f"[yellow]warning: {escape(warning)}[/yellow]")
