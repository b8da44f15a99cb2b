"""Build options in the inputs Dataset: limits, and costs from the scenario or the catalogue.

Expected costs are derived here from the published figures of the built-in cost table
(plugins/data/build_costs.csv, docs/costs.md: inputs, not outputs) and the annuity
formula r (1 + r)^n / ((1 + r)^n - 1) at the default discount rate of 5 %:

    n = 5: 1.05^5 = 1.2762816, factor 0.05 x 1.2762816 / 0.2762816 = 0.2309748
    n = 15: 1.05^15 = 2.0789282, factor 0.0963423
    n = 20: 1.05^20 = 2.6532977, factor 0.0802426
    n = 30: 1.05^30 = 4.3219424, factor 0.0650514
"""

from __future__ import annotations

import math

import pytest
import xarray as xr

from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario


def crf(years: int, rate: float = 0.05) -> float:
    """r (1 + r)^n / ((1 + r)^n - 1), written out."""
    return rate * (1 + rate) ** years / ((1 + rate) ** years - 1)


SCENARIO = """\
name: planning-inputs
time: {start: 2025-01-01T00:00:00+00:00, hours: 24}
sites:
  dal:
    lat: 32.78
    lon: -96.80
    grid: grid_us_tx_ercot
    power_envelope: 0 MW
    cooling: liquid
    systems: {}
    build:
      new_site: true
      power_envelope: {max: 300 MW}
      systems: {gb200_nvl72: {max: 1000}}
      power_sources: {solar_pv: {max: 400 MW}}
      battery: {power: {max: 100 MW}, energy: {max: 400 MWh}}
  chi:
    lat: 41.88
    lon: -87.63
    grid: grid_us_va_pjm
    grid_import_limit: 80 MW
    power_envelope: 50 MW
    pue: 1.3
    systems: {hgx_h100_8: 1000}
    build:
      power_envelope: {max: 150 MW, cost: datacentre_facility_ai}
      systems: {hgx_h100_8: {max: 3000, capex: 250000 USD, fixed_om: 5000 USD/year}}
links:
  candidates:
    - {sites: [dal, chi], technology: smf_400zr_plus, length: 500 km, max_pairs: 4}
training:
  pretrain: {compute: 1e21 FLOP, gradient_size: 14 GB, tp: 8}
"""


@pytest.fixture(scope="module")
def inputs(tmp_path_factory, catalog) -> xr.Dataset:
    folder = tmp_path_factory.mktemp("planning_inputs")
    path = folder / "scenario.yaml"
    path.write_text(SCENARIO)
    return build_inputs(load_scenario(path, catalog=catalog), catalog)


def at(inputs: xr.Dataset, name: str, **where) -> float:
    return float(inputs[name].sel(**where))


def test_every_planning_variable_says_its_units_and_meaning(inputs):
    assert inputs.attrs["planning"] == 1
    for name, variable in inputs.data_vars.items():
        assert variable.attrs.get("units"), name
        assert variable.attrs.get("description"), name


def test_limits_are_the_most_that_may_be_built(inputs):
    # max is installed plus built: chi holds 1,000 servers and may hold 3,000
    assert at(inputs, "build_max_systems", site="chi", system="hgx_h100_8") == 2000
    assert at(inputs, "build_max_systems", site="dal", system="gb200_nvl72") == 1000
    assert at(inputs, "build_max_systems", site="dal", system="hgx_h100_8") == 0
    assert at(inputs, "build_max_envelope_mw", site="chi") == 100.0
    assert at(inputs, "build_max_source_mw", site="dal", source="solar_pv") == 400.0
    assert at(inputs, "build_max_battery_mwh", site="dal") == 400.0
    assert list(inputs["site_new"].values) == [True, False]
    # the candidate is a link of its own with no pair lit: capacity 0 until built
    assert at(inputs, "build_max_fibre_pairs", link="dal--chi") == 4
    assert at(inputs, "link_capacity_gbit_s", link="dal--chi") == 0.0


def test_the_grid_follows_a_buildable_envelope_unless_the_scenario_limits_it(inputs):
    # dal gives no limit: its grid may deliver what its envelope may become, 300 MW
    assert bool(inputs["grid_limit_follows_envelope"].sel(site="dal"))
    assert at(inputs, "grid_import_limit_mw", site="dal") == 300.0
    # chi's connection delivers 80 MW, whatever its envelope becomes
    assert not bool(inputs["grid_limit_follows_envelope"].sel(site="chi"))
    assert at(inputs, "grid_import_limit_mw", site="chi") == 80.0


