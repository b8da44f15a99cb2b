"""The real-data example plugin: Electricity Maps hourly carbon plus day-ahead prices.

The plugin is loaded from examples/geomodel-electricitymaps-plugin without
installing it. Its sample files are synthetic (written by its
tools/make_synthetic_sample.py) in the documented layouts; expected figures are
computed here from the CSV rows with the csv module, not with the plugin's code.
Bad files must get exactly the messages scenario time series get, so each case
is compared with geomodel.scenario.timeseries reading the same problem.
"""

from __future__ import annotations

import csv
import importlib
import shutil
import statistics
import sys
from pathlib import Path

import pandas as pd
import pytest

from geomodel.catalog import build_catalog
from geomodel.scenario import ScenarioError
from geomodel.scenario.timeseries import SeriesError, read_csv_series
from geomodel.testing import (
    MINIMAL_PLUGINS,
    check_plugin,
    load_minimal_scenario,
    minimal_scenario,
    plugin_host,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "geomodel-electricitymaps-plugin"
SAMPLE = EXAMPLE / "geomodel_electricitymaps" / "sample"
CARBON_CSV = SAMPLE / "SYNTHETIC_XX_2025_hourly.csv"
PRICE_CSV = SAMPLE / "SYNTHETIC_XX_2025_day_ahead.csv"
LCA = "Carbon Intensity gCO₂eq/kWh (LCA)"
DIRECT = "Carbon Intensity gCO₂eq/kWh (direct)"
WEEK = pd.date_range("2025-01-06", periods=168, freq="h", tz="UTC")


@pytest.fixture(scope="module")
def em():
    sys.path.insert(0, str(EXAMPLE))
    try:
        yield importlib.import_module("geomodel_electricitymaps")
    finally:
        sys.path.remove(str(EXAMPLE))


@pytest.fixture
def sample_config(em, monkeypatch) -> Path:
    monkeypatch.setenv(em.CONFIG_ENV, str(em.SAMPLE_CONFIG))
    return em.SAMPLE_CONFIG


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def write_config(folder: Path, **settings: object) -> Path:
    lines = ["[sources.em_test]"]
    for key, value in settings.items():
        lines.append(f"{key} = {value!r}".replace("'", '"'))
    path = folder / "electricitymaps.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def copy_sample(folder: Path) -> tuple[Path, Path]:
    return Path(shutil.copy(CARBON_CSV, folder)), Path(shutil.copy(PRICE_CSV, folder))


def edit_lines(path: Path, edit) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(edit(lines)) + "\n", encoding="utf-8")


def test_the_readme_documents_every_column_and_setting(em):
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    for column in em.EM_COLUMNS:
        assert f"`{column}`" in readme, column
    config = importlib.import_module("geomodel_electricitymaps.config")
    for key in config.REQUIRED | config.OPTIONAL:
        assert f"`{key}`" in readme, key
    assert f"`{em.CONFIG_ENV}`" in readme or em.CONFIG_ENV in readme
    assert "`time`" in readme and "`price_usd_per_mwh`" in readme


# --- the sample, read ------------------------------------------------------------------------


def test_the_sample_is_labelled_synthetic_in_every_row():
    carbon = rows(CARBON_CSV)
    assert len(carbon) == 168
    assert {row["Zone Id"] for row in carbon} == {"XX"}
    assert all(row["Data Source"].startswith("SYNTHETIC") for row in carbon)
    assert "SYNTHETIC" in CARBON_CSV.name and "SYNTHETIC" in PRICE_CSV.name


def test_the_sample_source_has_the_files_means_and_its_provenance(em, sample_config):
    (source,) = em.load_sources(sample_config)
    carbon, prices = rows(CARBON_CSV), rows(PRICE_CSV)
    assert source.name == "em_xx_synthetic" and source.kind == "grid"
    assert source.carbon_basis == "lifecycle"
    assert source.carbon_kg_per_mwh == pytest.approx(statistics.mean(float(r[LCA]) for r in carbon))
    price_values = [float(r["price_usd_per_mwh"]) for r in prices]
    assert min(price_values) < 0  # real day-ahead markets have negative hours; so does the sample
    assert source.price_usd_per_mwh == pytest.approx(statistics.mean(price_values))
    assert (source.location.lat, source.location.lon) == (50.0, 10.0)
    assert source.source_type == "estimate" and "not Electricity Maps data" in source.source
    assert source.figure_sources["carbon_kg_per_mwh"].endswith("[estimate]")
    assert (
        "168 hours from 2025-01-06 00:00 to 2025-01-12 23:00 UTC"
        in source.figure_sources["carbon_kg_per_mwh"]
    )
    estimated = sum(r["Data Estimated"] == "true" for r in carbon) / len(carbon)
    assert f"{estimated:.1%} of the hours are estimates" in source.notes
    assert source.hourly_coverage().equals(WEEK)


