"""Read and check job tables (CSV or Parquet, one row per training job).

Every problem names the table's file, the rows (1-based data rows; the CSV
line of the first one) and the column, all problems of a file at once; rows
with the same problem in the same column share one line. The columns are
checked with numpy over whole columns, so 100,000 rows load in well under a
second (bench/job_table.py). Parquet is read with pyarrow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from pathlib import PurePath
from typing import Any

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog
from geomodel.scenario.files import Document, resolve_inside
from geomodel.scenario.job_columns import (
    EFLOP_PER_PFLOPS_HOUR,
    JobColumns,
    eflop_of_chip_hours,
)
from geomodel.scenario.problems import Position, Problem, ScenarioError
from geomodel.scenario.schema import NAME_PATTERN, JobTable, Scenario, TrainingJob

#: Standard columns: name -> (unit, what it holds). docs/scenarios.md lists them (a test checks).
COLUMNS: dict[str, tuple[str, str]] = {
    "name": ("", "job name, unique across the scenario (letters, digits, _ . -)"),
    "arrival": ("date-time", "earliest start, ISO 8601 with a UTC offset"),
    "arrival_h": ("h", "earliest start as hours after the start of the horizon"),
    "deadline": ("date-time", "latest finish (exclusive), ISO 8601 with a UTC offset"),
    "deadline_h": ("h", "latest finish as hours after the start of the horizon"),
    "slack_h": ("h", "time the job may finish after its earliest finish (arrival + run time)"),
    "gpu_hours": ("chip-h", "work as chip-hours on 'system' at the row's MFU"),
    "duration_h": (
        "h",
        "work as a run time on 'chips' chips of 'system' (GPU-hours = duration x chips)",
    ),
    "chip_hours": ("chip-h", "work as chip-hours on any system alike"),
    "flop": ("FLOP", "work in FLOP"),
    "chips": ("chips", "chips the job runs on (its most at any step)"),
    "max_chips": ("chips", "most chips at any step (blank: every installed chip)"),
    "min_chips": ("chips", "chips kept in every step of the window (blank: the job may pause)"),
    "system": ("", "hardware system the GPU-hours or duration were measured on"),
    "origin": ("", "site holding the job's data"),
    "sites": ("", "allowed sites, separated by ';' (blank: all)"),
    "jurisdictions": ("", "allowed site jurisdictions, separated by ';' (blank: all)"),
    "data_gb": ("GB", "data moved to any site other than the origin"),
    "mfu": ("1", "model FLOPs utilisation (blank: the table's)"),
    "precision": ("", "bf16 or fp8 (blank: the table's)"),
    "tp": ("1", "tensor-parallel degree (blank: 1)"),
    "ep": ("1", "expert-parallel degree (blank: 1)"),
    "pp": ("1", "pipeline-parallel degree (blank: 1)"),
    "gradient_gb": ("GB", "gradient bytes per data-parallel sync, needed only to span linked sites"),
}
WORK_COLUMNS = ("gpu_hours", "duration_h", "chip_hours", "flop")
#: Rows of one problem named in full before the rest are counted.
MAX_RUNS = 40
_OFFSET = re.compile(r"(?:Z|[+-]\d{2}:?\d{2})$")
#: Sync interval of table jobs (the YAML default), for the DP traffic of jobs that span sites.
SYNC_INTERVAL_S = 10.0


@dataclass
class TableLabel:
    """How problems name a table: its file as the user wrote it, and whether it is a CSV."""

    file: str
    csv: bool

    def position(self, row: int) -> Position:
        """A CSV's line of a data row (the header is line 1); a Parquet file has no lines."""
        return Position(self.file, row + 1 if self.csv else None)


