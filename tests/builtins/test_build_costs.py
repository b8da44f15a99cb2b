"""The build-cost catalogue (plugins/data/build_costs.csv) and the annuity helper.

Every figure is checked against the published number it comes from, quoted here with
its source, and converted by hand: the table must not drift from its sources.

Conversions used throughout (docs/costs.md):

* PyPSA technology-data publishes NREL ATB 2024 (2022 USD) in 2025 USD, inflated with
  Eurostat's US HICP rates 3.0 % (2023), 2.0 % (2024) and, 2025 being missing, their
  2003-2024 mean 2.45 %: factor 1.03 x 1.02 x 1.0245 = 1.0763397.
* 2022 and 2023 USD become 2024 USD with the BLS CPI-U annual averages
  292.655 (2022), 304.702 (2023), 313.689 (2024).
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import pytest

from geomodel.catalog import GENERIC_ASSETS, Catalog
from geomodel.inputs.annuity import annuity, capital_recovery_factor
from geomodel_builtins._tables import FIGURE_SOURCE_PREFIX, read_table

DOCS = Path(__file__).parents[2] / "docs" / "costs.md"
HARDWARE_CSV = Path(__file__).parents[2] / "plugins" / "data" / "hardware.csv"

COLUMNS = [
    "name", "asset_class", "applies_to", "description", "capex", "capex_unit", "fixed_om",
    "fixed_om_unit", "lifetime_years", "cost_year", "usd_year", "region", "source",
    "source_type", "notes", "src_capex", "src_fixed_om", "src_lifetime_years",
    "gbit_s_per_unit", "variable_cost_usd_per_mwh", "src_variable_cost_usd_per_mwh",
    "capex_low", "capex_high", "src_capex_range",
]  # fmt: skip
CAPEX_UNITS = {
    "USD/system", "USD/MW_IT", "USD/MW", "USD/site", "USD/kW", "USD/kWh", "USD/km", "USD/pair-km",
    "USD/module", "USD/pair-span", "USD/pair",
}  # fmt: skip
SOURCE_TYPES = {"vendor", "paper", "agency", "press", "estimate"}
TYPE_TAG = re.compile(r"\[(vendor|paper|agency|press|estimate)\]\s*$")
#: The issue's lifetime ranges per asset class (years).
ISSUE_LIFETIMES = {
    "systems": (4, 6),
    "facility": (15, 20),
    "solar": (25, 30),
    "wind": (25, 30),
    "battery": (12, 15),
    "fibre": (20, 25),
}

PYPSA_US_HICP_2022_TO_2025 = 1.03 * 1.02 * 1.0245
CPI_U = {2022: 292.655, 2023: 304.702, 2024: 313.689}
CPI_2024_OVER_2022 = CPI_U[2024] / CPI_U[2022]  # 1.07187
CPI_2024_OVER_2023 = CPI_U[2024] / CPI_U[2023]  # 1.02949
FT_PER_KM = 1_000 / 0.3048


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, str]]:
    return {row["name"]: row for row in read_table("build_costs")}


def number(row: dict[str, str], column: str) -> float:
    return float(row[column])


# --- shape: columns, units, sources ---------------------------------------------------


def test_the_table_has_its_columns_and_unique_names() -> None:
    table = read_table("build_costs")
    assert list(table[0]) == COLUMNS
    names = [row["name"] for row in table]
    assert len(names) == len(set(names)) == 20


def test_every_row_has_units_a_dollar_basis_and_positive_figures(rows) -> None:
    for name, row in rows.items():
        assert row["capex_unit"] in CAPEX_UNITS, name
        assert row["fixed_om_unit"] == row["capex_unit"] + "-yr", name
        assert row["usd_year"] == "2024", name
        assert 2023 <= int(row["cost_year"]) <= 2030, name
        assert number(row, "lifetime_years") > 0, name
        assert number(row, "fixed_om") >= 0, name
        if name != "ai_systems":  # its capex is per system in hardware.csv
            assert number(row, "capex") > 0, name
        assert row["description"] and row["region"], name


def test_every_figure_has_its_own_typed_source(rows) -> None:
    for name, row in rows.items():
        assert row["source"], name
        assert row["source_type"] in SOURCE_TYPES, name
        for field in ("capex", "fixed_om", "lifetime_years"):
            text = row[FIGURE_SOURCE_PREFIX + field]
            assert TYPE_TAG.search(text), f"{name}.{field}: {text!r} lacks a [type] tag"


def test_every_row_prices_catalogue_entries_that_exist(rows, catalog: Catalog) -> None:
    known = set(catalog.hardware) | set(catalog.links) | set(catalog.power_sources) | set(GENERIC_ASSETS)
    for name, row in rows.items():
        unknown = set(row["applies_to"].split()) - known
        assert not unknown, f"{name} applies to unknown entries {unknown}"
    # Every standard-fibre link technology has a route cost and a transceiver price.
    priced = {e for row in rows.values() for e in row["applies_to"].split()}
    assert {"smf_400zr", "smf_400zr_plus", "smf_800zr", "solar_pv", "wind_onshore"} <= priced


def test_lifetimes_lie_in_the_issues_ranges(rows) -> None:
    for name, row in rows.items():
        if row["asset_class"] in ISSUE_LIFETIMES:
            low, high = ISSUE_LIFETIMES[row["asset_class"]]
            assert low <= number(row, "lifetime_years") <= high, name


def test_every_row_is_documented_in_costs_md(rows) -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert [name for name in rows if f"`{name}`" not in text] == []


# --- systems: capex stays in the hardware catalogue -----------------------------------


def test_system_prices_are_not_duplicated_but_point_at_hardware_csv(rows) -> None:
    row = rows["ai_systems"]
    assert row["capex"] == ""
    assert "capex_usd_per_system" in row["src_capex"]
    with HARDWARE_CSV.open(encoding="utf-8") as handle:
        hardware = list(csv.DictReader(handle))
    priced = {h["name"] for h in hardware if h["capex_usd_per_system"]}
    assert set(row["applies_to"].split()) == priced
    # Only the cloud-only TPUs lack a price.
    assert {h["name"] for h in hardware} - priced == {"tpu_v5p_slice", "tpu_v6e_pod"}


# --- NREL ATB 2024 figures, via PyPSA technology-data ----------------------------------

#: name -> (PyPSA 2025-USD CAPEX, PyPSA fixed O&M in % of CAPEX a year), from
#: outputs/US/costs_2025.csv (2030 for nuclear), Moderate scenario, Market case.
PYPSA_ATB = {
    "solar_pv_utility": (1605.5122, 1.41),  # solar-utility = Utility PV - Class 5
    "wind_onshore_plant": (1688.8836, 1.99),  # onwind = Land-Based Wind - Class 4 - Tech 1
    "gas_ccgt_plant": (1609.5076, 2.22),  # NG 2-on-1 Combined Cycle (H-Frame)
    "gas_ct_plant": (1420.1185, 1.95),  # listed as 'CCGT' = NG Combustion Turbine (F-Frame)
    "nuclear_large": (8197.7895, 2.30),  # nuclear = Nuclear - Large, 2030
    "nuclear_smr": (10386.6788, 1.41),  # Nuclear - Small, 2030
}
#: rows whose capex now comes from 2024-25 market figures: ATB's capex is their low end
#: (nuclear_smr: ATB is below even the low end, docs/costs.md), its fixed O&M stays
ATB_AS_LOW_END = {"gas_ccgt_plant", "nuclear_large"}
ATB_FIXED_OM_ONLY = {"nuclear_smr"}


@pytest.mark.parametrize("name", sorted(PYPSA_ATB))
def test_plant_costs_are_atb_2024_in_2024_dollars(rows, name: str) -> None:
    """E.g. solar: 1,605.51 / 1.07634 = 1,491.6 (ATB, 2022 USD) x 1.07187 = 1,598.8."""
    pypsa_capex, fom_percent = PYPSA_ATB[name]
    atb_capex_2022 = pypsa_capex / PYPSA_US_HICP_2022_TO_2025
    row = rows[name]
    atb_capex = atb_capex_2022 * CPI_2024_OVER_2022
    if name in ATB_AS_LOW_END:
        assert number(row, "capex_low") == pytest.approx(atb_capex, rel=5e-4)
    elif name not in ATB_FIXED_OM_ONLY:
        assert number(row, "capex") == pytest.approx(atb_capex, rel=5e-4)
    fom_2022 = fom_percent / 100 * atb_capex_2022
    assert number(row, "fixed_om") == pytest.approx(fom_2022 * CPI_2024_OVER_2022, rel=3e-3)


def test_ccgt_is_the_mean_of_two_2025_quotes(rows) -> None:
    """BNEF 2025: US combined-cycle projects 2,157 USD/kW; NextEra (CERAWeek, March 2025):
    2,400 USD/kW. (2,157 + 2,400) / 2 = 2,278.5 -> 2,278; range ATB 1,603 to 2,500."""
    row = rows["gas_ccgt_plant"]
    assert number(row, "capex") == pytest.approx((2157 + 2400) / 2, abs=0.5)
    assert number(row, "capex_high") == 2500
    assert number(row, "capex") / number(row, "capex_low") == pytest.approx(1.42, abs=0.01)


def test_smr_is_darlingtons_first_unit(rows) -> None:
    """OPG Darlington (May 2025, 2024 CAD): unit 1 CAD 7.7 bn (6.1 + 1.6 shared) / 300 MW =
    25,667 CAD/kW / 1.3698 = 18,738 USD/kW; the four units CAD 20.9 bn / 1,200 MW =
    17,417 / 1.3698 = 12,715; NuScale CFPP 9.3 bn / 462 MW = 20,130 (2023 USD) x 1.02949
    = 20,724. ATB's 10,344 (2030) is 0.55 x the default."""
    row = rows["nuclear_smr"]
    assert number(row, "capex") == pytest.approx(7.7e9 / 300e3 / 1.3698, abs=1)
    assert number(row, "capex_low") == pytest.approx(20.9e9 / 1200e3 / 1.3698, abs=1)
    assert number(row, "capex_high") == pytest.approx(9.3e9 / 462e3 * CPI_2024_OVER_2023, abs=1)
    atb = 10386.6788 / PYPSA_US_HICP_2022_TO_2025 * CPI_2024_OVER_2022
    assert atb / number(row, "capex") == pytest.approx(0.55, abs=0.01)