def test_the_profile_is_the_files_values_at_the_requested_instants(em, sample_config):
    (source,) = em.load_sources(sample_config)
    berlin = WEEK[30:54].tz_convert("Europe/Berlin")  # a day of the week, asked in local time
    profile = source.profile(source.location, berlin)
    assert profile.index.equals(berlin)
    carbon, prices = rows(CARBON_CSV)[30:54], rows(PRICE_CSV)[30:54]
    assert profile["carbon_kg_per_mwh"].tolist() == pytest.approx([float(r[LCA]) for r in carbon])
    assert profile["price_usd_per_mwh"].tolist() == pytest.approx(
        [float(r["price_usd_per_mwh"]) for r in prices]
    )
    assert (profile["capacity_factor"] == 1.0).all()


def test_direct_basis_reads_the_direct_column_and_a_flat_price_is_allowed(em, tmp_path):
    config = write_config(
        tmp_path, carbon_csv=str(CARBON_CSV), carbon_basis="direct", price_usd_per_mwh=70.0, zone="XX"
    )
    (source,) = em.load_sources(config)
    assert source.carbon_basis == "direct"
    assert source.carbon_kg_per_mwh == pytest.approx(
        statistics.mean(float(r[DIRECT]) for r in rows(CARBON_CSV))
    )
    assert source.price_usd_per_mwh == 70.0
    assert (
        source.figure_sources["price_usd_per_mwh"] == "flat price set in electricitymaps.toml [estimate]"
    )
    assert (source.profile(source.location or _nowhere(), WEEK[:5])["price_usd_per_mwh"] == 70.0).all()


def _nowhere():
    from geomodel import Location

    return Location(lat=0.0, lon=0.0)


def test_prices_in_another_currency_are_converted(em, tmp_path):
    prices = tmp_path / "eur.csv"
    prices.write_text(
        PRICE_CSV.read_text(encoding="utf-8").replace("price_usd_per_mwh", "price_eur_per_mwh")
    )
    config = write_config(
        tmp_path,
        carbon_csv=str(CARBON_CSV),
        price_csv="eur.csv",
        price_column="price_eur_per_mwh",
        price_to_usd=1.08,
    )
    (source,) = em.load_sources(config)
    mean_eur = statistics.mean(float(r["price_usd_per_mwh"]) for r in rows(PRICE_CSV))
    assert source.price_usd_per_mwh == pytest.approx(1.08 * mean_eur)
    assert "x 1.08" in source.figure_sources["price_usd_per_mwh"]


def test_the_plugin_passes_the_conformance_checks_on_its_sample(em, sample_config):
    report = check_plugin(em)
    assert report.passed, report.summary()
    means = [r for r in report.results if r.check == "profile-mean"]
    assert len(means) == 3 and all("over" not in r.message for r in means)
    index = next(r for r in report.results if r.check == "profile-index")
    assert "168 hourly rows from 2025-01-06" in index.message  # its hourly_coverage(), not a year


def test_without_a_configuration_the_plugin_contributes_nothing(em, monkeypatch):
    monkeypatch.delenv(em.CONFIG_ENV, raising=False)
    catalog = build_catalog(plugin_host(em))
    assert catalog.failures == [] and catalog.contributions("electricitymaps")["power sources"] == []


# --- a scenario that uses the source ------------------------------------------------------------


def scenario_with_grid(start: str, hours: int) -> dict:
    data = minimal_scenario(hours=hours)
    data["time"]["start"] = start
    data["sites"]["site_a"]["grid"] = "em_xx_synthetic"
    return data


def test_a_scenario_uses_the_hourly_files_as_its_grid(em, sample_config):
    from geomodel.inputs.build import build_inputs

    catalog = build_catalog(plugin_host(*MINIMAL_PLUGINS, em))
    scenario = load_minimal_scenario(catalog, scenario_with_grid("2025-01-07T00:00:00+01:00", 6))
    inputs = build_inputs(scenario, catalog)
    price = inputs["grid_price_usd_per_mwh"].sel(site="site_a").values
    carbon = inputs["grid_carbon_kg_per_mwh"].sel(site="site_a").values
    # 00:00+01:00 on 7 January is 23:00 UTC on the 6th: row 23 of the files
    assert price.tolist() == pytest.approx(
        [float(r["price_usd_per_mwh"]) for r in rows(PRICE_CSV)[23:29]]
    )
    assert carbon.tolist() == pytest.approx([float(r[LCA]) for r in rows(CARBON_CSV)[23:29]])


