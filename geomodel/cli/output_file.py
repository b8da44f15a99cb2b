"""Where `run -o`, `--check-aggregation -o` and `report --calendar` write, safely.

A result file is written through a temporary file renamed over the target when
complete (:meth:`geomodel.Result.to_netcdf`). Before any solve the target is
checked: its folder must exist and be writable, and an existing file must be one
geomodel wrote (a scenario given as `-o scenario.yaml` is refused). After the solve
a run that found no solution never replaces a solved result unless ``--force``.
"""

from __future__ import annotations

from pathlib import Path

from geomodel.errors import UsageError

FORCE_HELP = (
    "Replace an existing result file even when this run found no solution "
    "(a solved result is kept otherwise)."
)


def check_output(output: Path | None, option: str = "--output") -> None:
    """Refuse, before any work, a target that cannot or must not be written."""
    if output is None:
        return
    folder = output.resolve().parent
    if not folder.exists():
        raise UsageError(option, f"folder {folder} does not exist")
    if output.exists() and output.is_dir():
        raise UsageError(option, f"{output} is a folder; give a file name such as out.nc")
    if output.exists():
        from geomodel.results.result import not_geomodel_netcdf

        problem = not_geomodel_netcdf(output)
        if problem:
            raise UsageError(
                option,
                f"{output} exists and is not a file geomodel wrote ({problem}); refusing to "
                "overwrite it: give another file name, or move the file away first",
            )
    probe = folder / f".{output.name}.write-test"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise UsageError(option, f"cannot write to {folder}: {error.strerror}") from None


def write_result(result, output: Path | None, force: bool) -> str:
    """Write ``result`` to ``output`` unless that would replace a solved result with one
    that has no solution (without ``force``); returns what happened, in words."""
    if output is None:
        return ""
    if output.exists() and not result.has_solution and not force:
        status = solved_status(output)
        if status:
            return (
                f"kept {output}: it holds a solved result ({status}) and this run found no "
                "solution, so nothing was written (--force replaces it)"
            )
    result.to_netcdf(output)
    return f"results written to {output}"


def solved_status(path: Path) -> str:
    """The solver status of the solved result in ``path``; "" when it holds none."""
    import h5py

    try:
        with h5py.File(path, "r") as file:
            if "objective" not in file.attrs:
                return ""
            status = file.attrs.get("solver_status", "solved")
    except OSError:
        return ""
    return status.decode() if isinstance(status, bytes) else str(status)
