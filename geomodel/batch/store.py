"""The batch output folder: one NetCDF and one JSON record per scenario, a manifest,
and the combined Dataset with a ``scenario`` dimension.

Layout of OUTDIR::

    results/<hash>.nc     the result of one scenario (written atomically)
    results/<hash>.json   its record: status, message, seconds, worker (written after the .nc)
    manifest.csv          one row per case: name, parameters, hash, status, message, seconds
    combined.nc           every solved case along ``scenario``, parameters as coordinates

A record's existence means its result is complete, so a crashed or killed sweep
resumes by skipping the cases whose record exists with the same hash.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd
import xarray as xr

from geomodel.errors import UsageError
from geomodel.results.kpis import KPI_SPECS
from geomodel.results.stack import stack_results

RESULTS = "results"
MANIFEST = "manifest.csv"
COMBINED = "combined.nc"
#: prefix of the manifest columns holding swept parameters
PARAM = "param:"
#: the status of a case stopped at its time limit before any feasible solution
NO_SOLUTION = "no_solution"
#: statuses worth keeping on a rerun (an "error" may be transient and is retried)
FINAL_STATUSES = frozenset({"optimal", "time_limit", "infeasible", "unbounded", NO_SOLUTION})


def check_writable(outdir: Path) -> None:
    """Refuse an output folder we cannot create or write into, before anything runs."""
    try:
        (outdir / RESULTS).mkdir(parents=True, exist_ok=True)
        probe = outdir / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise UsageError("-o/--output", f"cannot write to {outdir}: {error.strerror}") from None


def record_path(outdir: Path, scenario_hash: str) -> Path:
    return outdir / RESULTS / f"{scenario_hash}.json"


def result_path(outdir: Path, scenario_hash: str) -> Path:
    return outdir / RESULTS / f"{scenario_hash}.nc"


def write_json_atomic(path: Path, data: Any) -> None:
    """Write to a temporary file, flush to disk, then rename into place."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, default=str)
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)


def read_record(outdir: Path, scenario_hash: str) -> dict | None:
    path = record_path(outdir, scenario_hash)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def finished(outdir: Path, scenario_hash: str) -> dict | None:
    """The record of a case already done (not to be run again), or None."""
    record = read_record(outdir, scenario_hash)
    if record is None or record.get("status") not in FINAL_STATUSES:
        return None
    return record if result_path(outdir, scenario_hash).exists() else None


def write_manifest(outdir: Path, rows: list[dict]) -> Path:
    """manifest.csv: one row per case, parameters as columns."""
    frame = pd.DataFrame(rows)
    path = outdir / MANIFEST
    tmp = path.with_name(f".{path.name}.tmp")
    frame.to_csv(tmp, index=False)
    tmp.replace(path)
    return path


def kpi_table(outdir: Path) -> pd.DataFrame:
    """One row per case with its parameters, status and KPIs."""
    manifest = outdir / MANIFEST
    if not manifest.exists():
        raise UsageError("OUTDIR", f"{outdir} holds no batch results ({MANIFEST} missing)")
    rows = pd.read_csv(manifest, dtype={"hash": str})
    kpis = []
    for scenario_hash in rows["hash"]:
        record = read_record(outdir, str(scenario_hash)) or {}
        kpis.append(record.get("kpis", {}))
    kpi_frame = pd.DataFrame(kpis, index=rows.index)
    keep = [k for k in KPI_SPECS if k in kpi_frame.columns and k not in rows.columns]
    return pd.concat([rows, kpi_frame[keep]], axis=1)


def combine(outdir: Path) -> xr.Dataset:
    """Every solved case along a ``scenario`` dimension, swept parameters as coordinates."""
    table = kpi_table(outdir)
    solved = table[table["status"].isin(["optimal", "time_limit"])]
    solved = solved.drop_duplicates("case")
    solved = solved[[result_path(outdir, str(h)).exists() for h in solved["hash"]]]
    if solved.empty:
        return xr.Dataset(coords={"scenario": []})
    # the results group alone (what Result.dataset holds): open_result reads the inputs
    # group as well, which doubled the time of this step
    datasets = [xr.load_dataset(result_path(outdir, str(h)), engine="h5netcdf") for h in solved["hash"]]
    combined = stack_results(datasets, solved.to_dict(orient="records"), "scenario")
    combined = combined.assign_coords(scenario=("scenario", solved["case"].astype(str).tolist()))
    for column in _parameter_columns(solved):
        values = solved[column].tolist()
        combined = combined.assign_coords({column.removeprefix(PARAM): ("scenario", values)})
    return combined


def _parameter_columns(table: pd.DataFrame) -> list[str]:
    return [c for c in table.columns if c.startswith(PARAM)]


def open_batch(outdir: str | Path) -> tuple[xr.Dataset, pd.DataFrame]:
    """The combined Dataset (``scenario`` dimension) and the KPI table of a batch folder."""
    outdir = Path(outdir)
    return combine(outdir), kpi_table(outdir)
