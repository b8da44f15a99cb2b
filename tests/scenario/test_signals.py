"""The grid-signal fields of a scenario: signals (series, carbon basis, price terms per
region) and a site's grid_price / grid_carbon. Bad input gets one clear line each:
file and line, field path, the value and what is allowed."""

from __future__ import annotations

import pandas as pd
import pytest

from geomodel.catalog import Catalog

from .conftest import BASE, assert_names, errors, line_of, load, only_error, write

SIGNALS = "signals:\n  carbon_basis: lifecycle\n"


def with_site_fields(fields: str, site: str = "fra") -> str:
    """BASE with ``fields`` (YAML lines, indented for a site) added to one site."""
    anchor = "    jurisdiction: EU\n"
    first = BASE.index(anchor, BASE.index(f"  {site}:"))
    return BASE[: first + len(anchor)] + fields + BASE[first + len(anchor) :]


def price_csv(folder, rows: list[tuple[str, str]], name: str = "prices.csv") -> str:
    write(folder, name, "time,usd_mwh\n" + "".join(f"{t},{v}\n" for t, v in rows))
    return name


def hours(n: int = 24, start: str = "2025-01-01T00:00:00+00:00") -> list[str]:
    return [t.isoformat() for t in pd.date_range(start, periods=n, freq="h")]


def test_the_defaults_are_measured_series_counted_lifecycle(tmp_path, catalog):
    scenario = load(tmp_path, BASE, catalog)
    assert scenario.signals.grid_series == "measured"
    assert scenario.signals.carbon_basis == "lifecycle"
    assert scenario.signals.grid_prices == {}


def test_a_carbon_basis_typo_is_one_line_naming_the_allowed_values(tmp_path, catalog):
    text = BASE + "signals:\n  carbon_basis: lifecyle\n"
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "carbon_basis"),
        path="signals.carbon_basis",
        allowed="should be 'lifecycle' or 'direct'",
        value="lifecyle",
    )


def test_a_grid_series_typo_is_refused(tmp_path, catalog):
    problem = only_error(tmp_path, BASE + "signals:\n  grid_series: measurd\n", catalog)
    assert problem.path == "signals.grid_series"
    assert "'measured' or 'shaped'" in problem.message


def test_price_terms_for_an_unknown_region_suggest_the_closest(tmp_path, catalog):
    text = BASE + "signals:\n  grid_prices:\n    grid_dee: {adder: 20 USD/MWh}\n"
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "signals.grid_prices.grid_dee"
    assert "unknown grid region 'grid_dee'; did you mean grid_de" in problem.message
    assert problem.position.line == line_of(text, "grid_dee")


def test_price_terms_for_a_region_no_site_uses_are_a_warning(tmp_path, catalog):
    scenario = load(
        tmp_path, BASE + "signals:\n  grid_prices:\n    grid_fr: {adder: 20 USD/MWh}\n", catalog
    )
    [warning] = scenario.origin.warnings
    assert warning.path == "signals.grid_prices.grid_fr"
    assert "no site draws from 'grid_fr'" in warning.message


def test_a_negative_multiplier_is_refused_with_its_bound(tmp_path, catalog):
    text = BASE + "signals:\n  grid_prices:\n    grid_de: {multiplier: -1}\n"
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "signals.grid_prices.grid_de.multiplier"
    assert problem.message == "must lie in [0, 10]"


@pytest.mark.parametrize(
    ("fields", "path", "message"),
    [
        (
            "    grid_price: {constant: 80 USD/MWh, csv: prices.csv, column: usd_mwh}\n",
            "sites.fra.grid_price",
            "give 'constant' or 'csv', not both",
        ),
        (
            "    grid_price: {csv: prices.csv}\n",
            "sites.fra.grid_price",
            "'csv' and 'column' go together",
        ),
        ("    grid_carbon: {}\n", "sites.fra.grid_carbon", "give 'constant' or 'csv' with 'column'"),
        (
            "    grid_carbon: {constant: -5 kgCO2/MWh}\n",
            "sites.fra.grid_carbon.constant",
            "must lie in [0, 2000] kgCO2/MWh",
        ),
        ("    grid_price: {adder: 3 EUR/MWh}\n", "sites.fra.grid_price.adder", "USD/MWh"),
    ],
)
def test_bad_site_grid_series_are_one_line_each(tmp_path, catalog, fields, path, message):
    problem = only_error(tmp_path, with_site_fields(fields), catalog)
    assert problem.path == path
    assert message in problem.message
    assert problem.position.line == line_of(with_site_fields(fields), fields.split(":")[0].strip())