def test_large_nuclear_is_the_top_of_lazards_range(rows) -> None:
    """Lazard LCOE+ 2023: 8,475-13,925 USD/kW (2023 USD); 13,925 x 1.02949 = 14,336;
    Vogtle 3 and 4, more than 35 bn USD for 2,234 MW = 15,667 USD/kW."""
    row = rows["nuclear_large"]
    assert number(row, "capex") == pytest.approx(13925 * CPI_2024_OVER_2023, abs=1)
    assert number(row, "capex_high") == pytest.approx(35e9 / 2234e3, abs=1)


def test_every_range_holds_its_default_and_is_sourced(rows) -> None:
    for name, row in rows.items():
        if row["capex_low"] or row["capex_high"]:
            assert number(row, "capex_low") <= number(row, "capex") <= number(row, "capex_high"), name
            assert TYPE_TAG.search(row["src_capex_range"]), name


def test_the_pypsa_deflator_recovers_the_atb_workbook_battery_split() -> None:
    """PyPSA's 2030 battery split 465.8398 USD/kW and 274.2514 USD/kWh (2025 USD) over
    1.07634 gives 432.8 and 254.8, the ATB 2024 workbook values in its input sheet."""
    power_2022, energy_2022 = (v / PYPSA_US_HICP_2022_TO_2025 for v in (465.8398, 274.2514))
    assert power_2022 == pytest.approx(432.8, abs=0.01)
    assert energy_2022 == pytest.approx(254.8, abs=0.01)


