"""What a site pays and emits per MWh of grid power in the inputs Dataset.

Every expected series is rebuilt here from its parts: the measured archive (checked
against the published files in tests/builtins/test_measured_data.py) read at the hours
the horizon covers, the default adder from the EIA figure (Virginia 2023 industrial
8.92 cents/kWh) minus the publisher's annual mean (zones table), and the terms the
scenario writes. A horizon inside 2023 reads 2023 itself, hour for hour.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario
from geomodel_builtins import measured

START = "2023-03-01T00:00:00+00:00"
HOURS = 24
#: EIA Electric Power Annual 2023, Virginia industrial: 8.92 cents/kWh.
VA_RETAIL = 89.2
#: hourly_2023_zones.csv: the publisher's 2023 mean of PJM's price.
PJM_MEAN = float(measured.zone_table()["US-MIDA-PJM"]["price_mean_usd_mwh"])
VA_ADDER = VA_RETAIL - PJM_MEAN  # 89.2 - 35.74 = 53.46


def site(grid: str, **extra) -> dict:
    return {
        "lat": 39.04,
        "lon": -77.49,
        "grid": grid,
        "power_envelope": "50 MW",
        "pue": 1.2,
        "systems": {"hgx_h100_8": 10},
        **extra,
    }


def scenario_file(folder: Path, sites: dict, hours: int = HOURS, start: str = START, **extra) -> Path:
    data = {"name": "signals", "time": {"start": start, "hours": hours}, "sites": sites, **extra}
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def inputs(folder: Path, catalog, sites: dict, **extra):
    return build_inputs(load_scenario(scenario_file(folder, sites, **extra), catalog=catalog), catalog)


def archive(zone: str, series: str, start: str = START, hours: int = HOURS) -> np.ndarray:
    """The archive's hours of a horizon that lies in 2023 (no weekday shift needed)."""
    first = (pd.Timestamp(start) - measured.data_hours()[0]) // pd.Timedelta(hours=1)
    return measured.measured_series(zone, series)[first : first + hours]


def grid_price(data, name: str = "a") -> np.ndarray:
    return data["grid_price_usd_per_mwh"].sel(site=name).values


def grid_carbon(data, name: str = "a") -> np.ndarray:
    return data["grid_carbon_kg_per_mwh"].sel(site=name).values


def test_the_default_is_measured_wholesale_plus_the_regions_adder(tmp_path, catalog):
    assert pytest.approx(53.46) == VA_ADDER
    data = inputs(tmp_path, catalog, {"a": site("grid_us_va_pjm")})
    assert grid_price(data) == pytest.approx(archive("US-MIDA-PJM", "price") + VA_ADDER)
    assert grid_carbon(data) == pytest.approx(archive("US-MIDA-PJM", "carbon_lifecycle"))


def test_the_carbon_basis_picks_the_measured_series(tmp_path, catalog):
    data = inputs(tmp_path, catalog, {"a": site("grid_us_va_pjm")}, signals={"carbon_basis": "direct"})
    assert grid_carbon(data) == pytest.approx(archive("US-MIDA-PJM", "carbon_direct"))
    assert data.attrs["carbon_basis"] == "direct"


def test_region_terms_then_site_terms(tmp_path, catalog):
    signals = {"grid_prices": {"grid_us_va_pjm": {"adder": "10 USD/MWh", "multiplier": 1.2}}}
    sites = {"a": site("grid_us_va_pjm"), "b": site("grid_us_va_pjm", grid_price={"adder": "5 USD/MWh"})}
    data = inputs(tmp_path, catalog, sites, signals=signals)
    wholesale = archive("US-MIDA-PJM", "price")
    # a: the region's terms replace the default adder: 1.2 x p + 10
    assert grid_price(data, "a") == pytest.approx(1.2 * wholesale + 10)
    # b: its own adder wins, the region's multiplier still applies: 1.2 x p + 5
    assert grid_price(data, "b") == pytest.approx(1.2 * wholesale + 5)


def test_a_sites_own_constant_is_its_bill(tmp_path, catalog):
    sites = {
        "a": site("grid_us_va_pjm", grid_price={"constant": "80 USD/MWh"}),
        "b": site("grid_us_va_pjm", grid_price={"constant": "80 USD/MWh", "adder": "7 USD/MWh"}),
        "c": site("grid_us_va_pjm", grid_carbon={"constant": "120 kgCO2/MWh"}),
    }
    data = inputs(tmp_path, catalog, sites)
    assert grid_price(data, "a") == pytest.approx([80.0] * HOURS)  # no default adder on it
    assert grid_price(data, "b") == pytest.approx([87.0] * HOURS)  # 80 + its own 7
    assert grid_carbon(data, "c") == pytest.approx([120.0] * HOURS)


