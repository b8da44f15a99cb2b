"""``geomodel run`` and ``geomodel report``: solve a scenario, print and save its KPIs."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from geomodel.cli.executable_output import executable_payload
from geomodel.cli.output import JSON_HELP, console, print_json, print_table
from geomodel.cli.output_file import FORCE_HELP, check_output, write_result
from geomodel.cli.planning_output import build_payload
from geomodel.cli.result_tables import front_json, placement_json, print_result
from geomodel.cli.scenario_commands import SET_HELP, VARIANT_HELP
from geomodel.errors import UsageError
from geomodel.plugin_loader import ALLOW_BROKEN_EXTENSIONS_ENV

# The model stack (Pyomo, HiGHS, xarray) is imported inside the commands, so
# `geomodel --help` and the light commands start fast.

PARETO_TERMS = ("latency", "carbon")

PHASES = {
    "load": "loading scenario",
    "build": "building model",
    "solve": "solving (HiGHS)",
    "results": "reading results",
}


def run(
    scenario_file: Path = typer.Argument(..., help="Scenario YAML file."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write the results (NetCDF)."),
    variant: list[str] = typer.Option([], "--variant", "-v", help=VARIANT_HELP),
    set_: list[str] = typer.Option([], "--set", help=SET_HELP),
    pareto: str | None = typer.Option(
        None,
        "--pareto",
        metavar="TERM:N",
        help="Epsilon-constraint sweep: latency:N or carbon:N points.",
    ),
    check_aggregation: bool = typer.Option(
        False,
        "--check-aggregation",
        help="Also solve hour by hour and report the KPI errors of the typical days.",
    ),
    force: bool = typer.Option(False, "--force", help=FORCE_HELP),
    allow_broken_extensions: bool = typer.Option(
        False,
        "--allow-broken-extensions",
        help="Solve without a plugin's model extension that raises, instead of failing "
        f"(also {ALLOW_BROKEN_EXTENSIONS_ENV}=1); the result says what is missing.",
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Solve a scenario, print its KPIs and where the work ran, and write the results."""
    allow = True if allow_broken_extensions else None  # None: the environment decides
    if check_aggregation:
        if pareto is not None:
            raise UsageError("--check-aggregation", "cannot be combined with --pareto")
        _check_aggregation(scenario_file, output, variant, set_, json_output, force)
        return
    from geomodel.api import solve_inputs
    from geomodel.pareto import pareto_front

    sweep = _parse_pareto(pareto)
    check_output(output)
    started = time.perf_counter()
    with _progress(quiet=json_output) as shown:
        scenario, inputs, catalog, notes = _prepare(scenario_file, variant, set_, shown)
        if scenario.periods is not None:
            if sweep is not None:
                raise UsageError("--pareto", "a pathway (a scenario with periods) has no Pareto sweep")
            from geomodel.pathway import solve_pathway

            pathway = solve_pathway(scenario, catalog=catalog, progress=shown.advance)
            written = write_result(pathway, output, force) if pathway.has_solution else ""
        elif sweep is None:
            result = solve_inputs(
                inputs, host=catalog.host, progress=shown.advance, allow_broken_extensions=allow
            )
            points = [result]
        else:
            front = pareto_front(
                inputs, *sweep, host=catalog.host, progress=shown.advance, allow_broken_extensions=allow
            )
            result, points = front.result(), front.points
        if scenario.periods is None:
            written = write_result(result, output, force)
    elapsed = time.perf_counter() - started
    if scenario.periods is not None:
        _print_pathway_run(pathway, scenario.name, json_output, notes, written, elapsed)
        return
    if json_output:
        payload: dict = {"kpis": result.kpis, "messages": result.messages}
        if sweep is None:
            payload.update(
                placement=placement_json(result),
                build=build_payload(result),
                executable=executable_payload(result),
            )
        else:
            payload = {
                "pareto": sweep[0],
                "front": front_json(result),
                "points": [
                    {"kpis": r.kpis, "messages": r.messages, "build": build_payload(r)} for r in points
                ],
                **payload,
            }
        print_json({**payload, "warnings": notes, "output": written})
    else:
        print_result(result, scenario.name or scenario_file.name)
        console().print(f"done in {elapsed:.1f} s" + (f"; {written}" if written else ""))
    if not all(r.has_solution for r in points):  # infeasible, error, or no incumbent
        raise typer.Exit(1)


