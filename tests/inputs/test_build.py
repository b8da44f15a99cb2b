"""build_inputs: one self-describing Dataset the model reads, checked against hand derivations."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from pyproj import Geod

from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario

#: Two sites, two user regions, one job with a window, one service, a mesh link,
#: 12 hours at a 2-hour resolution, demand and a solar profile from CSV files.
SCENARIO = """\
name: inputs-test
time:
  start: 2025-01-01T00:00:00+01:00
  hours: 12
  resolution: 2 h
sites:
  fra:
    lat: 50.11
    lon: 8.68
    grid: grid_de
    power_envelope: 20 MW
    pue: 1.2
    systems: {hgx_h100_8: 100, gb200_nvl72: 2}
    power_sources:
      solar_pv: {capacity: 5 MW, profile_csv: solar.csv, profile_column: cf}
    jurisdiction: EU
  ams:
    lat: 52.37
    lon: 4.90
    grid: grid_nl
    power_envelope: 10 MW
    cooling: liquid
    systems: {gb200_nvl72: 4}
    jurisdiction: EU
regions:
  paris:
    lat: 48.86
    lon: 2.35
    demand:
      chat: {csv: demand.csv, column: paris}
  berlin:
    lat: 52.52
    lon: 13.40
    demand:
      chat: 2e6 token/s
links:
  mesh: {technology: hcf_800zr, fibre_pairs: 2}
training:
  pretrain:
    compute: 1e21 FLOP
    gradient_size: 14 GB
    sync_interval: 7 s
    tp: 8
    ep: 2
    window: {start: 2025-01-01T03:00:00+01:00, end: 2025-01-01T10:00:00+01:00}
inference:
  chat:
    active_params: 8e9
    efficiency: 0.3
    sla: 40 ms
latency:
  route_factor: 1.4
  overhead: 3 ms