def battery_split(two_hour: float, four_hour: float) -> tuple[float, float]:
    """(USD/kW, USD/kWh) from two system costs in USD/kW: cost(d) = power + d x energy."""
    energy = (four_hour - two_hour) / 2
    return two_hour - 2 * energy, energy


def test_the_battery_split_method_reproduces_atbs_own_2030_split() -> None:
    """ATB 2024, 2030: 2 h 1,013.8857 and 4 h 1,562.1086 USD/kW (PyPSA, 2025 USD); the
    ATB workbook splits them into 432.8 USD/kW and 254.8 USD/kWh (2022 USD)."""
    power, energy = battery_split(
        1013.8857 / PYPSA_US_HICP_2022_TO_2025, 1562.1086 / PYPSA_US_HICP_2022_TO_2025
    )
    assert power == pytest.approx(432.8, rel=1e-3)
    assert energy == pytest.approx(254.8, rel=1e-3)


def test_battery_power_and_energy_parts_are_atbs_2025_line(rows) -> None:
    """ATB 2024, 2025: 2 h 1,150.4961, 4 h 1,842.0510, 10 h 3,916.7154 USD/kW (PyPSA,
    2025 USD) = 1,068.90, 1,711.40, 3,638.92 in 2022 USD: energy (1,711.40 - 1,068.90) / 2
    = 321.25 USD/kWh, power 1,068.90 - 642.50 = 426.40 USD/kW; x 1.07187: the high end
    of the battery range."""
    two_h, four_h, ten_h = (v / PYPSA_US_HICP_2022_TO_2025 for v in (1150.4961, 1842.0510, 3916.7154))
    power, energy = battery_split(two_h, four_h)
    assert (power, energy) == (pytest.approx(426.40, abs=0.01), pytest.approx(321.25, abs=0.01))
    assert power + 10 * energy == pytest.approx(ten_h, rel=1e-6)  # costs are linear in hours
    p_row, e_row = rows["battery_power"], rows["battery_energy"]
    assert number(p_row, "capex_high") == pytest.approx(power * CPI_2024_OVER_2022, rel=1e-3)
    assert number(e_row, "capex_high") == pytest.approx(energy * CPI_2024_OVER_2022, rel=1e-3)
    # ATB's 4-hour fixed O&M, 2.27 % of 1,711.40 = 38.85 USD/kW-yr (2022 USD), and 2 h,
    # 2.18 % of 1,068.90 = 23.30, are rebuilt from the two parts within 1 %.
    for hours, fom_2022 in ((4, 0.0227 * 1711.40), (2, 0.0218 * 1068.90)):
        rebuilt = number(p_row, "fixed_om") + hours * number(e_row, "fixed_om")
        assert rebuilt == pytest.approx(fom_2022 * CPI_2024_OVER_2022, rel=0.01)