def row_runs(rows: np.ndarray) -> str:
    """``[1, 2, 3, 7]`` -> ``rows 1-3, 7``; past :data:`MAX_RUNS` runs, how many rows are left."""
    rows = np.unique(np.asarray(rows, dtype=np.int64))
    if len(rows) == 1:
        return f"row {rows[0]}"
    breaks = np.flatnonzero(np.diff(rows) != 1) + 1
    starts = np.concatenate([[0], breaks])
    ends = np.concatenate([breaks, [len(rows)]]) - 1
    runs = [
        f"{rows[a]}" if a == b else f"{rows[a]}-{rows[b]}"
        for a, b in zip(starts[:MAX_RUNS], ends[:MAX_RUNS], strict=True)
    ]
    text = "rows " + ", ".join(runs)
    if len(starts) > MAX_RUNS:
        text += f" and {int(len(rows) - ends[MAX_RUNS - 1] - 1)} more ({len(rows)} rows in all)"
    return text


def row_problem(
    table: str,
    label: TableLabel,
    rows: np.ndarray,
    column: str | None,
    message: str,
    values: Any = None,
    warning: bool = False,
) -> Problem:
    """One problem shared by ``rows`` of a table, named by file, rows and column."""
    rows = np.asarray(rows)
    where = f"{row_runs(rows)}, column {column}: " if column else f"{row_runs(rows)}: "
    got = {}
    if values is not None:
        shown = list(dict.fromkeys(_plain(v) for v in np.asarray(values, dtype=object)[:4]))
        got = {"value": shown[0] if len(shown) == 1 else shown}
    return Problem(
        f"job_tables.{table}",
        where + message,
        label.position(int(rows.min())),
        severity="warning" if warning else "error",
        **got,
    )


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    return value


@dataclass
class _Reader:
    """Checks one table's columns and collects every problem."""

    table: str
    label: TableLabel
    frame: pd.DataFrame
    rows: np.ndarray  #: 1-based data row of each frame row
    problems: list[Problem] = field(default_factory=list)

    def report(self, bad: np.ndarray, column: str | None, message: str, values=None, warning=False):
        if bad.any():
            shown = None if values is None else np.asarray(values, dtype=object)[bad]
            self.problems.append(
                row_problem(self.table, self.label, self.rows[bad], column, message, shown, warning)
            )

    def has(self, column: str) -> bool:
        return column in self.frame.columns

    def text(self, column: str) -> np.ndarray:
        """The column as stripped text ('' where blank)."""
        if not self.has(column):
            return np.full(len(self.frame), "", dtype=object)
        values = self.frame[column]
        text = values.astype("string").fillna("").str.strip()
        return text.to_numpy(dtype=object)

    def number(
        self,
        column: str,
        *,
        low: float | None = None,
        low_inclusive: bool = True,
        high: float | None = None,
        whole: bool = False,
        unit: str = "",
    ) -> np.ndarray:
        """The column as floats (NaN where blank); every other value is reported."""
        if not self.has(column):
            return np.full(len(self.frame), np.nan)
        raw = self.frame[column]
        if pd.api.types.is_bool_dtype(raw):
            self.report(np.ones(len(raw), bool), column, "must be a number, not true/false", raw)
            return np.full(len(raw), np.nan)
        if pd.api.types.is_numeric_dtype(raw):
            values = raw.to_numpy(dtype=float)
            blank = np.isnan(values)
        else:
            text = raw.astype("string").fillna("").str.strip()
            blank = (text == "").to_numpy()
            values = pd.to_numeric(text.where(~blank, None), errors="coerce").to_numpy(dtype=float)
            self.report(np.isnan(values) & ~blank, column, "must be a number", raw)
        infinite = np.isinf(values)
        self.report(infinite, column, "must be a finite number", raw)
        values = np.where(infinite, np.nan, values)
        ok = ~np.isnan(values)
        suffix = f" {unit}" if unit else ""
        if low is not None:
            below = ok & ((values < low) if low_inclusive else (values <= low))
            word = "at least" if low_inclusive else "greater than"
            self.report(below, column, f"must be {word} {low:g}{suffix}", values)
            ok &= ~below
        if high is not None:
            above = ok & (values > high)
            self.report(above, column, f"must be at most {high:g}{suffix}", values)
            ok &= ~above
        if whole:
            fraction = ok & (np.mod(values, 1) != 0)
            self.report(fraction, column, "must be a whole number", values)
            ok &= ~fraction
        return np.where(ok, values, np.nan)

    def hours_after(self, column: str, start: pd.Timestamp) -> np.ndarray:
        """A date-time column as hours after ``start`` (NaN where blank or bad)."""
        if not self.has(column):
            return np.full(len(self.frame), np.nan)
        raw = self.frame[column]
        if pd.api.types.is_datetime64_any_dtype(raw):
            if getattr(raw.dt, "tz", None) is None:
                self.report(
                    raw.notna().to_numpy(),
                    column,
                    "needs a UTC offset (the Parquet column has no time zone)",
                )
                return np.full(len(raw), np.nan)
            times = raw.dt.tz_convert("UTC")
        else:
            text = raw.astype("string").fillna("").str.strip()
            blank = (text == "").to_numpy()
            numeric = pd.to_numeric(text.where(~blank, None), errors="coerce").notna().to_numpy()
            self.report(
                numeric, column, f"expected a date-time with a UTC offset (hours go in {column}_h)", raw
            )
            offset = text.str.contains(_OFFSET, regex=True).fillna(False).to_numpy()
            self.report(
                ~blank & ~numeric & ~offset,
                column,
                "needs a UTC offset, e.g. 2025-01-01T00:00:00+00:00",
                raw,
            )
            good = ~blank & ~numeric & offset
            times = pd.to_datetime(text.where(good, None), format="ISO8601", utc=True, errors="coerce")
            self.report(good & times.isna().to_numpy(), column, "is not an ISO 8601 date-time", raw)
        delta = (times - start.tz_convert("UTC")).dt.total_seconds().to_numpy(dtype=float)
        return delta / 3600.0