"""

HOURS = 12


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "scenario.yaml").write_text(SCENARIO)
    times = [f"2024-12-31T{23:02d}:00:00+00:00"] + [
        f"2025-01-01T{h:02d}:00:00+00:00" for h in range(HOURS - 1)
    ]
    # The horizon starts at 00:00+01:00 = 23:00 UTC the day before.
    (folder / "demand.csv").write_text(
        "time,paris\n" + "".join(f"{t},{1e6 * (h + 1)}\n" for h, t in enumerate(times))
    )
    (folder / "solar.csv").write_text(
        "time,cf\n" + "".join(f"{t},{h / 20}\n" for h, t in enumerate(times))
    )
    return folder


@pytest.fixture(scope="module")
def scenario(folder, catalog):
    return load_scenario(folder / "scenario.yaml", catalog=catalog)


@pytest.fixture(scope="module")
def inputs(scenario, catalog) -> xr.Dataset:
    return build_inputs(scenario, catalog)


def test_every_variable_and_coordinate_says_its_units_and_meaning(inputs):
    for name, variable in inputs.data_vars.items():
        assert variable.attrs.get("units"), name
        assert variable.attrs.get("description"), name
    for name in ("site_lat", "site_lon", "region_lat", "region_lon"):
        assert inputs[name].attrs["units"].startswith("degrees_")


def test_dimensions_and_shapes(inputs):
    assert dict(inputs.sizes) == {
        "time": 6,
        "site": 2,
        "system": 2,
        "source": 1,
        "region": 2,
        "service": 1,
        "job": 1,
        "job_member": 1,  # one training job, its own class
        "link": 1,
        "to_site": 2,  # transfer prices between sites
    }
    assert inputs["latency_ms"].dims == ("region", "site")
    assert inputs["demand_tokens_per_s"].dims == ("service", "region", "time")
    assert inputs["source_capacity_factor"].dims == ("site", "source", "time")
    assert inputs["chips_installed"].dims == ("site", "system")
    assert inputs["job_weight"].dims == ("job", "time")
    assert list(inputs["site"].values) == ["fra", "ams"]
    assert list(inputs["system"].values) == ["gb200_nvl72", "hgx_h100_8"]
    assert inputs["time"].values[0] == np.datetime64("2024-12-31T23:00")  # UTC
    assert inputs["dt_hours"].values.tolist() == [2.0] * 6
    assert inputs["weight"].values.tolist() == [1.0] * 6


def test_chips_installed_are_systems_times_chips_per_system(inputs, catalog):
    nvl72 = catalog.hardware["gb200_nvl72"].chips_per_system
    hgx = catalog.hardware["hgx_h100_8"].chips_per_system
    assert (nvl72, hgx) == (72, 8)
    chips = inputs["chips_installed"]
    assert chips.sel(site="fra", system="hgx_h100_8") == 100 * 8
    assert chips.sel(site="fra", system="gb200_nvl72") == 2 * 72
    assert chips.sel(site="ams", system="gb200_nvl72") == 4 * 72
    assert chips.sel(site="ams", system="hgx_h100_8") == 0
    # constant PUEs hold at every step: 1.2 given, liquid cooling -> 1.14
    assert inputs["pue"].dims == ("site", "time")
    assert inputs["pue"].values.tolist() == [[1.2] * 6, [1.14] * 6]


def test_region_to_site_latency_is_route_km_times_fibre_times_two_plus_overhead(inputs):
    geod = Geod(ellps="WGS84")
    places = {
        "paris": (48.86, 2.35),
        "berlin": (52.52, 13.40),
        "fra": (50.11, 8.68),
        "ams": (52.37, 4.90),
    }
    for region in ("paris", "berlin"):
        for site in ("fra", "ams"):
            (lat_a, lon_a), (lat_b, lon_b) = places[region], places[site]
            _, _, metres = geod.inv(lon_a, lat_a, lon_b, lat_b)
            route_km = metres / 1000 * 1.4
            expected = route_km * 4.90 * 2 / 1000 + 3.0
            got = inputs["latency_ms"].sel(region=region, site=site).item()
            assert got == pytest.approx(expected, rel=1e-9), (region, site)


def test_the_mesh_link_uses_its_technology(inputs, catalog):
    hcf = catalog.links["hcf_800zr"]
    _, _, metres = Geod(ellps="WGS84").inv(8.68, 50.11, 4.90, 52.37)
    length = metres / 1000 * hcf.route_factor
    assert inputs["link_length_km"].item() == pytest.approx(length)
    assert inputs["link_latency_ms"].item() == pytest.approx(length * hcf.latency_us_per_km / 1000)
    assert inputs["link_capacity_gbit_s"].item() == pytest.approx(2 * hcf.capacity_gbit_s_per_fibre_pair)
    assert inputs["link_technology"].item() == "hcf_800zr"
    assert {inputs["link_site_a"].item(), inputs["link_site_b"].item()} == {"fra", "ams"}


def test_the_job_window_holds_the_steps_wholly_inside_it(inputs):
    # Steps start at 00, 02, 04, 06, 08, 10 (local); the window is 03:00-10:00, so
    # the steps 04-06, 06-08 and 08-10 lie inside, 02-04 and 10-12 only partly or not.
    window = inputs["job_weight"].sel(job="pretrain").values.tolist()
    assert window == [0, 0, 1, 1, 1, 0]


def test_a_coarser_resolution_averages_the_hourly_series(inputs):
    hourly_demand = np.array([1e6 * (h + 1) for h in range(HOURS)])
    expected = hourly_demand.reshape(6, 2).mean(axis=1)
    got = inputs["demand_tokens_per_s"].sel(service="chat", region="paris").values
    assert got == pytest.approx(expected)
    berlin = inputs["demand_tokens_per_s"].sel(service="chat", region="berlin").values
    assert berlin == pytest.approx([2e6] * 6)
    solar = inputs["source_capacity_factor"].sel(site="fra", source="solar_pv").values
    assert solar == pytest.approx((np.arange(HOURS) / 20).reshape(6, 2).mean(axis=1))
    assert inputs["source_capacity_mw"].sel(site="ams", source="solar_pv") == 0


def test_job_and_service_parameters(inputs, catalog):
    assert inputs["work_eflop"].item() == pytest.approx(1000.0)  # 1e21 FLOP
    assert inputs["tp"].item() == 8 and inputs["ep"].item() == 2
    assert inputs["tp"].dtype == np.int64
    # Only the NVL72's 72-chip domain holds a TP x EP group of 16.
    eligible = inputs["job_system_eligible"].sel(job="pretrain")
    assert eligible.sel(system="gb200_nvl72") and not eligible.sel(system="hgx_h100_8")
    assert inputs["dp_traffic_gbit_s"].item() == pytest.approx(2 * 14 * 8 / 7)  # Gb/s
    # flat override: peak FP8 x 0.3 / (2 x 8e9 FLOP per output token); H100 FP8 1.979 PFLOPS
    rate = inputs["service_tokens_per_s_per_chip"].sel(service="chat", system="hgx_h100_8")
    assert rate.item() == pytest.approx(1.979e15 * 0.3 / 16e9)
    assert inputs["sla_ms"].item() == 40.0


def test_attributes_hold_the_scenario_hash_and_versions(inputs, scenario):
    assert inputs.attrs["scenario_hash"] == scenario.origin.scenario_hash
    assert inputs.attrs["scenario_name"] == "inputs-test"
    assert inputs.attrs["timezone"] == "UTC+01:00"
    assert "geomodel" in inputs.attrs["plugin_versions"]


def test_the_dataset_round_trips_through_netcdf(inputs, tmp_path):
    path = tmp_path / "inputs.nc"
    inputs.to_netcdf(path, engine="h5netcdf")
    with xr.open_dataset(path, engine="h5netcdf") as back:
        back = back.load()
    xr.testing.assert_identical(back, inputs)
    for name in inputs.variables:
        assert back[name].dtype == inputs[name].dtype, name


def test_a_scenario_without_regions_jobs_or_links_round_trips_too(tmp_path, catalog):
    (tmp_path / "s.yaml").write_text(
        "time: {start: 2025-01-01T00:00:00Z, hours: 4}\n"
        "sites:\n  a: {lat: 50, lon: 8, pue: 1.2, power_envelope: 10, "
        "systems: {hgx_h100_8: 2}, grid: grid_de}\n"
    )
    inputs = build_inputs(load_scenario(tmp_path / "s.yaml", catalog=catalog), catalog)
    assert inputs.sizes["region"] == inputs.sizes["job"] == inputs.sizes["link"] == 0
    assert inputs["latency_ms"].shape == (0, 1)
    for name in ("region", "job", "service", "link", "source"):
        assert inputs[name].dtype.kind == "U", name
    inputs.to_netcdf(tmp_path / "empty.nc", engine="h5netcdf")
    with xr.open_dataset(tmp_path / "empty.nc", engine="h5netcdf") as back:
        xr.testing.assert_identical(back.load(), inputs)


def test_a_given_grid_import_limit_stands_even_above_the_envelope(tmp_path, catalog):
    # issue 24, item 12: the limit is the grid connection's (5 MW), not cut to the 2 MW
    # envelope; no limit: the envelope
    (tmp_path / "s.yaml").write_text(
        "time: {start: 2025-01-01T00:00:00Z, hours: 4}\n"
        "sites:\n"
        "  a: {lat: 50, lon: 8, pue: 1.2, power_envelope: 2 MW, systems: {hgx_h100_8: 2}, "
        "grid: grid_de, grid_import_limit: 5 MW}\n"
        "  b: {lat: 51, lon: 8, pue: 1.2, power_envelope: 2 MW, systems: {hgx_h100_8: 2}, "
        "grid: grid_de}\n"
    )
    inputs = build_inputs(load_scenario(tmp_path / "s.yaml", catalog=catalog), catalog)
    assert inputs["grid_import_limit_mw"].values.tolist() == [5.0, 2.0]


@pytest.mark.parametrize(
    "aggregation",
    [
        ["time.aggregation.typical_days=2"],
        ["time.aggregation.typical_days=2", "time.aggregation.segments=6"],
        ["time.aggregation.typical_days=4"],
        ["time.aggregation.typical_days=9", "time.aggregation.segments=6"],
        ["time.aggregation.typical_days=9", "time.aggregation.segments=24"],
    ],
)
def test_the_model_has_the_steps_the_summary_announces(catalog, aggregation):
    scenario = load_scenario(
        "scenarios/quickstart.yaml", overrides=["time.hours=96", *aggregation], catalog=catalog
    )
    inputs = build_inputs(scenario, catalog)
    assert inputs.sizes["time"] == scenario.time.model_steps
    # the attributes say what was built: at most one typical day per day of the horizon
    if "step_of_hour" in inputs:
        days = min(scenario.time.aggregation.typical_days, 4)
        assert inputs.attrs["typical_days"] == days
        assert int(inputs["typical_day_of"].max()) + 1 == days
