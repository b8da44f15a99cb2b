"""Tables a workload refers to: tokens per request of a service, sizes of a job pool.

A service's ``token_lengths`` table (one row per request, e.g. a slice of the Azure
LLM inference trace) gives the means its rate is computed at; a pool's ``sizes_file``
(one row per job size: ``chips``, ``jobs`` and optionally ``gpu_hours``) gives the
distribution its members are dealt from. Problems name the file, the column and the
first bad row; every table is read once, when the scenario is loaded.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path as FilePath

import numpy as np
import pandas as pd

from geomodel.scenario.files import resolve_inside
from geomodel.scenario.problems import Problem, ScenarioError
from geomodel.scenario.schema import Scenario

POOL_COLUMNS = ("chips", "jobs")
POOL_WEIGHT_COLUMN = "gpu_hours"


class TableError(ValueError):
    """A table cannot be used; the message says why in the user's terms."""


def read_workload_tables(scenario: Scenario, origin) -> list[Problem]:
    """Read every token-length and pool-size table into ``origin``; the problems found."""
    problems: list[Problem] = []
    document = origin.document
    origin.token_lengths = {}
    origin.pool_sizes = {}
    wanted = [
        (("inference", name, "token_lengths", "file"), name, service.token_lengths.file, "tokens")
        for name, service in scenario.inference.items()
        if service.token_lengths is not None
    ] + [
        (("training", name, "pool", "sizes_file"), name, job.pool.sizes_file, "pool")
        for name, job in scenario.training.items()
        if job.pool is not None and job.pool.sizes_file is not None
    ]
    for where, name, file, kind in wanted:
        field = ".".join(where)
        try:
            base = document.folder_of(where, origin.folder)
            target = resolve_inside(base, file, origin.folder, field, document.position(where))
            if kind == "tokens":
                lengths = scenario.inference[name].token_lengths
                origin.token_lengths[name] = token_means(
                    target, lengths.prompt_column, lengths.output_column
                )
            else:
                origin.pool_sizes[name] = pool_sizes(target)
        except ScenarioError as error:
            problems.extend(error.problems)
            continue
        except TableError as error:
            problems.append(Problem(field, str(error), document.position(where), file))
            continue
        origin.referenced_files.append(target)
    return problems


def _read(path: FilePath) -> pd.DataFrame:
    try:
        return pd.read_csv(path)  # compression from the suffix (.gz)
    except FileNotFoundError:
        raise TableError(f"file {path.name} does not exist") from None
    except (OSError, UnicodeDecodeError, pd.errors.ParserError, pd.errors.EmptyDataError) as error:
        raise TableError(f"cannot read {path.name} as CSV: {str(error).strip()}") from None


def _numbers(frame: pd.DataFrame, column: str, path: FilePath, low: float) -> np.ndarray:
    """A column as numbers of at least ``low``; the first bad row named (line 1 = header)."""
    if column not in frame.columns:
        raise TableError(
            f"{path.name} has no column {column!r} (columns: {', '.join(map(str, frame.columns))})"
        )
    values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
    bad = np.flatnonzero(~(values >= low))
    if len(bad):
        row = int(bad[0])
        raise TableError(
            f"{path.name} line {row + 2}, column {column!r}: {frame[column].iloc[row]!r} is not a "
            f"number of at least {low:g} ({len(bad)} such rows)"
        )
    return values


def token_means(path: FilePath, prompt_column: str, output_column: str) -> tuple[float, float]:
    """Mean prompt and output tokens per request of a request table (read once per file
    version: the variant checks and the app read the same table again)."""
    try:
        version = path.stat().st_mtime_ns
    except OSError:
        raise TableError(f"file {path.name} does not exist") from None
    return _token_means(str(path), version, prompt_column, output_column)


@lru_cache(maxsize=64)
def _token_means(path: str, version: int, prompt_column: str, output_column: str) -> tuple[float, float]:
    path = FilePath(path)
    frame = _read(path)
    if frame.empty:
        raise TableError(f"{path.name} has no requests")
    prompt = _numbers(frame, prompt_column, path, 0)
    output = _numbers(frame, output_column, path, 1)
    return float(prompt.mean()), float(output.mean())


def pool_sizes(path: FilePath) -> pd.DataFrame:
    """A job-size distribution: chips per job, jobs of that size, optional GPU-hours."""
    frame = _read(path)
    if frame.empty:
        raise TableError(f"{path.name} has no job sizes")
    table = pd.DataFrame({column: _numbers(frame, column, path, 1) for column in POOL_COLUMNS})
    if POOL_WEIGHT_COLUMN in frame.columns:
        table[POOL_WEIGHT_COLUMN] = _numbers(frame, POOL_WEIGHT_COLUMN, path, 0)
    return table