def test_systems_are_priced_by_the_hardware_catalogue_and_the_systems_row(inputs):
    """GB200 NVL72: 3,000,000 USD per rack (hardware.csv), fixed O&M 0 and 5 years (ai_systems):
    a yearly annuity of 3,000,000 x 0.2309748 = 692,924 USD."""
    assert crf(5) == pytest.approx(0.2309748, rel=1e-6)
    assert at(inputs, "system_capex_usd", site="dal", system="gb200_nvl72") == 3_000_000
    assert at(inputs, "system_annuity_usd_per_year", site="dal", system="gb200_nvl72") == pytest.approx(
        692_924, abs=1
    )
    assert at(inputs, "system_fixed_om_usd_per_year", site="dal", system="gb200_nvl72") == 0.0
    # the scenario's own figures win
    assert at(inputs, "system_capex_usd", site="chi", system="hgx_h100_8") == 250_000
    assert at(inputs, "system_fixed_om_usd_per_year", site="chi", system="hgx_h100_8") == 5000


def test_facility_power_costs_the_per_it_mw_figure_divided_by_the_pue(inputs):
    """datacentre_facility: 11.7 M USD and 292,500 USD a year per MW of IT; dal is liquid
    cooled (PUE 1.14): 11.7 M / 1.14 = 10.263 M USD per facility MW, x 0.0802426 (20 years)
    = 823,542 USD a year. dal draws on a grid, so each facility MW also pays
    grid_connection_substation: 1.0 M USD over 40 years (x 0.0582782 = 58,278 a year) and
    10,000 a year. chi names datacentre_facility_ai (20 M per MW IT), PUE 1.3."""
    connection = 1e6 * crf(40)
    assert connection == pytest.approx(58_278, abs=1)
    assert at(inputs, "envelope_capex_usd_per_mw", site="dal") == pytest.approx(11.7e6 / 1.14 + 1e6)
    assert at(inputs, "envelope_annuity_usd_per_mw_year", site="dal") == pytest.approx(
        11.7e6 / 1.14 * crf(20) + connection, rel=1e-9
    )
    assert 11.7e6 / 1.14 * crf(20) == pytest.approx(823_542, abs=1)
    assert at(inputs, "envelope_fixed_om_usd_per_mw_year", site="dal") == pytest.approx(
        292_500 / 1.14 + 10_000
    )
    assert at(inputs, "envelope_capex_usd_per_mw", site="chi") == pytest.approx(20e6 / 1.3 + 1e6)


def test_an_envelope_with_its_own_capex_is_all_in_and_an_off_grid_site_has_no_connection(
    tmp_path, catalog
):
    """A given capex is taken as all-in (no grid connection added); an off-grid site
    pays the hall alone: 11.7 M / 1.14 per facility MW."""
    text = SCENARIO.replace(
        "power_envelope: {max: 150 MW, cost: datacentre_facility_ai}",
        "power_envelope: {max: 150 MW, capex: 9 MUSD/MW}",
    ).replace(
        "    grid: grid_us_tx_ercot\n    power_envelope: 0 MW\n",
        "    power_envelope: 0 MW\n    power_sources: {gas_ccgt: {capacity: 10 MW}}\n",
    )
    path = tmp_path / "scenario.yaml"
    path.write_text(text)
    data = build_inputs(load_scenario(path, catalog=catalog), catalog)
    assert at(data, "envelope_capex_usd_per_mw", site="chi") == pytest.approx(9e6)
    assert at(data, "envelope_capex_usd_per_mw", site="dal") == pytest.approx(11.7e6 / 1.14)