def test_a_sites_own_csv_keeps_negative_prices(tmp_path, catalog):
    times = pd.date_range(START, periods=HOURS, freq="h")
    values = [-30.0 + 5 * i for i in range(HOURS)]
    pd.DataFrame({"time": [t.isoformat() for t in times], "usd": values}).to_csv(
        tmp_path / "bill.csv", index=False
    )
    data = inputs(
        tmp_path, catalog, {"a": site("grid_us_va_pjm", grid_price={"csv": "bill.csv", "column": "usd"})}
    )
    assert grid_price(data) == pytest.approx(values)
    basis = json.loads(data.attrs["grid_series_basis"])["a"]
    assert basis["price"].startswith("the site's series bill.csv:usd")


def test_a_shaped_direct_region_is_counted_lifecycle_by_the_fit(tmp_path, catalog):
    # MISO Iowa: eGRID direct 430 kg/MWh; lifecycle by the fit 51.3 + 1.031 x 430 = 494.63.
    # Over a whole year the shape averages out, so the mean is the converted figure.
    year = {"start": "2023-01-01T00:00:00+00:00", "hours": 8760}
    data = inputs(
        tmp_path, catalog, {"a": site("grid_us_ia_miso")}, hours=year["hours"], start=year["start"]
    )
    assert grid_carbon(data).mean() == pytest.approx(51.3 + 1.031 * 430, rel=1e-4)
    # price: shaped wholesale 30 plus the adder to Iowa's 6.91 cents retail: mean 69.1
    assert grid_price(data).mean() == pytest.approx(69.1, rel=1e-6)


def test_shaped_series_on_request_and_the_adder_follows(tmp_path, catalog):
    # signals.grid_series: shaped puts PJM back on its table figures: wholesale 35 USD/MWh
    # (reference sheet) with the adder 89.2 - 35 = 54.2; over a year the mean is 89.2 again.
    data = inputs(
        tmp_path,
        catalog,
        {"a": site("grid_us_va_pjm")},
        hours=8760,
        start="2023-01-01T00:00:00+00:00",
        signals={"grid_series": "shaped"},
    )
    assert grid_price(data).mean() == pytest.approx(VA_RETAIL, rel=1e-6)
    # eGRID SRVC direct 290 -> lifecycle 51.3 + 1.031 x 290 = 350.29
    assert grid_carbon(data).mean() == pytest.approx(51.3 + 1.031 * 290, rel=1e-4)
    basis = json.loads(data.attrs["grid_series_basis"])["a"]
    assert basis["price"].startswith("grid_us_va_pjm: shaped from annual mean 35 USD/MWh")
    assert data.attrs["grid_series"] == "shaped"


def test_generators_follow_the_carbon_basis(tmp_path, catalog):
    supplies = {"solar_pv": {"capacity": "5 MW"}, "gas_ccgt": {"capacity": "5 MW"}}
    sites = {"a": site("grid_us_va_pjm", power_sources=supplies)}
    for basis, solar, gas in (("lifecycle", 48.0, 490.0), ("direct", 0.0, 370.0)):
        # IPCC AR5 medians: lifecycle PV 48, gas CC 490; direct: no fuel burnt 0, gas CC 370
        data = inputs(tmp_path, catalog, sites, signals={"carbon_basis": basis})
        carbon = data["source_carbon_kg_per_mwh"].sel(site="a")
        assert carbon.sel(source="solar_pv").values == pytest.approx([solar] * HOURS)
        assert carbon.sel(source="gas_ccgt").values == pytest.approx([gas] * HOURS)


def test_provenance_names_every_grid_series(tmp_path, catalog):
    data = inputs(tmp_path, catalog, {"a": site("grid_us_va_pjm"), "b": site("grid_us_ia_miso")})
    basis = json.loads(data.attrs["grid_series_basis"])
    assert basis["a"]["grid"] == "grid_us_va_pjm"
    assert basis["a"]["price"].startswith(
        "grid_us_va_pjm: measured 2023, zone US-MIDA-PJM, 0 hours filled"
    )
    assert "+ 53.46 USD/MWh (adder: the region's default adder)" in basis["a"]["price"]
    assert basis["a"]["carbon"].startswith("grid_us_va_pjm: measured 2023, zone US-MIDA-PJM")
    assert basis["b"]["price"].startswith("grid_us_ia_miso: shaped from annual mean 30 USD/MWh")
    assert basis["b"]["carbon"].endswith(
        "counted lifecycle, scaled from direct by the catalogue's two annual figures"
    )
    assert (data.attrs["carbon_basis"], data.attrs["grid_series"]) == ("lifecycle", "measured")
