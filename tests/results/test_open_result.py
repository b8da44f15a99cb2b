"""open_result on a file that is not a geomodel result says so (issue 13, item 9)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import xarray as xr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb

from geomodel.errors import GeomodelError
from geomodel.results.result import (
    FORMAT_ATTRIBUTE,
    RESULT_FORMAT,
    ResultFileError,
    not_a_result,
    open_result,
)


@pytest.fixture(scope="module")
def saved(tmp_path_factory, catalog) -> Path:
    folder = tmp_path_factory.mktemp("saved")
    data = sb.scenario({"a": sb.site()}, training={"job": sb.training_job(100)})
    return sb.run(folder, data, catalog).to_netcdf(folder / "out.nc")


def test_a_result_opens(saved):
    assert not_a_result(saved) == ""
    assert open_result(saved).status == "optimal"


def test_a_scenario_yaml_is_not_a_result(tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text("name: x\nsites: {}\n", encoding="utf-8")
    with pytest.raises(ResultFileError) as raised:
        open_result(path)
    assert str(raised.value) == (
        f"{path} is not a geomodel result file: a text file (a scenario YAML?), not NetCDF-4"
    )
    assert isinstance(raised.value, GeomodelError)  # the CLI prints it in one line, exit 1


def test_a_truncated_result_is_not_a_result(tmp_path, saved):
    path = tmp_path / "truncated.nc"
    path.write_bytes(saved.read_bytes()[:3000])
    with pytest.raises(ResultFileError, match=r"is not a geomodel result file: a damaged or truncated"):
        open_result(path)


def test_another_programs_netcdf_is_not_a_result(tmp_path):
    path = tmp_path / "foreign.nc"
    xr.Dataset({"t2m": ("x", [280.0, 281.0])}).to_netcdf(path, engine="h5netcdf")
    with pytest.raises(ResultFileError, match="without geomodel's 'kpi_units' attribute"):
        open_result(path)
    classic = tmp_path / "classic.nc"
    classic.write_bytes(b"CDF\x01" + bytes(60))
    with pytest.raises(ResultFileError, match="a NetCDF-3 file"):
        open_result(classic)


def test_an_empty_file_is_not_a_result(tmp_path):
    path = tmp_path / "empty.nc"
    path.write_bytes(b"")
    with pytest.raises(ResultFileError, match="an empty file"):
        open_result(path)


# --- the result format (issue 24, item 14) ----------------------------------------------


def rewrite(saved: Path, target: Path, change) -> Path:
    """A copy of ``saved`` whose results Dataset ``change`` altered, inputs kept."""
    dataset = xr.load_dataset(saved, engine="h5netcdf")
    inputs = xr.load_dataset(saved, engine="h5netcdf", group="inputs")
    change(dataset)
    dataset.to_netcdf(target, engine="h5netcdf")
    inputs.to_netcdf(target, engine="h5netcdf", mode="a", group="inputs")
    return target


def test_a_result_carries_its_format_and_reads_back_with_nothing_to_say(saved):
    attrs = xr.load_dataset(saved, engine="h5netcdf").attrs
    assert attrs[FORMAT_ATTRIBUTE] == RESULT_FORMAT == 1
    assert open_result(saved).warnings == []


def test_a_result_of_an_unversioned_geomodel_is_read_and_says_what_it_lacks(tmp_path, saved):
    def older(dataset):
        del dataset.attrs[FORMAT_ATTRIBUTE], dataset.attrs["idle_energy_mwh"]

    result = open_result(rewrite(saved, tmp_path / "old.nc", older))
    (warning,) = result.warnings
    assert "written by a geomodel older than result format 1" in warning
    assert "KPIs it lacks show as missing: idle_energy_mwh;" in warning
    assert "idle_energy_mwh" not in result.kpis


def test_a_result_of_a_newer_format_is_refused_by_name(tmp_path, saved):
    def newer(dataset):
        dataset.attrs[FORMAT_ATTRIBUTE] = RESULT_FORMAT + 1

    with pytest.raises(ResultFileError, match="has result format 2, newer than this geomodel reads"):
        open_result(rewrite(saved, tmp_path / "new.nc", newer))


def test_a_variable_removed_or_changed_after_writing_is_named(tmp_path, saved):
    def altered(dataset):
        del dataset["training_chips"]
        dataset["energy_mwh"].attrs["units"] = "kWh"

    with pytest.raises(ResultFileError) as raised:
        open_result(rewrite(saved, tmp_path / "altered.nc", altered))
    assert str(raised.value).endswith(
        "results variables differ from what geomodel wrote (altered since?): missing: "
        "training_chips; changed: energy_mwh (written as (site, time) MWh, now (site, time) kWh)"
    )


def test_to_netcdf_refuses_to_overwrite_a_scenario(tmp_path, saved):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text("name: x\n", encoding="utf-8")
    with pytest.raises(ResultFileError, match="exists and is not a file geomodel wrote"):
        open_result(saved).to_netcdf(scenario)
    assert scenario.read_text(encoding="utf-8") == "name: x\n"
    open_result(saved).to_netcdf(tmp_path / "again.nc").replace(saved)  # a result: replaced
