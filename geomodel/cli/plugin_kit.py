"""``geomodel new-plugin`` and ``geomodel check-plugin``: the plugin author's commands."""

from __future__ import annotations

from pathlib import Path

import typer

from geomodel.cli.output import JSON_HELP, console, print_json, print_table

KIND_HELP = (
    "What the plugin contributes: hardware, link, power, weather (a weather point), cost "
    "(build costs) or model (a model extension)."
)


def new_plugin(
    name: str = typer.Argument(..., help="Plugin name, e.g. acme-water (lower case, '-' or '_')."),
    kind: str = typer.Option("hardware", "--kind", "-k", help=KIND_HELP),
    output: Path = typer.Option(
        Path("."), "--output", "-o", help="Folder to write the package folder in."
    ),
) -> None:
    """Write a ready plugin package: pyproject, module with an example hook, README, tests."""
    from geomodel.testing.hosts import installed_entry_points
    from geomodel.testing.scaffold import PluginNames, write_plugin_package

    taken = {entry_point.name for entry_point in installed_entry_points()}
    folder = write_plugin_package(name, kind, output, taken=taken)
    names = PluginNames.from_name(name)
    out = console()
    out.print(f"Wrote {folder} ({kind} plugin {names.plugin!r}, import name {names.package}):")
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        out.print(f"  {path.relative_to(folder)}")
    out.print(
        "Next:\n"
        f"  cd {folder}\n"
        "  pip install -e .\n"
        "  pytest\n"
        f"  geomodel plugins\n"
        f"  geomodel check-plugin {names.plugin}",
        highlight=False,
    )


def check_plugin(
    name: str = typer.Argument(..., help="Installed plugin: entry-point or distribution name."),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Run the conformance checks on an installed plugin; exit 1 if any fails."""
    from geomodel.testing import check_installed_plugin
    from geomodel.testing.results import singular

    report = check_installed_plugin(name)
    if json_output:
        print_json(report.to_dict())
    else:
        rows = [
            {
                "result": r.verdict,
                "check": r.check,
                "entry": f"{singular(r.kind)} {r.entry}".strip() if r.entry else r.kind,
                "field": r.field,
                "message": r.message,
            }
            for r in _grouped(report.results)
        ]
        print_table(
            rows,
            {
                "result": "result",
                "check": "check",
                "entry": "entry",
                "field": "field",
                "message": "message",
            },
            title=f"Conformance of plugin {report.plugin!r} (distribution {report.distribution})",
        )
        failed, warned = len(report.failures), len(report.warnings)
        with_warnings = f" ({warned} with a warning)" if warned else ""
        console().print(
            f"{len(report.results) - failed} checks passed{with_warnings}, {failed} failed.",
            highlight=False,
        )
    if not report.passed:
        raise typer.Exit(1)


def _grouped(results: list) -> list:
    """Results with each entry's rows together, in the order entries first appear."""
    first: dict[tuple[str, str], int] = {}
    for position, result in enumerate(results):
        first.setdefault((result.kind, result.entry), position)
    return sorted(results, key=lambda r: first[(r.kind, r.entry)])