#: field separators a CSV job table may use, the first the standard one
SEPARATORS = (",", ";", "\t", "|")


def read_frame(path: FilePath) -> tuple[pd.DataFrame, str]:
    """The table's rows: CSV (as text, so values keep their spelling) or Parquet (pyarrow),
    and the CSV's field separator (read from its header: a spreadsheet saved in some
    locales separates by ';')."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        return pd.read_parquet(path, engine="pyarrow"), ","
    if suffix == ".csv":
        with path.open(encoding="utf-8", newline="") as file:
            header = file.readline()
        separator = max(SEPARATORS, key=header.count) if header.count(",") == 0 else ","
        frame = pd.read_csv(
            path, sep=separator, dtype=str, keep_default_na=False, skip_blank_lines=False
        )
        return frame, separator
    raise ValueError(f"unknown table type {suffix or '(none)'}; use .csv or .parquet")


def read_job_tables(
    scenario: Scenario, document: Document, folder: FilePath, catalog: Catalog
) -> tuple[dict[str, JobColumns], dict[str, TableLabel], list[FilePath], list[Problem]]:
    """Every job table of the scenario as columns, with the files read and all problems."""
    taken = {name: "training" for name in scenario.training}
    taken.update({name: "inference" for name in scenario.inference})
    tables: dict[str, JobColumns] = {}
    labels: dict[str, TableLabel] = {}
    files: list[FilePath] = []
    problems: list[Problem] = []
    for name, spec in scenario.job_tables.items():
        where = ("job_tables", name, "file")
        position = document.position(where)
        shown = str(PurePath(position.file).parent / spec.file) if position else spec.file
        label = TableLabel(shown, spec.file.lower().endswith(".csv"))
        try:
            base = document.folder_of(where, folder)
            path = resolve_inside(base, spec.file, folder, ".".join(where), position)
            frame, separator = read_frame(path)
        except ScenarioError as error:
            problems.extend(error.problems)
            continue
        except FileNotFoundError:
            problems.append(Problem(".".join(where), f"file {spec.file} does not exist", position))
            continue
        except (OSError, ValueError, UnicodeDecodeError, pd.errors.ParserError, ImportError) as error:
            message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            problems.append(Problem(".".join(where), f"cannot read {spec.file}: {message}", position))
            continue
        files.append(path)
        labels[name] = label
        if separator != ",":
            shown_separator = {"\t": "tabs"}.get(separator, repr(separator))
            problems.append(
                Problem(
                    f"job_tables.{name}",
                    f"{label.file} separates its fields by {shown_separator}, not commas; read that way",
                    Position(label.file, 1),
                    severity="warning",
                )
            )
        columns, found = table_columns(name, spec, frame, label, scenario, catalog, taken)
        problems.extend(found)
        if columns is not None:
            tables[name] = columns
            taken.update(dict.fromkeys(columns.name.tolist(), f"job table {name!r}"))
    return tables, labels, files, problems


def _rename(
    spec: JobTable, frame: pd.DataFrame, table: str, label: TableLabel
) -> tuple[pd.DataFrame, list]:
    """Standard column names from the table's own (``columns``), checked."""
    problems = []
    where = Position(label.file)
    for standard, own in spec.columns.items():
        if standard not in COLUMNS:
            problems.append(
                Problem(
                    f"job_tables.{table}.columns.{standard}",
                    f"unknown standard column; known: {', '.join(COLUMNS)}",
                )
            )
        elif own not in frame.columns:
            problems.append(
                Problem(
                    f"job_tables.{table}.columns.{standard}",
                    f"{label.file} has no column {own!r} "
                    f"(columns: {', '.join(map(str, frame.columns))})",
                    where,
                )
            )
    mapping = {own: standard for standard, own in spec.columns.items() if standard in COLUMNS}
    return frame.rename(columns=mapping), problems