def test_a_four_hour_battery_costs_bnefs_2024_turnkey_price(rows) -> None:
    """BNEF Energy Storage System Cost Survey 2024: 165 USD/kWh for a turnkey 4 h system,
    660 USD/kW, split 457 : 344 as ATB: power 457 x 660 / 1,833 = 164.5 USD/kW, energy
    344 x 0.36007 = 123.9 USD/kWh; ATB's own 4 h system is 2.78 times it."""
    power, energy = number(rows["battery_power"], "capex"), number(rows["battery_energy"], "capex")
    assert power + 4 * energy == pytest.approx(165 * 4, abs=0.5)
    assert power / energy == pytest.approx(457 / 344, rel=2e-3)
    assert (457 + 4 * 344) / (power + 4 * energy) == pytest.approx(2.78, abs=0.01)


def test_battery_lifetime_is_atbs_15_years(rows) -> None:
    assert number(rows["battery_power"], "lifetime_years") == 15
    assert number(rows["battery_energy"], "lifetime_years") == 15


def test_solar_and_wind_levelised_costs_fall_in_lazards_2024_ranges(rows) -> None:
    """With ATB 2024's own 2025 capacity factor and real WACC (PV class 5: 0.2675 and
    4.19 %; wind class 4: 0.4584 and 5.00 %), over 30 years:
    PV (1,599 x 0.059172 + 22.5) / (8.76 x 0.2675) = 50.0 USD/MWh;
    wind (1,682 x 0.065051 + 33.5) / (8.76 x 0.4584) = 35.6 USD/MWh.
    Lazard LCOE+ June 2024, unsubsidised: utility PV 29-92, onshore wind 27-73 USD/MWh
    (PV Tech, 5 June 2024)."""
    for name, cf, wacc, (low, high), expected in (
        ("solar_pv_utility", 0.2675, 0.0419, (29, 92), 50.0),
        ("wind_onshore_plant", 0.4584, 0.0500, (27, 73), 35.6),
    ):
        row = rows[name]
        yearly = annuity(number(row, "capex"), wacc, number(row, "lifetime_years"))
        lcoe = (yearly + number(row, "fixed_om")) / (8.76 * cf)
        assert lcoe == pytest.approx(expected, abs=0.05)
        assert low < lcoe < high