def test_a_horizon_the_files_do_not_cover_is_a_scenario_problem(em, sample_config):
    catalog = build_catalog(plugin_host(*MINIMAL_PLUGINS, em))
    with pytest.raises(ScenarioError) as raised:
        load_minimal_scenario(catalog, scenario_with_grid("2025-01-12T20:00:00+00:00", 6))
    (problem,) = raised.value.problems
    # the plugin's leading field path becomes the problem's field, reported at its line
    assert problem.path == "sites.site_a.grid"
    assert problem.position is not None
    assert problem.message.startswith(
        "power source 'em_xx_synthetic': SYNTHETIC_XX_2025_hourly.csv does not "
        "cover the horizon: expected every hour from 2025-01-12 20:00:00+00:00 to "
        "2025-01-13 01:00:00+00:00"
    )
    assert "(check by plugin 'electricitymaps')" in problem.message
    assert "sites.site_a.grid: power source 'em_xx_synthetic': " in str(raised.value)


# --- bad files get the scenario series' messages ---------------------------------------------------


def scenario_message(tmp_path: Path, name: str, text: str, column: str, index=WEEK) -> str:
    """What geomodel.scenario.timeseries says about a scenario CSV with the same problem."""
    path = tmp_path / "scenario-layout" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SeriesError) as raised:
        read_csv_series(path, column, index)
    return str(raised.value)


def plugin_message(em, config: Path) -> str:
    with pytest.raises(em.ConfigError) as raised:
        em.load_sources(config)
    return str(raised.value)


def em_as_scenario_layout(lines: list[str]) -> str:
    """The carbon file's time and LCA columns in the scenario layout, row for row."""
    header, *body = lines
    columns = next(csv.reader([header]))
    out = [f"time,{LCA}"]
    for line in body:
        row = dict(zip(columns, next(csv.reader([line])), strict=True))
        out.append(f"{row['Datetime (UTC)']}+00:00,{row[LCA]}")
    return "\n".join(out) + "\n"


def empty_lca(line: str) -> str:
    cells = line.split(",")
    cells[5] = ""  # the (LCA) column; the quoted Data Source comes later and is joined back as it was
    return ",".join(cells)


@pytest.mark.parametrize(
    ("case", "edit"),
    [
        ("gap", lambda lines: lines[:50] + lines[51:]),  # 2025-01-08 01:00 is missing
        ("duplicate hour", lambda lines: [*lines[:40], lines[39], *lines[40:]]),
        ("empty value", lambda lines: [*lines[:60], empty_lca(lines[60]), *lines[61:]]),
        (
            "between hours",
            lambda lines: [*lines[:20], lines[20].replace(":00:00,", ":30:00,", 1), *lines[21:]],
        ),
    ],
)
def test_a_bad_carbon_file_gets_the_scenario_message(em, tmp_path, case, edit):
    carbon, _ = copy_sample(tmp_path)
    edit_lines(carbon, edit)
    expected = scenario_message(
        tmp_path,
        carbon.name,
        em_as_scenario_layout(carbon.read_text(encoding="utf-8").splitlines()),
        LCA,
        index=_span(carbon),
    )
    config = write_config(tmp_path, carbon_csv=carbon.name, price_usd_per_mwh=80.0)
    message = plugin_message(em, config)
    assert message == f"electricitymaps.toml: sources.em_test: {expected}"
    assert carbon.name in message


def _span(carbon: Path) -> pd.DatetimeIndex:
    times = pd.to_datetime(
        [r["Datetime (UTC)"] for r in rows(carbon)], utc=True, errors="coerce"
    ).dropna()
    return pd.date_range(times.min().floor("h"), times.max().ceil("h"), freq="h")


def test_the_messages_name_the_lines_of_the_original_file(em, tmp_path):
    carbon, _ = copy_sample(tmp_path)
    edit_lines(carbon, lambda lines: [*lines[:40], lines[39], *lines[40:]])  # line 41 repeats line 40
    message = plugin_message(em, write_config(tmp_path, carbon_csv=carbon.name, price_usd_per_mwh=1.0))
    assert (
        "SYNTHETIC_XX_2025_hourly.csv:41: duplicate timestamp 2025-01-07 14:00:00+00:00 "
        "(also on line 40)" in message
    )


def test_a_carbon_file_in_another_time_zone_is_refused(em, tmp_path):
    carbon, _ = copy_sample(tmp_path)
    edit_lines(
        carbon,
        lambda lines: [lines[0], *[line.replace(":00:00,", ":00:00+01:00,", 1) for line in lines[1:]]],
    )
    message = plugin_message(em, write_config(tmp_path, carbon_csv=carbon.name, price_usd_per_mwh=1.0))
    assert (
        "SYNTHETIC_XX_2025_hourly.csv:2: timestamp '2025-01-06 00:00:00+01:00' is not in UTC, "
        "but column 'Datetime (UTC)' holds UTC times" in message
    )


