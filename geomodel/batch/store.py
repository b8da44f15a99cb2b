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

from geomodel.errors import GeomodelError, UsageError
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
#: the columns every manifest has (with ``variants``, ``message``, ``seconds`` and parameters)
MANIFEST_COLUMNS = ("case", "hash", "status")
#: what mends a damaged folder: the sweep solves only the cases whose files are gone
REWRITE = "run `geomodel batch` with the sweep again to redo what is missing"


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


def read_manifest(outdir: Path) -> pd.DataFrame:
    """The manifest's rows; a missing, unreadable or damaged manifest is one clear line."""
    manifest = outdir / MANIFEST
    if not manifest.exists():
        raise UsageError("OUTDIR", f"{outdir} holds no batch results ({MANIFEST} missing)")
    try:
        rows = pd.read_csv(manifest, dtype={"hash": str})
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, OSError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise GeomodelError(f"{manifest}: not a readable batch manifest ({reason}); {REWRITE}") from None
    missing = [c for c in MANIFEST_COLUMNS if c not in rows.columns]
    if missing:
        raise GeomodelError(
            f"{manifest}: damaged batch manifest: no {', '.join(repr(c) for c in missing)} "
            f"column (a manifest has {', '.join(MANIFEST_COLUMNS)} and the swept parameters); "
            f"{REWRITE}"
        )
    rows["hash"] = rows["hash"].fillna("")  # invalid cases have none
    return rows


def missing_files(outdir: Path, table: pd.DataFrame) -> list[str]:
    """What a batch folder lacks that its manifest names, one line each: solved cases
    without their result file, finished cases without their record (no KPIs then)."""
    solved = table["status"].isin(["optimal", "time_limit"])
    lines = []
    for what, kind, rows in (
        ("result file", ".nc", table[solved]),
        ("record (status and KPIs)", ".json", table[table["status"].isin(FINAL_STATUSES)]),
    ):
        path = result_path if kind == ".nc" else record_path
        gone = [str(r["case"]) for _, r in rows.iterrows() if not path(outdir, str(r["hash"])).exists()]
        if gone:
            shown = ", ".join(gone[:5]) + (f" and {len(gone) - 5} more" if len(gone) > 5 else "")
            lines.append(
                f"{outdir}: {len(gone)} of {len(rows)} cases have no {what} in {RESULTS}/ "
                f"(<hash>{kind}): {shown}; {REWRITE}"
            )
    return lines


def kpi_table(outdir: Path) -> pd.DataFrame:
    """One row per case with its parameters, status and KPIs."""
    rows = read_manifest(outdir)
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
