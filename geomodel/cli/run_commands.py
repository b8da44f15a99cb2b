"""``geomodel run`` and ``geomodel report``: solve a scenario, print and save its KPIs."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from geomodel.cli.output import JSON_HELP, console, print_json, print_table
from geomodel.cli.planning_output import build_payload, print_build
from geomodel.cli.scenario_commands import SET_HELP, VARIANT_HELP
from geomodel.errors import UsageError
from geomodel.results.kpis import KPI_SPECS

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
        None, "--pareto", help="Epsilon-constraint sweep: latency:N or carbon:N points."
    ),
    check_aggregation: bool = typer.Option(
        False,
        "--check-aggregation",
        help="Also solve hour by hour and report the KPI errors of the typical days.",
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Solve a scenario, print its KPI table and write the results Dataset."""
    if check_aggregation:
        if pareto is not None:
            raise UsageError("--check-aggregation", "cannot be combined with --pareto")
        _check_aggregation(scenario_file, output, variant, set_, json_output)
        return
    from geomodel.api import solve_inputs
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.pareto import pareto_front
    from geomodel.results.result import Result
    from geomodel.scenario import load_scenario

    sweep = _parse_pareto(pareto)
    _check_writable(output)
    started = time.perf_counter()
    with _progress(quiet=json_output) as advance:
        advance("load")
        catalog = build_catalog()
        scenario = load_scenario(scenario_file, variants=variant, overrides=set_, catalog=catalog)
        inputs = build_inputs(scenario, catalog)
        if sweep is None:
            result = solve_inputs(inputs, host=catalog.host, progress=advance)
            if output is not None:
                result.to_netcdf(output)
            results = [result]
        else:
            front = pareto_front(inputs, *sweep, host=catalog.host, progress=advance)
            results = front.points
            if output is not None:
                combined = Result(inputs=inputs, dataset=front.dataset(), kpis=results[-1].kpis)
                combined.to_netcdf(output)
    elapsed = time.perf_counter() - started
    if json_output:
        payload = [{"kpis": r.kpis, "messages": r.messages, "build": build_payload(r)} for r in results]
        print_json(payload[0] if sweep is None else {"pareto": sweep[0], "points": payload})
    else:
        for index, result in enumerate(results):
            title = f"{scenario.name or scenario_file.name}"
            if sweep is not None:
                title += f" - Pareto point {index + 1} of {len(results)}"
            print_kpis(result, title)
            print_build(result, title)
        console().print(
            f"done in {elapsed:.1f} s" + (f"; results written to {output}" if output else "")
        )
    if not all(r.has_solution for r in results):  # infeasible, error, or no incumbent
        raise typer.Exit(1)


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
    """Print the KPIs of a saved result, or the KPI table of a batch folder."""
    from geomodel.results.result import open_result

    if result_file.is_dir():
        if calendar is not None:
            raise UsageError("--calendar", "give one result file, not a batch folder")
        from geomodel.batch.store import kpi_table
        from geomodel.cli.batch_command import print_batch_table

        table = kpi_table(result_file)
        if json_output:
            print_json({"outdir": str(result_file), "cases": table.to_dict(orient="records")})
        else:
            print_batch_table(table, f"{result_file}: {len(table)} cases")
        return
    _check_writable(calendar, "--calendar")
    result = open_result(result_file)
    if calendar is not None:
        result.calendar_to_netcdf(calendar)
    if json_output:
        print_json({"kpis": result.kpis, "messages": result.messages, "build": build_payload(result)})
        return
    title = str(result.dataset.attrs.get("scenario_name") or result_file.name)
    print_kpis(result, title)
    print_build(result, title)
    if calendar is not None:
        console().print(f"results on every hour written to {calendar}")


def _check_aggregation(scenario_file, output, variant, set_, json_output) -> None:
    from geomodel.aggregation_check import check_aggregation

    _check_writable(output)
    with _progress(quiet=json_output) as advance:
        check = check_aggregation(scenario_file, variants=variant, overrides=set_, progress=advance)
        if output is not None:
            check.aggregated.to_netcdf(output)
    rows = check.rows()
    if json_output:
        worst_kpi, worst_error = check.worst
        print_json({"kpis": rows, "worst_kpi": worst_kpi, "worst_relative_error": worst_error})
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
        worst_kpi, worst_error = check.worst
        console().print(
            f"worst error: {worst_error:.2%} ({worst_kpi}); "
            "unserved_fraction is compared by absolute difference, a share of demand"
        )
    if not (check.aggregated.has_solution and check.full.has_solution):
        raise typer.Exit(1)


def print_kpis(result, title: str) -> None:
    """The KPI table with units, then the solver's messages in words."""
    rows = [
        {"kpi": name, "value": result.kpis[name], "units": units}
        for name, (units, _) in KPI_SPECS.items()
        if name in result.kpis
    ]
    print_table(rows, {"kpi": "KPI", "value": "value", "units": "units"}, title=title)
    out = console()
    for message in result.messages:
        out.print(f"[yellow]{escape(message)}[/yellow]")


def _parse_pareto(text: str | None) -> tuple[str, int] | None:
    if text is None:
        return None
    term, _, count = text.partition(":")
    if term not in PARETO_TERMS or not count.isdigit() or int(count) < 2:
        raise UsageError("--pareto", f"expected latency:N or carbon:N with N >= 2, got {text!r}")
    return term, int(count)


def _check_writable(output: Path | None, option: str = "--output") -> None:
    if output is None:
        return
    folder = output.resolve().parent
    if not folder.exists():
        raise UsageError(option, f"folder {folder} does not exist")
    if output.exists() and output.is_dir():
        raise UsageError(option, f"{output} is a folder; give a file name such as out.nc")
    probe = folder / f".{output.name}.write-test"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise UsageError(option, f"cannot write to {folder}: {error.strerror}") from None


class _progress:  # noqa: N801 - used as a context manager, reads like a function
    """Show the current phase with elapsed time on stderr, then each phase's time."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.bar = None
        self.task = None
        self.marks: list[tuple[str, float]] = []

    def __enter__(self):
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
        return self.advance

    def advance(self, phase: str) -> None:
        self.marks.append((phase, time.perf_counter()))
        if self.bar is not None:
            self.bar.update(self.task, description=PHASES.get(phase, phase))

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