def test_grid_series_of_an_off_grid_site_are_refused(tmp_path, catalog):
    text = with_site_fields("    grid_price: {adder: 5 USD/MWh}\n").replace(
        "    grid: grid_de\n", "    power_sources: {nuclear: {capacity: 30 MW}}\n"
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra"
    assert "'grid_price' needs a 'grid' to import from" in problem.message


def test_a_price_csv_with_negative_prices_is_read(tmp_path, catalog):
    name = price_csv(tmp_path, [(t, -10 + i) for i, t in enumerate(hours())])
    text = with_site_fields(f"    grid_price: {{csv: {name}, column: usd_mwh}}\n")
    scenario = load(tmp_path, text, catalog)
    series = scenario.origin.grid_series[("fra", "price")]
    assert series.iloc[0] == -10 and series.iloc[-1] == 13


def test_a_carbon_csv_refuses_negative_values(tmp_path, catalog):
    name = price_csv(tmp_path, [(t, -1) for t in hours()])
    text = with_site_fields(f"    grid_carbon: {{csv: {name}, column: usd_mwh}}\n")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.grid_carbon.csv"
    assert "has negative values, first at 2025-01-01 00:00:00+00:00" in problem.message


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        # the horizon runs past the series: the file ends after 12 of the 24 hours
        (lambda: [(t, 50) for t in hours(12)], "does not cover the horizon"),
        # a series of the right length that starts a day early leaves the horizon uncovered too
        (
            lambda: [(t, 50) for t in hours(24, "2024-12-31T00:00:00+00:00")],
            "does not cover the horizon",
        ),
        # a gap: the fifth hour is missing
        (
            lambda: [(t, 50) for i, t in enumerate(hours()) if i != 4],
            "first missing hours 2025-01-01 04:00",
        ),
        # an empty cell and a word where numbers belong
        (lambda: [(t, "" if i == 3 else 50) for i, t in enumerate(hours())], "empty, non-numeric"),
        (lambda: [(t, "n/a" if i == 7 else 50) for i, t in enumerate(hours())], "at 2025-01-01 07:00"),
    ],
    ids=["too-short", "outside-the-horizon", "gap", "empty-cell", "not-a-number"],
)
def test_bad_price_csvs_are_one_line_naming_the_file(tmp_path, catalog, rows, message):
    name = price_csv(tmp_path, rows())
    text = with_site_fields(f"    grid_price: {{csv: {name}, column: usd_mwh}}\n")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.grid_price.csv"
    assert "prices.csv" in problem.message and message in problem.message
    assert problem.position.line == line_of(text, "grid_price")


def test_mixed_price_levels_warn_and_an_adder_silences_them(tmp_path, catalog):
    # grid_us_va_pjm carries a default adder (EIA retail - PJM wholesale); grid_us_ny_nyiso
    # has no retail figure: wholesale only. Comparing them flatters New York.
    text = BASE.replace("grid: grid_de", "grid: grid_us_va_pjm").replace(
        "grid: grid_nl", "grid: grid_us_ny_nyiso"
    )
    [warning] = load(tmp_path, text, catalog).origin.warnings
    assert warning.path == "sites"
    assert "fra (grid_us_va_pjm) pay industrial retail" in warning.message
    assert "ams (grid_us_ny_nyiso) pay wholesale only" in warning.message
    fixed = text + "signals:\n  grid_prices:\n    grid_us_ny_nyiso: {adder: 40 USD/MWh}\n"
    assert load(tmp_path, fixed, catalog).origin.warnings == []
    # two wholesale-only European regions are like for like: no warning
    assert load(tmp_path, BASE, catalog).origin.warnings == []


def test_a_source_known_in_one_basis_only_is_a_warning(tmp_path, catalog):
    region = catalog.power_sources["grid_de"]
    lonely = region.shaped().model_copy(update={"carbon_other_basis_kg_per_mwh": None})
    narrowed = Catalog(
        **{**catalog.__dict__, "power_sources": {**catalog.power_sources, "grid_de": lonely}}
    )
    direct = BASE + "signals:\n  carbon_basis: direct\n"
    [warning] = load(tmp_path, direct, narrowed).origin.warnings
    assert warning.path == "sites.fra.grid"
    assert "knows only lifecycle carbon, but the scenario counts direct" in warning.message
    # a site's own carbon is taken in the scenario's basis: nothing to warn about
    own = (
        with_site_fields("    grid_carbon: {constant: 300 kgCO2/MWh}\n")
        + "signals:\n  carbon_basis: direct\n"
    )
    assert load(tmp_path, own, narrowed).origin.warnings == []


def test_errors_of_a_file_come_all_at_once(tmp_path, catalog):
    text = (
        with_site_fields("    grid_carbon: {constant: -5 kgCO2/MWh}\n")
        + "signals:\n  carbon_basis: scope2\n"
    )
    found = errors(tmp_path, text, catalog)
    assert {p.path for p in found} == {"sites.fra.grid_carbon.constant", "signals.carbon_basis"}