def _print_pathway_run(result, name: str, json_output: bool, notes, written: str, elapsed: float):
    """Print a solved pathway (timeline, periods); exit 1 without a solution."""
    from geomodel.cli.pathway_output import print_pathway
    from geomodel.results.pathway import pathway_json

    if json_output:
        payload = pathway_json(result.dataset) if result.has_solution else {}
        print_json({**payload, "messages": result.messages, "warnings": notes, "output": written})
    else:
        print_pathway(result.dataset, result.messages, name or "pathway")
        console().print(f"done in {elapsed:.1f} s" + (f"; {written}" if written else ""))
    if not result.has_solution:
        raise typer.Exit(1)


def _prepare(scenario_file: Path, variant: list[str], set_: list[str], shown: _progress):
    """Catalogue, scenario and inputs; every plugin failure first, then the warnings
    `validate` gives and a size warning, each on one line, before any solve."""
    from geomodel.catalog import build_catalog
    from geomodel.cli.plugins_command import plugin_problems
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario
    from geomodel.scenario.load import SetOptions
    from geomodel.solver.size import size_warning

    shown.advance("load")
    catalog = build_catalog()
    notes = plugin_problems(catalog)
    for line in notes:
        shown.note(f"warning: {line}")
    scenario = load_scenario(
        scenario_file, variants=variant, overrides=SetOptions(set_), catalog=catalog
    )
    warnings = [str(w) for w in scenario.origin.warnings]
    if scenario.periods is not None:  # a pathway builds one inputs Dataset per period
        for line in warnings:
            shown.note(line)
        return scenario, None, catalog, notes + warnings
    inputs = build_inputs(scenario, catalog)
    big = size_warning(inputs)
    warnings += [f"warning: {big}"] if big else []
    for line in warnings:
        shown.note(line)
    return scenario, inputs, catalog, notes + warnings