def table_columns(
    table: str,
    spec: JobTable,
    frame: pd.DataFrame,
    label: TableLabel,
    scenario: Scenario,
    catalog: Catalog,
    taken: dict[str, str],
) -> tuple[JobColumns | None, list[Problem]]:
    """One table's rows as :class:`JobColumns`, and every problem found in it."""
    frame, problems = _rename(spec, frame, table, label)
    where = Position(label.file)
    path = f"job_tables.{table}"
    if "name" not in frame.columns:
        problems.append(Problem(path, f"{label.file} has no 'name' column", where))
    work_columns = [c for c in WORK_COLUMNS if c in frame.columns]
    if not work_columns:
        problems.append(
            Problem(
                path, f"{label.file} has no work column: give one of {', '.join(WORK_COLUMNS)}", where
            )
        )
    if problems:
        return None, problems
    # blank lines of a CSV are no jobs; rows keep their place for line numbers
    texts = frame.astype("string").fillna("").apply(lambda c: c.str.strip())
    filled = (texts != "").any(axis=1).to_numpy()
    frame = frame.loc[filled].reset_index(drop=True)
    rows = np.flatnonzero(filled) + 1
    if not len(frame):
        problems.append(
            Problem(
                path,
                f"{label.file} has no rows, only a header: the table adds no job",
                where,
                severity="warning",
            )
        )
    reader = _Reader(table, label, frame, rows)
    columns = _columns(reader, spec, scenario, catalog, taken)
    problems += reader.problems
    return (None if any(p.severity == "error" for p in problems) else columns), problems


