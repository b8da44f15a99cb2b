"""A solved scenario: inputs, results Dataset and KPIs, saved to and read from NetCDF."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import xarray as xr

from geomodel.results.kpis import KPI_SPECS

INPUTS_GROUP = "inputs"


@dataclass
class Result:
    """What ``geomodel.solve`` returns and ``geomodel.open_result`` reads back."""

    inputs: xr.Dataset
    dataset: xr.Dataset
    kpis: dict[str, Any] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return str(self.kpis.get("solver_status", "unknown"))

    @property
    def has_solution(self) -> bool:
        """True when the numbers come from a feasible solution (optimal or not)."""
        return "objective" in self.kpis

    @property
    def ok(self) -> bool:
        """True when the numbers come from an optimal solution."""
        return self.status == "optimal"

    def calendar(self) -> xr.Dataset:
        """The results on every hour of the horizon: longer steps, typical days and their
        segments spread over the hours they stand for (totals as one hour's share)."""
        from geomodel.results.calendar import to_calendar

        return to_calendar(self.dataset, self.inputs)

    def to_netcdf(self, path: str | Path) -> Path:
        """Write results (root group) and inputs (group ``inputs``) to one NetCDF file."""
        return _write_netcdf(path, self.dataset, inputs=self.inputs)

    def calendar_to_netcdf(self, path: str | Path) -> Path:
        """Write :meth:`calendar` to a NetCDF file of its own (no inputs group)."""
        return _write_netcdf(path, self.calendar())


def _write_netcdf(path: str | Path, dataset: xr.Dataset, inputs: xr.Dataset | None = None) -> Path:
    """Write through a temporary file, so an interrupted write leaves no half file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    _netcdf_safe(dataset).to_netcdf(tmp, engine="h5netcdf", mode="w")
    if inputs is not None:
        _netcdf_safe(inputs).to_netcdf(tmp, engine="h5netcdf", mode="a", group=INPUTS_GROUP)
    tmp.replace(path)
    return path


def _netcdf_safe(dataset: xr.Dataset) -> xr.Dataset:
    """NetCDF attributes must be numbers or strings: NaN stays, None becomes ''."""
    clean = dataset.copy()
    clean.attrs = {k: ("" if v is None else v) for k, v in dataset.attrs.items()}
    return clean


def attach_kpis(dataset: xr.Dataset, kpis: dict[str, Any], messages: list[str]) -> None:
    """KPIs become Dataset attributes (with a units map), so a saved result describes itself."""
    for name, value in kpis.items():
        dataset.attrs[name] = value if value is not None else ""
    dataset.attrs["kpi_units"] = json.dumps({k: u for k, (u, _) in KPI_SPECS.items()})
    dataset.attrs["messages"] = json.dumps(messages)


def open_result(path: str | Path) -> Result:
    """Read a result written by :meth:`Result.to_netcdf`."""
    path = Path(path)
    if not path.exists():
        from geomodel.errors import UsageError

        raise UsageError("OUT.nc", f"no result file at {path}")
    dataset = xr.load_dataset(path, engine="h5netcdf")
    inputs = xr.load_dataset(path, engine="h5netcdf", group=INPUTS_GROUP)
    kpis = {name: _plain(dataset.attrs.get(name)) for name in KPI_SPECS if name in dataset.attrs}
    messages = json.loads(dataset.attrs.get("messages", "[]"))
    return Result(inputs=inputs, dataset=dataset, kpis=kpis, messages=messages)


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return float("nan")
    return value
