"""A solved scenario: inputs, results Dataset and KPIs, saved to and read from NetCDF."""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import xarray as xr

from geomodel.errors import GeomodelError
from geomodel.results.extension_results import extension_kpi_specs
from geomodel.results.kpis import KPI_SPECS

if TYPE_CHECKING:
    import pandas as pd

INPUTS_GROUP = "inputs"
#: The first bytes of every HDF5 file (NetCDF-4 is HDF5).
HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
#: A root attribute every result :meth:`Result.to_netcdf` writes has.
RESULT_MARK = "kpi_units"
#: The version of the layout of a result file (variables, their dimensions and units,
#: the KPI attributes), in the root attribute ``result_format``. Raise it whenever a
#: change means an older reader would misread a newer file, and say in
#: :func:`open_result` how an older file is read.
RESULT_FORMAT = 1
FORMAT_ATTRIBUTE = "result_format"
#: Root and inputs attribute: every variable written, with its dimensions and units (JSON),
#: so a variable removed or changed after writing is named when the file is read.
VARIABLES_ATTRIBUTE = "result_variables"


class ResultFileError(GeomodelError):
    """A file that is not a geomodel result (or is damaged) was given as one."""


@dataclass
class Result:
    """What ``geomodel.solve`` returns and ``geomodel.open_result`` reads back."""

    inputs: xr.Dataset
    dataset: xr.Dataset
    kpis: dict[str, Any] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    #: what reading the file found worth saying (an older result format), one line each
    warnings: list[str] = field(default_factory=list)

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

    @property
    def front(self) -> pd.DataFrame | None:
        """The Pareto front as a table, a row per point (see
        :func:`geomodel.results.front.front_table`); None for an ordinary result."""
        from geomodel.results.front import front_table, is_front

        return front_table(self.dataset) if is_front(self.dataset) else None

    @property
    def placement(self) -> pd.DataFrame:
        """Where each job and service ran: share of work or demand by site, chips and MWh
        (:func:`geomodel.results.placement.placement_table`); empty without a solution
        and for a Pareto front (see :attr:`front`)."""
        from geomodel.results.front import is_front
        from geomodel.results.placement import PLACEMENT_UNITS, placement_table

        if not self.has_solution or is_front(self.dataset):
            import pandas as pd

            return pd.DataFrame(columns=list(PLACEMENT_UNITS))
        return placement_table(self.dataset, self.inputs)

    def calendar(self) -> xr.Dataset:
        """The results on every hour of the horizon: longer steps, typical days and their
        segments spread over the hours they stand for (totals as one hour's share)."""
        from geomodel.results.calendar import to_calendar

        return to_calendar(self.dataset, self.inputs)

    def to_netcdf(self, path: str | Path) -> Path:
        """Write results (root group) and inputs (group ``inputs``) to one NetCDF file.

        Raises :class:`ResultFileError` when ``path`` exists and is not a NetCDF file
        geomodel wrote (a scenario YAML given by mistake is never overwritten).
        """
        return _write_netcdf(path, self.dataset, inputs=self.inputs)

    def calendar_to_netcdf(self, path: str | Path) -> Path:
        """Write :meth:`calendar` to a NetCDF file of its own (no inputs group)."""
        return _write_netcdf(path, self.calendar())


