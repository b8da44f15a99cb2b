"""The run cache on disk: finished runs by scenario hash, and the phase of each in progress.

    <cache>/runs/<hash>.nc             results and inputs (``Result.to_netcdf``)
    <cache>/runs/<hash>.json           the record: status, KPIs, messages, recipe, times
    <cache>/runs/<hash>.progress.json  the phase of a run in progress

A record is written after its NetCDF file, so a record means a complete result.
Plain files and JSON: the app (``ui.runs``) and the solver processes (``ui.worker``)
both read and write here, neither importing the other.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from geomodel.batch.store import write_json_atomic

RUNS = "runs"


class RunStore:
    """The cache folder of finished runs, by scenario hash."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.runs = self.folder / RUNS

    def ensure(self) -> None:
        self.runs.mkdir(parents=True, exist_ok=True)

    def result_path(self, scenario_hash: str) -> Path:
        return self.runs / f"{scenario_hash}.nc"

    def record_path(self, scenario_hash: str) -> Path:
        return self.runs / f"{scenario_hash}.json"

    def progress_path(self, scenario_hash: str) -> Path:
        return self.runs / f"{scenario_hash}.progress.json"

    def record(self, scenario_hash: str) -> dict[str, Any] | None:
        """The record of a finished run whose result file exists, or None."""
        try:
            record = json.loads(self.record_path(scenario_hash).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if self.result_path(scenario_hash).exists() else None

    def records(self, hashes: list[str] | None = None) -> list[dict[str, Any]]:
        """Every finished run (or those of ``hashes``), newest first."""
        if hashes is not None:
            found = [r for r in map(self.record, dict.fromkeys(hashes)) if r is not None]
        elif not self.runs.is_dir():
            return []
        else:
            stems = (p.stem for p in self.runs.glob("*.json") if not p.name.endswith(".progress.json"))
            found = [r for r in map(self.record, stems) if r is not None]
        return sorted(found, key=lambda r: r.get("finished_at", 0.0), reverse=True)

    def write_progress(self, scenario_hash: str, phase: str, **extra: Any) -> None:
        self.ensure()
        write_json_atomic(
            self.progress_path(scenario_hash), {"phase": phase, "at": time.time(), **extra}
        )

    def progress(self, scenario_hash: str) -> dict[str, Any]:
        try:
            return json.loads(self.progress_path(scenario_hash).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def clear_progress(self, scenario_hash: str) -> None:
        self.progress_path(scenario_hash).unlink(missing_ok=True)
