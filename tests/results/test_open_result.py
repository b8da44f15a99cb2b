"""open_result on a file that is not a geomodel result says so (issue 13, item 9)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import xarray as xr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb

from geomodel.errors import GeomodelError
from geomodel.results.result import ResultFileError, not_a_result, open_result


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