def report(
    result_file: Path = typer.Argument(
        ..., help="Results file of `geomodel run -o`, or the folder of `geomodel batch -o`."
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
    calendar: Path | None = typer.Option(
        None,
        "--calendar",
        help="Also write the results on every hour of the horizon (NetCDF): longer steps and "
        "typical days spread over the hours they stand for.",
    ),
) -> None:
    """Print the KPIs and where the work ran (or a Pareto front) of a saved result, or
    the KPI table of a batch folder."""
    from geomodel.results.result import open_result

    if result_file.is_dir():
        if calendar is not None:
            raise UsageError("--calendar", "give one result file, not a batch folder")
        from geomodel.batch.store import kpi_table, missing_files
        from geomodel.cli.batch_command import print_batch_table

        table = kpi_table(result_file)
        missing = missing_files(result_file, table)
        _print_warnings(missing)
        if json_output:
            cases = table.to_dict(orient="records")
            print_json({"outdir": str(result_file), "cases": cases, "warnings": missing})
        else:
            print_batch_table(table, f"{result_file}: {len(table)} cases")
        return
    check_output(calendar, "--calendar")
    result = open_result(result_file)
    _print_warnings(result.warnings)
    if result.dataset.attrs.get("pathway"):
        _report_pathway(result, result_file, json_output)
        return
    if calendar is not None:
        result.calendar_to_netcdf(calendar)
    if json_output:
        payload: dict = {"kpis": result.kpis, "messages": result.messages, "warnings": result.warnings}
        if result.front is not None:
            payload = {
                "pareto": result.dataset.attrs.get("pareto_term"),
                "front": front_json(result),
                **payload,
            }
        else:
            payload.update(
                placement=placement_json(result),
                build=build_payload(result),
                executable=executable_payload(result),
            )
        print_json(payload)
        return
    print_result(result, str(result.dataset.attrs.get("scenario_name") or result_file.name))
    if calendar is not None:
        console().print(f"results on every hour written to {calendar}")


def _report_pathway(result, result_file: Path, json_output: bool) -> None:
    """A saved pathway: its timeline and periods."""
    from geomodel.cli.pathway_output import print_pathway
    from geomodel.results.pathway import pathway_json

    if json_output:
        print_json({**pathway_json(result.dataset), "messages": result.messages})
        return
    title = str(result.dataset.attrs.get("scenario_name") or result_file.name)
    print_pathway(result.dataset, result.messages, title)


def _print_warnings(lines: list[str]) -> None:
    """Each on one line on stderr, before the tables (so a pipe of --json stays JSON)."""
    for line in lines:
        console(stderr=True).print(f"[yellow]warning: {escape(line)}[/yellow]", soft_wrap=True)


def _check_aggregation(scenario_file, output, variant, set_, json_output, force) -> None:
    from geomodel.aggregation_check import check_aggregation
    from geomodel.scenario.load import SetOptions

    check_output(output)
    with _progress(quiet=json_output) as shown:
        check = check_aggregation(
            scenario_file, variants=variant, overrides=SetOptions(set_), progress=shown.advance
        )
        written = write_result(check.aggregated, output, force)
    rows = check.rows()
    solved = check.aggregated.has_solution and check.full.has_solution
    sides = {"typical days": check.aggregated, "hour by hour": check.full}
    worst_kpi, worst_error = check.worst
    if json_output:
        print_json(
            {
                "kpis": rows,
                "worst_kpi": worst_kpi,
                "worst_relative_error": worst_error,
                "messages": {"aggregated": check.aggregated.messages, "full": check.full.messages},
            }
        )
    else:
        print_table(
            rows,
            {
                "kpi": "KPI",
                "aggregated": "typical days",
                "full": "hour by hour",
                "relative_error": "relative error",
            },
            title=f"{scenario_file.name}: typical days against the full series",
        )
        out = console()
        if solved:
            out.print(
                f"worst error: {worst_error:.2%} ({worst_kpi}); "
                "unserved_fraction is compared by absolute difference, a share of demand"
            )
        for side, result in sides.items():
            for message in result.messages if not result.has_solution else []:
                out.print(f"[yellow]{side}: {escape(message)}[/yellow]", soft_wrap=True)
        if written:
            out.print(written)
    if not solved:
        raise typer.Exit(1)


def _parse_pareto(text: str | None) -> tuple[str, int] | None:
    if text is None:
        return None
    term, _, count = text.partition(":")
    if term not in PARETO_TERMS or not count.isdigit() or int(count) < 2:
        raise UsageError("--pareto", f"expected latency:N or carbon:N with N >= 2, got {text!r}")
    return term, int(count)


class _progress:  # noqa: N801 - used as a context manager, reads like a function
    """Show the current phase with elapsed time on stderr, then each phase's time."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.bar = None
        self.task = None
        self.marks: list[tuple[str, float]] = []

    def __enter__(self) -> _progress:
        if not self.quiet:
            self.bar = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=console(stderr=True),
                transient=True,
            )
            self.bar.__enter__()
            self.task = self.bar.add_task("starting", total=None)
        return self

    def advance(self, phase: str) -> None:
        self.marks.append((phase, time.perf_counter()))
        if self.bar is not None:
            self.bar.update(self.task, description=PHASES.get(phase, phase))

    def note(self, line: str) -> None:
        """A line on stderr (above the spinner while it runs), e.g. a warning."""
        out = self.bar.console if self.bar is not None else console(stderr=True)
        out.print(f"[yellow]{escape(line)}[/yellow]", soft_wrap=True)

    def __exit__(self, *exc) -> None:
        if self.bar is None:
            return
        self.bar.__exit__(*exc)
        if exc[0] is None and self.marks:
            self.marks.append(("end", time.perf_counter()))
            totals: dict[str, float] = {}
            for (phase, start), (_, end) in zip(self.marks, self.marks[1:], strict=False):
                totals[phase] = totals.get(phase, 0.0) + end - start
            timing = ", ".join(f"{phase} {seconds:.2f} s" for phase, seconds in totals.items())
            console(stderr=True).print(f"phases: {timing}")