# --- data centres, land, fibre ------------------------------------------------------


def test_facility_cost_is_cushman_wakefields_us_average(rows) -> None:
    """C&W Data Center Development Cost Guide 2025: 11.7 M USD per MW of critical load on
    average over 19 US markets, 9.3 M (San Antonio) to 15.0 M (Reno); JLL's 2026 Global
    Data Center Outlook: 10.7 M per MW in 2025, worldwide."""
    capex = number(rows["datacentre_facility"], "capex")
    assert capex == 11.7e6
    assert 9.3e6 < capex < 15.0e6
    assert capex / 10.7e6 == pytest.approx(1.0, abs=0.10)
    assert rows["datacentre_facility"]["capex_unit"] == "USD/MW_IT"


def test_ai_hall_is_the_published_20_m_with_the_premium_estimate_as_its_low_end(rows) -> None:
    """Giga Energy 2026: AI-optimised data centres 20 M USD or more per MW. Low end:
    Turner & Townsend DCCCI 2025-2026's 7-10 % AI premium (middle 8.5 %) on C&W's
    11.7 M = 12.69 M, 37 % below (sources disagree by more than 30 %: a range)."""
    row = rows["datacentre_facility_ai"]
    assert number(row, "capex") == 20e6
    low = number(row, "capex_low") / number(rows["datacentre_facility"], "capex")
    assert low == pytest.approx(1.085)
    assert 1 - number(row, "capex_low") / number(row, "capex") == pytest.approx(0.365, abs=0.001)
    for name in ("datacentre_facility", "datacentre_facility_ai"):
        assert number(rows[name], "fixed_om") == pytest.approx(0.025 * number(rows[name], "capex"))


def test_grid_connection_is_its_own_asset_class_per_facility_mw(rows) -> None:
    """build.inc 2025 (from CBRE): substations, on-site generation and batteries add 1-3 M
    USD per MW; the substation and connection alone at the low end, 1.0 M per MW."""
    row = rows["grid_connection_substation"]
    assert (row["asset_class"], row["applies_to"], row["capex_unit"]) == (
        "grid_connection",
        "grid_connection",
        "USD/MW",
    )
    assert number(row, "capex") == 1e6
    assert "grid_connection" in GENERIC_ASSETS


def test_site_land_is_cushman_wakefields_average_parcel(rows) -> None:
    """C&W 2025: 244,000 USD per acre (5.59 USD/sq ft: 5.59 x 43,560 sq ft = 243,500)
    through Oct 2024, average 2024 parcel 224 acres: 224 x 244,000 = 54.656 M USD."""
    usd_per_acre = 5.59 * 43_560
    assert usd_per_acre == pytest.approx(244_000, rel=0.005)
    assert number(rows["site_land"], "capex") == 224 * 244_000


def test_fibre_route_is_cartesians_rural_underground_median(rows) -> None:
    """Cartesian 2023 Fiber Deployment Cost Annual Report: 12.50 USD/ft underground in the
    most rural areas, typical 11-24 USD/ft: 12.50 x 3,280.84 = 41,010 USD/km (2023 USD)
    x 1.02949 = 42,220 USD/km (2024 USD)."""
    route = number(rows["fibre_route"], "capex")
    assert route == pytest.approx(12.50 * FT_PER_KM * CPI_2024_OVER_2023, rel=1e-4)
    assert 11 * FT_PER_KM < route / CPI_2024_OVER_2023 < 24 * FT_PER_KM
    # One pair's IRU share of a 144-fibre (72-pair) cable, its maintenance likewise.
    iru = rows["fibre_pair_iru"]
    assert number(iru, "capex") == pytest.approx(route / 72, abs=0.5)
    assert number(iru, "fixed_om") == pytest.approx(
        number(rows["fibre_route"], "fixed_om") / 72, abs=0.05
    )


def test_a_fully_lit_pair_costs_the_same_per_bit_with_400zr_and_800zr(rows) -> None:
    """64 x 400G (75 GHz) or 32 x 800G (150 GHz) fill the C band; two modules a wavelength."""
    zr400 = 2 * 64 * number(rows["transceiver_400zr"], "capex")
    zr800 = 2 * 32 * number(rows["transceiver_800zr"], "capex")
    assert zr400 == zr800 == 384_000