def test_a_price_file_without_utc_offsets_gets_the_scenario_message(em, tmp_path):
    _, prices = copy_sample(tmp_path)
    edit_lines(prices, lambda lines: [line.replace("+00:00", "") for line in lines])
    expected = scenario_message(
        tmp_path, prices.name, prices.read_text(encoding="utf-8"), "price_usd_per_mwh"
    )
    config = write_config(tmp_path, carbon_csv=str(CARBON_CSV), price_csv=prices.name)
    assert plugin_message(em, config) == f"electricitymaps.toml: sources.em_test: {expected}"
    assert "has no UTC offset" in expected


def test_a_price_file_with_a_duplicate_hour_gets_the_scenario_message(em, tmp_path):
    _, prices = copy_sample(tmp_path)
    edit_lines(prices, lambda lines: [*lines[:10], lines[9], *lines[10:]])
    # duplicates are found before values are looked at, so negative prices do not matter here
    expected = scenario_message(
        tmp_path, prices.name, prices.read_text(encoding="utf-8"), "price_usd_per_mwh"
    )
    config = write_config(tmp_path, carbon_csv=str(CARBON_CSV), price_csv=prices.name)
    assert plugin_message(em, config) == f"electricitymaps.toml: sources.em_test: {expected}"


@pytest.mark.parametrize(
    ("header_edit", "column", "hint"),
    [
        (lambda h: h.replace("Datetime (UTC)", "Datetime (local)"), "Datetime (UTC)", ""),
        (
            lambda h: h.replace("(LCA)", "(life cycle)"),
            LCA,
            "it has the direct column: set carbon_basis = 'direct'",
        ),
    ],
)
def test_a_carbon_file_with_wrong_columns_lists_its_columns(em, tmp_path, header_edit, column, hint):
    carbon, _ = copy_sample(tmp_path)
    edit_lines(carbon, lambda lines: [header_edit(lines[0]), *lines[1:]])
    message = plugin_message(em, write_config(tmp_path, carbon_csv=carbon.name, price_usd_per_mwh=1.0))
    assert f"SYNTHETIC_XX_2025_hourly.csv has no column {column!r} (columns: " in message
    assert hint in message


def test_a_price_file_with_wrong_columns_gets_the_scenario_message(em, tmp_path):
    config = write_config(tmp_path, carbon_csv=str(CARBON_CSV), price_csv=str(CARBON_CSV))
    message = plugin_message(em, config)
    expected = scenario_message(
        tmp_path, CARBON_CSV.name, CARBON_CSV.read_text(encoding="utf-8"), "price_usd_per_mwh"
    )
    assert message.endswith(expected) and "has no column 'time'" in expected


def test_a_missing_file_and_a_wrong_zone_are_named(em, tmp_path):
    message = plugin_message(
        em, write_config(tmp_path, carbon_csv="DE_2024_hourly.csv", price_usd_per_mwh=1.0)
    )
    assert message == "electricitymaps.toml: sources.em_test: file DE_2024_hourly.csv does not exist"
    zone = write_config(tmp_path, carbon_csv=str(CARBON_CSV), price_usd_per_mwh=1.0, zone="DE")
    assert (
        "SYNTHETIC_XX_2025_hourly.csv:2: Zone Id 'XX', but the source is configured for zone 'DE'"
        in (plugin_message(em, zone))
    )


def test_configuration_problems_are_listed_together(em, tmp_path):
    config = write_config(tmp_path, carbon_basis="both", lat=1.0, colour="red")
    message = plugin_message(em, config)
    for expected in (
        "unknown setting 'colour'",
        "missing 'carbon_csv'",
        "carbon_basis must be 'lifecycle' or 'direct', not 'both'",
        "give either price_csv (hourly prices) or price_usd_per_mwh (a flat price)",
        "give both lat and lon, or neither",
    ):
        assert f"electricitymaps.toml: sources.em_test: {expected}" in message


def test_a_bad_configuration_is_a_plugin_failure_naming_the_plugin(em, tmp_path, monkeypatch):
    config = write_config(tmp_path, carbon_csv="nowhere.csv", price_usd_per_mwh=1.0)
    monkeypatch.setenv(em.CONFIG_ENV, str(config))
    catalog = build_catalog(plugin_host(em))
    (failure,) = catalog.failures
    assert (failure.name, failure.stage) == ("electricitymaps", "register_power_sources")
    assert (
        failure.reason
        == "ConfigError: electricitymaps.toml: sources.em_test: file nowhere.csv does not exist"
    )