def _columns(
    reader: _Reader, spec: JobTable, scenario: Scenario, catalog: Catalog, taken: dict[str, str]
) -> JobColumns:
    n = len(reader.frame)
    report = reader.report
    sites = list(scenario.sites)
    horizon_h = scenario.time.horizon_hours
    names = reader.text("name")
    blank_name = names == ""
    report(blank_name, "name", "every job needs a name")
    named = pd.Series(names, dtype="string")
    bad_name = ~blank_name & ~named.str.fullmatch(NAME_PATTERN).fillna(False).to_numpy()
    bad_name |= named.str.len().fillna(0).to_numpy() > 64
    report(
        bad_name,
        "name",
        "names use letters, digits, '_', '.' and '-', start with a letter or digit, "
        "at most 64 characters",
        names,
    )
    duplicate = named.duplicated(keep=False).to_numpy() & ~blank_name
    for value in pd.unique(names[duplicate]):
        report(names == value, "name", f"job name {value!r} repeats")
    clash = np.array([taken.get(v, "") for v in names], dtype=object)
    for owner in pd.unique(clash[clash != ""]):
        report(clash == owner, "name", f"already names a job or service ({owner})", names)

    chips = reader.number("chips", low=1, whole=True, unit="chips")
    max_chips = reader.number("max_chips", low=1, whole=True, unit="chips")
    min_chips = reader.number("min_chips", low=1, whole=True, unit="chips")
    both = ~np.isnan(chips) & ~np.isnan(max_chips)
    report(both, "max_chips", "give 'chips' or 'max_chips', not both")
    cap = np.where(np.isnan(chips), max_chips, chips)
    report(~np.isnan(min_chips) & (min_chips > cap), "min_chips", "is above the job's chips", min_chips)

    systems = reader.text("system")
    systems = np.where(systems == "", spec.system or "", systems)
    known = set(catalog.hardware)
    unknown = (systems != "") & ~np.isin(systems, list(known))
    for value in pd.unique(systems[unknown]):
        report(systems == value, "system", f"unknown hardware system {value!r} (see `geomodel plugins`)")
    systems = np.where(unknown, "", systems)

    mfu = reader.number("mfu", low=0, low_inclusive=False, high=1)
    mfu = np.where(np.isnan(mfu), spec.mfu, mfu)
    precision = reader.text("precision")
    precision = np.where(precision == "", spec.precision, precision)
    bad_precision = ~np.isin(precision, ["bf16", "fp8"])
    report(bad_precision, "precision", "must be bf16 or fp8", precision)
    precision = np.where(bad_precision, spec.precision, precision)
    pflops = _peak(catalog, systems, precision)

    work = {c: reader.number(c, low=0, low_inclusive=False) for c in WORK_COLUMNS}
    given = np.stack([reader.text(c) != "" for c in WORK_COLUMNS])  # a bad value is reported above
    report(
        given.sum(axis=0) == 0,
        None,
        f"no work: give one of {', '.join(c for c in WORK_COLUMNS if reader.has(c))}",
    )
    report(given.sum(axis=0) > 1, None, "work is given twice; give one work column per row")
    needs_system = (
        (~np.isnan(work["gpu_hours"]) | ~np.isnan(work["duration_h"])) & (systems == "") & ~unknown
    )
    report(
        needs_system,
        "system",
        "GPU-hours and durations need the system they were measured on "
        "(a 'system' column or the table's 'system')",
    )
    report(~np.isnan(work["duration_h"]) & np.isnan(chips), "chips", "a duration needs the job's chips")
    gpu_hours = np.where(~np.isnan(work["duration_h"]), work["duration_h"] * chips, work["gpu_hours"])
    uniform = ~np.isnan(work["chip_hours"])
    reference = np.where(systems != "", pflops, 1.0)
    work_eflop = np.full(n, np.nan)
    work_eflop = np.where(~np.isnan(gpu_hours), eflop_of_chip_hours(gpu_hours, pflops, mfu), work_eflop)
    work_eflop = np.where(uniform, eflop_of_chip_hours(work["chip_hours"], reference, mfu), work_eflop)
    work_eflop = np.where(~np.isnan(work["flop"]), work["flop"] / 1e18, work_eflop)
    # run time at the job's chips on its system: the earliest finish is arrival + run time
    per_chip_hour = np.where(uniform, reference, pflops) * mfu * EFLOP_PER_PFLOPS_HOUR
    with np.errstate(invalid="ignore", divide="ignore"):
        run_h = np.where(
            ~np.isnan(work["duration_h"]), work["duration_h"], work_eflop / (cap * per_chip_hour)
        )

    start = scenario.time.start
    arrival = _either(reader, "arrival", start)
    deadline = _either(reader, "deadline", start)
    slack = reader.number("slack_h", low=0, unit="h")
    report(~np.isnan(deadline) & ~np.isnan(slack), "slack_h", "give 'deadline' or 'slack_h', not both")
    arrival = np.where(np.isnan(arrival), 0.0, arrival)
    slack = np.where(
        np.isnan(slack) & np.isnan(deadline) & (spec.slack is not None), spec.slack or 0.0, slack
    )
    uses_slack = ~np.isnan(slack)
    report(
        uses_slack & np.isnan(run_h) & ~np.isnan(work_eflop),
        "slack_h",
        "a slack needs the job's run time: give 'chips' or 'max_chips' (and a 'system' for FLOP work)",
    )
    _report_early_deadlines(reader, ~np.isnan(deadline) & (deadline <= arrival))
    deadline = np.where(uses_slack, arrival + run_h + slack, deadline)
    # no deadline and no slack: the end of the horizon (a row arriving after it is left out)
    deadline = np.where(np.isnan(deadline), horizon_h, deadline)

    # windows widen to whole steps (a job arriving at 10:37 may use the step from 10:00)
    grid = 1.0 if scenario.time.aggregation is not None else float(scenario.time.resolution)
    start_h = np.floor(arrival / grid + 1e-9) * grid
    end_h = np.ceil(deadline / grid - 1e-9) * grid
    outside = (end_h <= 0) | (start_h >= horizon_h)
    report(outside, None, f"lies wholly outside the horizon of {horizon_h:g} h; left out", warning=True)
    start_h, end_h = np.clip(start_h, 0, horizon_h), np.clip(end_h, 0, horizon_h)

    origin_names = reader.text("origin")
    origin = np.array([sites.index(v) if v in sites else -1 for v in origin_names], dtype=np.int64)
    for value in pd.unique(origin_names[(origin_names != "") & (origin < 0)]):
        report(
            origin_names == value, "origin", f"unknown site {value!r}; known sites: {', '.join(sites)}"
        )
    data_gb = reader.number("data_gb", low=0, unit="GB")
    data_gb = np.where(np.isnan(data_gb), 0.0, data_gb)
    report((data_gb > 0) & (origin_names == ""), "data_gb", "data needs an 'origin' site to move from")
    allowed = _allowed(reader, scenario, spec, origin, origin_names)
    degrees = {d: reader.number(d, low=1, whole=True) for d in ("tp", "ep", "pp")}
    degrees = {d: np.where(np.isnan(v), 1, v).astype(np.int64) for d, v in degrees.items()}
    gradient = reader.number("gradient_gb", low=0, low_inclusive=False, unit="GB")
    keep = ~outside
    return JobColumns(
        name=names.astype(object),
        table=np.full(n, reader.table, dtype=object),
        row=reader.rows.astype(np.int64),
        work_eflop=work_eflop,
        uniform_rate=uniform,
        reference_pflops=np.where(uniform, reference, np.nan),
        mfu=mfu.astype(float),
        precision=precision.astype(object),
        model=np.full(n, "", dtype=object),
        params=np.full(n, np.nan),
        active_params=np.full(n, np.nan),
        sequence_tokens=np.full(n, TrainingJob.model_fields["sequence_length"].default),
        batch_tokens=np.full(n, np.nan),
        max_chips=cap,
        min_chips=np.where(np.isnan(min_chips), 0.0, min_chips),
        **degrees,
        start_h=start_h,
        end_h=end_h,
        origin=origin,
        data_gb=data_gb,
        allowed=allowed,
        gradient_gb=gradient,
        sync_interval_s=np.full(n, SYNC_INTERVAL_S),
        pipeline_budget_ms=np.full(n, np.nan),
        checkpoint_minutes=np.zeros(n),
        restart_minutes=np.full(n, float(spec.restart)),
        goodput_modelled=np.full(n, not spec.failures_in_work),
        synchronous=np.ones(n, dtype=bool),
        one_site=np.zeros(n, dtype=bool),
    ).take(keep)