# --- the annuity helper ---------------------------------------------------------------


def test_capital_recovery_factor_by_hand() -> None:
    """r = 5 %, n = 20: 1.05^20 = 2.6532977; 0.05 x 2.6532977 / 1.6532977 = 0.0802426.
    r = 8 %, n = 5: 1.08^5 = 1.4693281; 0.08 x 1.4693281 / 0.4693281 = 0.2504565."""
    assert capital_recovery_factor(0.05, 20) == pytest.approx(0.0802426, abs=1e-7)
    assert capital_recovery_factor(0.08, 5) == pytest.approx(0.2504565, abs=1e-7)


def test_capital_recovery_factor_without_discounting_is_one_over_n() -> None:
    assert capital_recovery_factor(0.0, 25) == 0.04
    assert capital_recovery_factor(1e-12, 25) == pytest.approx(0.04, rel=1e-9)


@pytest.mark.parametrize(("rate", "years"), [(0.05, 30), (0.3, 4), (0.0419, 7)])
def test_the_payments_are_worth_the_capex_today(rate: float, years: int) -> None:
    """The present value of n equal payments, sum of A / (1 + r)^t, equals the capex."""
    payment = annuity(1_000.0, rate, years)
    assert math.fsum(payment / (1 + rate) ** t for t in range(1, years + 1)) == pytest.approx(1_000.0)


@pytest.mark.parametrize(("rate", "years"), [(0.05, 0), (0.05, -3), (-1.0, 10)])
def test_capital_recovery_factor_rejects_impossible_inputs(rate: float, years: float) -> None:
    with pytest.raises(ValueError):
        capital_recovery_factor(rate, years)


def test_docs_quote_the_factors_and_worked_examples() -> None:
    """docs/costs.md quotes the factors at 5 % and a solar example: 1,599,000 x 0.06505
    + 22,500 = 126,517 USD a year."""
    text = DOCS.read_text(encoding="utf-8")
    for years, quoted in ((5, "0.23097"), (15, "0.09634"), (20, "0.08024"), (30, "0.06505")):
        assert f"{years}: {quoted}" in text
        assert round(capital_recovery_factor(0.05, years), 5) == float(quoted)
    assert round(annuity(1_599_000, 0.05, 30) + 22_500) == 126_517
    assert "126,517" in text


# --- what planning mode reads beside the figures ----------------------------------------


def test_the_generic_assets_have_one_default_each(rows) -> None:
    """facility, site, battery_power and battery_energy are priced by exactly one row each."""
    for asset in GENERIC_ASSETS:
        pricing = [name for name, row in rows.items() if asset in row["applies_to"].split()]
        assert len(pricing) == 1, (asset, pricing)


def test_a_transceivers_line_rate_is_its_optics_rate(rows) -> None:
    """400ZR and 400ZR+ carry 400 Gb/s per wavelength, 800ZR 800 Gb/s (OIF implementation
    agreements): a fully lit 25.6 Tb/s pair takes 2 x 64 or 2 x 32 modules."""
    rates = {
        name: row["gbit_s_per_unit"] for name, row in rows.items() if row["capex_unit"] == "USD/module"
    }
    assert rates == {
        "transceiver_400zr": "400",
        "transceiver_400zr_plus": "400",
        "transceiver_800zr": "800",
    }


def test_built_generators_have_a_sourced_variable_cost(rows) -> None:
    """Solar and wind: ATB carries their O&M as fixed only; gas 2.28 VOM + 18.34 / 0.57 fuel
    = 34.5 USD/MWh; nuclear 3.01 VOM + 10.96 fuel = 13.97, rounded to 14.0."""
    costs = {
        name: row["variable_cost_usd_per_mwh"]
        for name, row in rows.items()
        if row["variable_cost_usd_per_mwh"]
    }
    assert costs == {
        "solar_pv_utility": "0",
        "wind_onshore_plant": "0",
        "gas_ccgt_plant": "34.5",
        "nuclear_large": "14.0",
    }
    assert pytest.approx(34.5, abs=0.05) == 2.28 + 18.34 / 0.57
    assert pytest.approx(14.0, abs=0.05) == 3.01 + 10.96
    for name in costs:
        assert TYPE_TAG.search(rows[name]["src_variable_cost_usd_per_mwh"]), name