def test_solar_and_battery_are_priced_per_mw_and_mwh(inputs):
    """Solar 1,599 USD/kW = 1.599 M USD/MW, 22.5 USD/kW-yr, 30 years: 104,017 USD a year;
    battery 164.5 USD/kW and 123.9 USD/kWh (BNEF 2024), 15 years."""
    assert at(inputs, "source_capex_usd_per_mw", site="dal", source="solar_pv") == 1_599_000
    assert at(inputs, "source_annuity_usd_per_mw_year", site="dal", source="solar_pv") == pytest.approx(
        104_017, abs=1
    )
    assert at(inputs, "source_fixed_om_usd_per_mw_year", site="dal", source="solar_pv") == 22_500
    assert at(inputs, "battery_capex_usd_per_mw", site="dal") == 164_500
    assert at(inputs, "battery_annuity_usd_per_mwh_year", site="dal") == pytest.approx(123_900 * crf(15))
    assert at(inputs, "battery_fixed_om_usd_per_mwh_year", site="dal") == pytest.approx(8_300)
    # built solar's energy price is the table's variable cost, 0 (ATB: fixed O&M only),
    # not the catalogue's contract price of solar_pv (an LCOE that already pays the capex)
    price = inputs["source_price_usd_per_mwh"].sel(site="dal", source="solar_pv").values
    assert (price == 0.0).all()


def test_a_fibre_pair_adds_its_fibre_optics_amplifiers_and_terminals(inputs):
    """500 km of 400ZR+ (25.6 Tb/s a pair, 80 km spans, 1,000 km reach: no regenerator):
    IRU 586 USD/pair-km x 500 = 293,000 (20 years, 5.9 USD/pair-km-yr);
    amplifiers at ceil(500 / 80) - 1 = 6 sites x 20,000 = 120,000 (15 years, 500 a year each);
    terminals 30,000 (15 years, 750 a year);
    transceivers 2 x 25,600 / 400 = 128 x 3,600 = 460,800 (5 years, no fixed O&M).
    Capex 903,800 USD; yearly 293,000 x 0.0802426 + 150,000 x 0.0963423 + 460,800 x
    0.2309748 = 23,511 + 14,451 + 106,433 = 144,396 annuity and 2,950 + 3,000 + 750 =
    6,700 fixed O&M: 151,096 USD a year (docs/costs.md works the same example)."""
    assert at(inputs, "link_pair_capex_usd", link="dal--chi") == pytest.approx(903_800)
    annuity = 293_000 * crf(20) + 150_000 * crf(15) + 460_800 * crf(5)
    assert annuity == pytest.approx(144_396, abs=1)
    assert at(inputs, "link_pair_annuity_usd_per_year", link="dal--chi") == pytest.approx(
        annuity, rel=1e-9
    )
    assert at(inputs, "link_pair_fixed_om_usd_per_year", link="dal--chi") == pytest.approx(6_700)
    assert at(inputs, "link_capacity_gbit_s_per_pair", link="dal--chi") == 25_600


def test_site_opening_is_the_land_cost_over_a_century(inputs):
    """site_land: 54,656,000 USD, 100 years: 54,656,000 x 0.05 x 1.05^100 / (1.05^100 - 1)."""
    factor = 0.05 * 1.05**100 / (1.05**100 - 1)
    assert factor == pytest.approx(0.0503831, rel=1e-6)
    assert at(inputs, "site_open_capex_usd", site="dal") == 54_656_000
    assert at(inputs, "site_open_annuity_usd_per_year", site="dal") == pytest.approx(54_656_000 * factor)
    assert at(inputs, "site_open_capex_usd", site="chi") == 0.0


def test_the_horizon_is_its_share_of_a_year(inputs):
    assert inputs.attrs["horizon_years"] == pytest.approx(24 / 8760)
    assert inputs.attrs["discount_rate"] == 0.05
    assert not math.isnan(inputs.attrs["horizon_years"])


def test_a_year_of_typical_days_stands_for_a_whole_year(tmp_path, catalog):
    """365 days in 6 typical days: the weights sum to 365, x 24 h = 8,760 h = one year, so
    the model charges a full year's annuity."""
    text = SCENARIO.replace(
        "time: {start: 2025-01-01T00:00:00+00:00, hours: 24}",
        "time: {start: 2025-01-01T00:00:00+00:00, hours: 8760, aggregation: {typical_days: 6}}",
    )
    path = tmp_path / "year.yaml"
    path.write_text(text)
    year = build_inputs(load_scenario(path, catalog=catalog), catalog)
    assert float((year["weight"] * year["dt_hours"]).sum()) == pytest.approx(8760)
    assert year.attrs["horizon_years"] == pytest.approx(1.0)
