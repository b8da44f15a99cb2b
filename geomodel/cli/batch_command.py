"""``geomodel batch``: run a sweep on Dask with a live progress bar, then a KPI table."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from geomodel.cli.output import JSON_HELP, console, print_json, print_table
from geomodel.errors import GeomodelError

#: KPI columns of the batch table, in order
TABLE_KPIS = (
    "energy_mwh",
    "cost_usd",
    "emissions_tco2",
    "latency_ms_mean",
    "unserved_fraction",
    "objective",
)


def batch(
    sweep_file: Path = typer.Argument(..., help="Sweep YAML file."),
    output: Path = typer.Option(..., "--output", "-o", help="Output folder (created if needed)."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="Address of a running Dask scheduler (or DASK_SCHEDULER_ADDRESS)."
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Workers of the local cluster (default: one per core)."
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Run every case of a sweep; rerunning skips finished cases."""
    from geomodel.batch.engine import run_batch
    from geomodel.batch.store import MANIFEST, check_writable, kpi_table
    from geomodel.batch.sweep import load_sweep

    # the usual mistakes end in one line, before the progress bar or any cluster starts
    check_writable(output)
    load_sweep(sweep_file)
    bar = _BatchBar(quiet=json_output)
    with bar as show:
        summary = run_batch(sweep_file, output, scheduler=scheduler, workers=workers, progress=show)
    table = kpi_table(output)
    if json_output:
        print_json({"outdir": str(output), "cases": table.to_dict(orient="records")})
    else:
        print_batch_table(table, f"{sweep_file.name}: {len(table)} cases in {output}")
        if bar.last is not None:
            console().print(progress_counts(bar.last, final=True))
    if summary.failed:
        if not json_output:
            for row in summary.failed:
                head = escape(f"{row['case']}: {row['status']}")
                console().print(f"[red]{head}[/red] {escape(str(row.get('message', '')))}")
        # exit 1 with a last line that says how many failed and where to look
        raise GeomodelError(
            f"{len(summary.failed)} of {len(summary.rows)} cases failed; see {output / MANIFEST}"
        )


def print_batch_table(table, title: str) -> None:
    """Cases with their swept parameters, status and headline KPIs."""
    # a cases sweep records each case's name as a parameter too; the first column shows it
    params = [c for c in table.columns if c.startswith("param:") and c != "param:case"]
    columns = {"case": "case", **{p: p.removeprefix("param:") for p in params}, "status": "status"}
    columns.update({k: k for k in TABLE_KPIS if k in table.columns})
    print_table(table.to_dict(orient="records"), columns, title=title)


def progress_counts(state, final: bool = False) -> str:
    """``done 2, skipped 8 (already solved), failed 0, ...``: cases a rerun finds finished
    are skipped, not done again."""
    parts = [f"done {state.done - state.skipped}"]
    if state.skipped:
        parts.append(f"skipped {state.skipped} (already solved)")
    parts.append(f"failed {state.failed}")
    if not final:
        eta = state.eta_seconds
        parts += [f"running {state.running}", f"remaining {state.remaining}"]
        parts += [f"ETA {eta:.0f} s"] if eta else []
    return ", ".join(parts)


class _BatchBar:
    """done / failed / running / remaining / ETA, on stderr."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.bar: Progress | None = None
        self.task = None
        self.last = None  # the last state shown

    def __enter__(self):
        if not self.quiet:
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.fields[counts]}"),
                TimeElapsedColumn(),
                console=console(stderr=True),
            )
            self.bar.__enter__()
            self.task = self.bar.add_task("sweep", total=None, counts="planning")
        return self.update

    def update(self, state) -> None:
        self.last = state
        if self.bar is None:
            return
        counts = progress_counts(state)
        self.bar.update(self.task, total=state.total, completed=state.done + state.failed, counts=counts)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            if exc[0] is not None:  # the error's one line says it all; no stale bar above it
                self.bar.live.transient = True
            self.bar.__exit__(*exc)