def _report_early_deadlines(reader: _Reader, early: np.ndarray) -> None:
    """A given deadline at or before the arrival, quoted as the file writes both."""
    arrival = _as_written(reader, "arrival")
    for column in ("deadline", "deadline_h"):
        written = reader.text(column)
        bad = early & (written != "")
        written = np.char.add(written.astype(str), " h") if column.endswith("_h") else written
        if bad.any():
            values = np.full(len(bad), "", dtype=object)
            values[bad] = [
                f"{d} vs arrival {a or 'at the start'}"
                for d, a in zip(written[bad], arrival[bad], strict=True)
            ]
            reader.report(bad, column, "must be after the arrival", values)


def _as_written(reader: _Reader, column: str) -> np.ndarray:
    """``column`` or ``column_h`` as the file writes it (hours with their unit)."""
    hours = reader.text(f"{column}_h")
    return np.where(hours != "", np.char.add(hours.astype(str), " h"), reader.text(column))


def _either(reader: _Reader, column: str, start: pd.Timestamp) -> np.ndarray:
    """Hours after the horizon's start from ``column`` (date-time) or ``column_h`` (hours)."""
    as_time = reader.hours_after(column, pd.Timestamp(start))
    as_hours = reader.number(f"{column}_h")
    reader.report(
        ~np.isnan(as_time) & ~np.isnan(as_hours),
        f"{column}_h",
        f"give '{column}' or '{column}_h', not both",
    )
    return np.where(np.isnan(as_time), as_hours, as_time)