def _write_netcdf(path: str | Path, dataset: xr.Dataset, inputs: xr.Dataset | None = None) -> Path:
    """Write through a temporary file of its own in the same folder, renamed over
    ``path`` only when complete: an interrupted or failed write leaves ``path`` as it
    was and no half file."""
    path = Path(path)
    if path.is_dir():
        raise ResultFileError(f"{path} is a folder; give a file name such as out.nc")
    problem = not_geomodel_netcdf(path) if path.exists() else ""
    if problem:
        raise ResultFileError(
            f"{path} exists and is not a file geomodel wrote ({problem}); refusing to overwrite "
            "it: give another file name, or move the file away first"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(handle)
    tmp = Path(name)
    try:
        _netcdf_safe(dataset).to_netcdf(tmp, engine="h5netcdf", mode="w")
        if inputs is not None:
            _netcdf_safe(inputs).to_netcdf(tmp, engine="h5netcdf", mode="a", group=INPUTS_GROUP)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _netcdf_safe(dataset: xr.Dataset) -> xr.Dataset:
    """NetCDF attributes must be numbers or strings: NaN stays, None becomes ''. The
    format version and the list of variables written go in too."""
    clean = dataset.copy()
    clean.attrs = {k: ("" if v is None else v) for k, v in dataset.attrs.items()}
    clean.attrs[FORMAT_ATTRIBUTE] = RESULT_FORMAT
    clean.attrs[VARIABLES_ATTRIBUTE] = json.dumps(_variables(clean))
    return clean


def _variables(dataset: xr.Dataset) -> dict[str, list]:
    """Each data variable's dimensions and units, as written."""
    return {
        str(name): [list(map(str, var.dims)), str(var.attrs.get("units", ""))]
        for name, var in dataset.data_vars.items()
    }


def attach_kpis(dataset: xr.Dataset, kpis: dict[str, Any], messages: list[str]) -> None:
    """KPIs become Dataset attributes (with a units map), so a saved result describes itself."""
    for name, value in kpis.items():
        dataset.attrs[name] = value if value is not None else ""
    dataset.attrs["kpi_units"] = json.dumps({k: u for k, (u, _) in KPI_SPECS.items()})
    dataset.attrs["messages"] = json.dumps(messages)


def open_result(path: str | Path) -> Result:
    """Read a result written by :meth:`Result.to_netcdf`.

    Raises :class:`ResultFileError` naming the file and saying what it is instead
    when it is not a geomodel result (a scenario YAML, a truncated file, another
    program's NetCDF).
    """
    path = Path(path)
    if not path.exists():
        from geomodel.errors import UsageError

        raise UsageError("OUT.nc", f"no result file at {path}")
    problem = not_a_result(path)
    if problem:
        raise ResultFileError(f"{path} is not a geomodel result file: {problem}")
    try:
        dataset = xr.load_dataset(path, engine="h5netcdf")
        inputs = xr.load_dataset(path, engine="h5netcdf", group=INPUTS_GROUP)
    except (OSError, ValueError, KeyError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        raise ResultFileError(f"{path} is not a readable geomodel result file: {reason}") from None
    _check_variables(path, "results", dataset)
    _check_variables(path, "inputs", inputs)
    warnings = _format_warnings(path, dataset)
    kpis = {name: _plain(dataset.attrs.get(name)) for name in KPI_SPECS if name in dataset.attrs}
    kpis.update({name: spec["value"] for name, spec in extension_kpi_specs(dataset).items()})
    messages = json.loads(dataset.attrs.get("messages", "[]"))
    return Result(inputs=inputs, dataset=dataset, kpis=kpis, messages=messages, warnings=warnings)


def _format_warnings(path: Path, dataset: xr.Dataset) -> list[str]:
    """Check the file's result format; raise :class:`ResultFileError` for what cannot be
    read, and return what is worth saying about a file of an older format.

    Format 1 is the first versioned one. A file without the attribute was written
    before it (format 0): its variables read as they stand, and the KPIs this version
    reports but the file lacks are named (they show as missing).
    """
    version = _plain(dataset.attrs.get(FORMAT_ATTRIBUTE, 0))
    if not isinstance(version, int) or version > RESULT_FORMAT:
        raise ResultFileError(
            f"{path} has result format {version!r}, newer than this geomodel reads "
            f"(format {RESULT_FORMAT}): upgrade geomodel to read it"
        )
    if version < RESULT_FORMAT:
        missing = [name for name in KPI_SPECS if name not in dataset.attrs]
        lacks = f"; KPIs it lacks show as missing: {', '.join(missing)}" if missing else ""
        return [
            f"{path} was written by a geomodel older than result format {RESULT_FORMAT} and is "
            f"read as it stands{lacks}; solve its scenario again to compare like with like"
        ]
    return []


def _check_variables(path: Path, group: str, dataset: xr.Dataset) -> None:
    """Every variable the file's list says was written must be there as written."""
    try:
        written = json.loads(str(dataset.attrs.get(VARIABLES_ATTRIBUTE, "{}")))
    except json.JSONDecodeError:
        raise ResultFileError(f"{path}: its {group} list of variables is damaged") from None
    found = _variables(dataset)
    missing = [name for name in written if name not in found]
    changed = [
        f"{name} (written as ({', '.join(dims)}) {units or 'no units'}, now "
        f"({', '.join(found[name][0])}) {found[name][1] or 'no units'})"
        for name, (dims, units) in written.items()
        if name in found and found[name] != [dims, units]
    ]
    problems = ([f"missing: {', '.join(missing)}"] if missing else []) + (
        [f"changed: {'; '.join(changed)}"] if changed else []
    )
    if problems:
        raise ResultFileError(
            f"{path}: {group} variables differ from what geomodel wrote (altered since?): "
            + "; ".join(problems)
        )


def not_a_result(path: str | Path) -> str:
    """Why ``path`` is not a geomodel result file, in words; "" when it is one.

    Reads only the signature and the root attributes: a result is an HDF5 (NetCDF-4)
    file whose root carries ``kpi_units`` and which holds an ``inputs`` group.
    """
    path = Path(path)
    try:
        with path.open("rb") as file:
            head = file.read(len(HDF5_SIGNATURE))
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    if head != HDF5_SIGNATURE:
        return _what_it_is(head)
    import h5py

    try:
        with h5py.File(path, "r") as file:
            if RESULT_MARK not in file.attrs:
                return f"a NetCDF-4/HDF5 file without geomodel's '{RESULT_MARK}' attribute"
            if INPUTS_GROUP not in file:
                return f"a geomodel results Dataset without its '{INPUTS_GROUP}' group"
    except OSError as error:
        return f"a damaged or truncated HDF5 file ({' '.join(str(error).split())})"
    return ""


def not_geomodel_netcdf(path: str | Path) -> str:
    """Why ``path`` is not a NetCDF file geomodel wrote (a result or a calendar); ""
    when it is one."""
    problem = not_a_result(path)
    return "" if problem.startswith("a geomodel results Dataset without") else problem


def _what_it_is(head: bytes) -> str:
    if head[:3] == b"CDF":
        return "a NetCDF-3 file (geomodel writes NetCDF-4)"
    if not head:
        return "an empty file"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return "not a NetCDF-4/HDF5 file"
    return "a text file (a scenario YAML?), not NetCDF-4"


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return float("nan")
    return value