def _peak(catalog: Catalog, systems: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Dense peak per chip of each row's system at its precision (NaN without a system)."""
    peak = np.full(len(systems), np.nan)
    pairs = pd.unique(pd.Series(list(zip(systems, precision, strict=True)), dtype=object))
    for system, number_format in pairs:
        if system:
            value = catalog.hardware_system(system).dense_pflops_per_chip(number_format)
            peak[(systems == system) & (precision == number_format)] = value
    return peak


def _allowed(
    reader: _Reader, scenario: Scenario, spec: JobTable, origin: np.ndarray, origin_names: np.ndarray
) -> np.ndarray:
    """(row, site) the job may run at: its 'sites' and 'jurisdictions', or only its origin."""
    sites = list(scenario.sites)
    zones = np.array([s.jurisdiction for s in scenario.sites.values()], dtype=object)
    allowed = np.ones((len(origin), len(sites)), dtype=bool)
    for column, labels, kind in (
        ("sites", np.array(sites, dtype=object), "site"),
        ("jurisdictions", zones, "jurisdiction"),
    ):
        values = reader.text(column)
        for value in pd.unique(values[values != ""]):
            wanted = [v.strip() for v in value.split(";") if v.strip()]
            rows = values == value
            unknown = [w for w in wanted if w not in set(labels)]
            if unknown:
                known = ", ".join(sorted(set(labels) - {""})) or "none given"
                reader.report(
                    rows, column, f"no {kind} {', '.join(map(repr, unknown))} (known: {known})"
                )
            allowed[rows] &= np.isin(labels, wanted)[None, :]
    if spec.stay_at_origin:
        reader.report(origin_names == "", "origin", "stay_at_origin needs each job's 'origin'")
        at_origin = np.zeros_like(allowed)
        has = origin >= 0
        at_origin[np.flatnonzero(has), origin[has]] = True
        allowed &= at_origin
    nowhere = ~allowed.any(axis=1)
    reader.report(
        nowhere, "sites", "no site is allowed for this job (check sites, jurisdictions, origin)"
    )
    return allowed
