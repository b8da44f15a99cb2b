"""Hourly series: daily shapes in local solar time, and CSV files checked row by row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel.scenario.timeseries import daily_shape_series, local_solar_hour

from .conftest import BASE, errors, line_of, load, write

HOURS = pd.date_range("2025-01-01T00:00:00+00:00", periods=24, freq="1h")


def hourly_csv(values, start="2025-01-01T00:00:00+00:00", column="value") -> str:
    times = pd.date_range(start, periods=len(values), freq="1h")
    rows = [f"{t.isoformat()},{v}" for t, v in zip(times, values, strict=True)]
    return "\n".join([f"time,{column}", *rows]) + "\n"


def test_local_solar_hour_follows_longitude():
    # 15 degrees of longitude are one hour; New York (-74.01) is 4.93 h behind UTC.
    assert local_solar_hour(HOURS[:1], 0.0).tolist() == [0]
    assert local_solar_hour(HOURS[:1], 2.35).tolist() == [0]  # 00:09 solar time in Paris
    assert local_solar_hour(HOURS[:1], 15.0).tolist() == [1]
    assert local_solar_hour(HOURS[:1], -74.01).tolist() == [19]  # 19:04
    assert local_solar_hour(HOURS[4:6], -74.01).tolist() == [23, 0]  # 23:04, then 00:04
    assert local_solar_hour(HOURS[:1], 116.4).tolist() == [7]  # Beijing, 07:46


def test_a_daily_shape_is_laid_out_in_local_solar_time_and_averages_the_mean():
    shape = [float(h + 1) for h in range(24)]  # hour h of the solar day has weight h + 1
    series = daily_shape_series(shape, 60e6, -74.01, HOURS)
    # Hand derivation: at 05:00 UTC it is 00:04 in New York, the first hour of the
    # shape (weight 1 of a mean weight 12.5); at 04:00 UTC it is 23:04 (weight 24).
    assert series.iloc[5] == pytest.approx(60e6 * 1 / 12.5)
    assert series.iloc[4] == pytest.approx(60e6 * 24 / 12.5)
    assert series.iloc[0] == pytest.approx(60e6 * 20 / 12.5)  # 19:04
    assert series.mean() == pytest.approx(60e6)  # a whole day averages the mean
    assert series.index.equals(HOURS)


def test_a_daily_shape_in_the_file_becomes_the_demand_series(tmp_path, catalog):
    shape = ", ".join(str(h + 1) for h in range(24))
    text = BASE.replace("chat: 1e6 token/s", f"chat: {{daily_shape: [{shape}], mean: 2e6 token/s}}")
    text = text.replace("lat: 48.86\n    lon: 2.35", "lat: 40.71\n    lon: -74.01")
    text = text.replace("sla: 30 ms", "sla: 300 ms")
    scenario = load(tmp_path, text, catalog)
    series = scenario.origin.demand_series[("paris", "chat")]
    assert series.iloc[5] == pytest.approx(2e6 / 12.5)
    assert series.mean() == pytest.approx(2e6)


def with_demand_csv(csv: str, name: str = "demand.csv") -> str:
    return BASE.replace("chat: 1e6 token/s", f"chat: {{csv: {name}, column: value, scale: 2}}")


def test_a_csv_series_is_read_on_the_horizon_and_scaled(tmp_path, catalog):
    # One row before the horizon, the 24 hours in another UTC offset, one row after.
    values = list(range(26))
    write(tmp_path, "demand.csv", hourly_csv(values, start="2025-01-01T00:00:00+01:00"))
    # 2025-01-01T00:00+01:00 is 23:00 UTC the day before: the first row lies outside.
    scenario = load(tmp_path, with_demand_csv(""), catalog)
    series = scenario.origin.demand_series[("paris", "chat")]
    assert series.tolist() == [2.0 * v for v in range(1, 25)]
    assert scenario.origin.referenced_files == [tmp_path / "demand.csv"]


def test_a_profile_csv_replaces_the_catalogue_profile(tmp_path, catalog):
    write(tmp_path, "cf.csv", hourly_csv([0.5] * 24, column="solar"))
    text = BASE.replace(
        "    jurisdiction: EU\n",
        "    jurisdiction: EU\n    power_sources:\n"
        "      solar_pv: {capacity: 5 MW, profile_csv: cf.csv, profile_column: solar}\n",
        1,
    )
    scenario = load(tmp_path, text, catalog)
    assert scenario.origin.profile_series[("fra", "solar_pv")].tolist() == [0.5] * 24


def csv_problem(tmp_path, catalog, csv_text, *, profile=False):
    """Load the base scenario reading ``csv_text``; return (the one error, the scenario text)."""
    if csv_text is not None:
        write(tmp_path, "series.csv", csv_text)
    if profile:
        text = BASE.replace(
            "    jurisdiction: EU\n",
            "    jurisdiction: EU\n    power_sources:\n"
            "      solar_pv: {capacity: 5 MW, profile_csv: series.csv, profile_column: value}\n",
            1,
        )
    else:
        text = BASE.replace("chat: 1e6 token/s", "chat: {csv: series.csv, column: value}")
    found = errors(tmp_path, text, catalog)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0], text


def assert_points_at_the_reference(problem, tmp_path, text, profile=False):
    needle = "profile_csv:" if profile else "csv: series.csv"
    assert problem.position.file == str(tmp_path / "scenario.yaml")
    assert problem.position.line == line_of(text, needle)
    expected = (
        "sites.fra.power_sources.solar_pv.profile_csv" if profile else "regions.paris.demand.chat.csv"
    )
    assert problem.path == expected


def test_a_missing_csv(tmp_path, catalog):
    problem, text = csv_problem(tmp_path, catalog, None)
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message == "file series.csv does not exist"


def test_an_unreadable_date_names_the_csv_line(tmp_path, catalog):
    csv = hourly_csv([1.0] * 24).replace("2025-01-01T02:00:00+00:00", "Jan 1st 2am")
    problem, text = csv_problem(tmp_path, catalog, csv)
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message.startswith("series.csv:4: unreadable date 'Jan 1st 2am'; use ISO 8601")


def test_a_timestamp_without_utc_offset_is_refused(tmp_path, catalog):
    csv = hourly_csv([1.0] * 24).replace("+00:00", "")
    problem, text = csv_problem(tmp_path, catalog, csv)
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message.startswith(
        "series.csv:2: timestamp '2025-01-01T00:00:00' has no UTC offset; write it as e.g. "
        "2025-01-01T00:00:00+00:00"
    )


def test_gaps_name_the_first_timestamps(tmp_path, catalog):
    values = [1.0] * 24
    values[3] = ""
    values[7] = "n/a"
    values[9] = "inf"
    problem, text = csv_problem(tmp_path, catalog, hourly_csv(values))
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message == (
        "column 'value' of series.csv has empty, non-numeric or infinite values at "
        "2025-01-01 03:00:00+00:00, 2025-01-01 07:00:00+00:00, 2025-01-01 09:00:00+00:00"
    )


def test_duplicate_timestamps_name_both_lines(tmp_path, catalog):
    lines = hourly_csv([1.0] * 24).splitlines()
    lines.insert(6, lines[5])  # file line 7 repeats line 6 (04:00)
    problem, text = csv_problem(tmp_path, catalog, "\n".join(lines) + "\n")
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message == (
        "series.csv:7: duplicate timestamp 2025-01-01 04:00:00+00:00 (also on line 6)"
    )


def test_timestamps_going_backwards_are_refused(tmp_path, catalog):
    lines = hourly_csv([1.0] * 24).splitlines()
    lines[3], lines[4] = lines[4], lines[3]  # 03:00 before 02:00
    problem, text = csv_problem(tmp_path, catalog, "\n".join(lines) + "\n")
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message == (
        "series.csv:5: timestamps go backwards (2025-01-01 02:00:00+00:00 after "
        "2025-01-01 03:00:00+00:00); sort the rows by time"
    )


def test_a_series_not_covering_the_horizon_says_expected_and_got(tmp_path, catalog):
    problem, text = csv_problem(tmp_path, catalog, hourly_csv([1.0] * 20))
    assert_points_at_the_reference(problem, tmp_path, text)
    assert problem.message == (
        "series.csv does not cover the horizon: expected every hour from "
        "2025-01-01 00:00:00+00:00 to 2025-01-01 23:00:00+00:00, got 2025-01-01 00:00:00+00:00 "
        "to 2025-01-01 19:00:00+00:00; first missing hours 2025-01-01 20:00:00+00:00, "
        "2025-01-01 21:00:00+00:00, 2025-01-01 22:00:00+00:00 and 1 more"
    )


def test_rows_between_whole_hours_are_refused(tmp_path, catalog):
    times = pd.date_range("2025-01-01T00:00:00+00:00", periods=48, freq="30min")
    csv = "time,value\n" + "".join(f"{t.isoformat()},1\n" for t in times)
    problem, _ = csv_problem(tmp_path, catalog, csv)
    assert "rows between whole hours, first 2025-01-01 00:30:00+00:00" in problem.message


def test_negative_demand_is_refused(tmp_path, catalog):
    values = [1.0] * 24
    values[2] = -1
    problem, _ = csv_problem(tmp_path, catalog, hourly_csv(values))
    assert "negative values, first at 2025-01-01 02:00:00+00:00" in problem.message


@pytest.mark.parametrize(("peak", "hint"), [(85.0, " (looks like percent: divide by 100)"), (250.0, "")])
def test_capacity_factors_outside_zero_one(tmp_path, catalog, peak, hint):
    values = list(np.linspace(0, peak, 24))
    problem, text = csv_problem(tmp_path, catalog, hourly_csv(values), profile=True)
    assert_points_at_the_reference(problem, tmp_path, text, profile=True)
    assert problem.message == (
        f"capacity factors in 'value' of series.csv must lie in [0, 1], max is {peak:g}{hint}"
    )


def test_a_missing_column_lists_the_columns(tmp_path, catalog):
    problem, _ = csv_problem(tmp_path, catalog, hourly_csv([1.0] * 24, column="other"))
    assert problem.message == "series.csv has no column 'value' (columns: time, other)"


def test_a_binary_file_is_not_read_as_csv(tmp_path, catalog):
    (tmp_path / "series.csv").write_bytes(b"\xff\xfe\x00garbage")
    problem, _ = csv_problem(tmp_path, catalog, None)
    assert problem.message.startswith("series.csv:1: the file is not UTF-8 text: byte 0xff at column 1")


def test_a_csv_that_is_not_utf8_names_its_line_and_column(tmp_path, catalog):
    """Issue 13, item 15: the byte, its line and column, as for a scenario file."""
    csv = hourly_csv([1.0] * 24).replace(
        "2025-01-01T05:00:00+00:00,1.0", "2025-01-01T05:00:00+00:00,1.0 \xe9"
    )
    (tmp_path / "series.csv").write_bytes(csv.encode("latin-1"))
    problem, _ = csv_problem(tmp_path, catalog, None)
    # line 1 is the header, 00:00 is line 2, so 05:00 is line 7; "2025-...+00:00,1.0 " is 30 bytes
    assert problem.message == (
        "series.csv:7: the file is not UTF-8 text: byte 0xe9 at column 31 (invalid continuation "
        "byte); save it as UTF-8"
    )


def test_gap_messages_give_every_time_in_the_scenarios_zone(tmp_path, catalog):
    """Issue 13, item 15: the horizon starts at 00:00+01:00, the file is written in UTC and
    ends 4 hours short; before, 'expected' was in +01:00 and 'got' in UTC."""
    text = BASE.replace("2025-01-01T00:00:00+00:00", "2025-01-01T00:00:00+01:00").replace(
        "chat: 1e6 token/s", "chat: {csv: series.csv, column: value}"
    )
    times = pd.date_range("2024-12-31T23:00:00+00:00", periods=20, freq="1h")
    write(tmp_path, "series.csv", "time,value\n" + "".join(f"{t.isoformat()},1\n" for t in times))
    (problem,) = errors(tmp_path, text, catalog)
    assert problem.message == (
        "series.csv does not cover the horizon: expected every hour from "
        "2025-01-01 00:00:00+01:00 to 2025-01-01 23:00:00+01:00, got 2025-01-01 00:00:00+01:00 "
        "to 2025-01-01 19:00:00+01:00; first missing hours 2025-01-01 20:00:00+01:00, "
        "2025-01-01 21:00:00+01:00, 2025-01-01 22:00:00+01:00 and 1 more"
    )


def test_a_csv_path_escaping_the_scenario_folder_is_refused(tmp_path, catalog):
    write(tmp_path, "outside.csv", hourly_csv([1.0] * 24))
    text = BASE.replace("chat: 1e6 token/s", "chat: {csv: ../outside.csv, column: value}")
    found = errors(tmp_path / "study", text, catalog)
    (problem,) = found
    assert problem.path == "regions.paris.demand.chat.csv"
    assert problem.value == "../outside.csv"
    assert "escapes the scenario's folder" in problem.message
    assert problem.position.line == line_of(text, "../outside.csv")


def test_every_bad_series_of_a_file_is_reported_at_once(tmp_path, catalog):
    write(tmp_path, "short.csv", hourly_csv([1.0] * 3))
    text = BASE.replace("chat: 1e6 token/s", "chat: {csv: short.csv, column: value}")
    text = text.replace(
        "    jurisdiction: EU\n",
        "    jurisdiction: EU\n    power_sources:\n"
        "      solar_pv: {capacity: 5 MW, profile_csv: none.csv, profile_column: value}\n",
        1,
    )
    found = errors(tmp_path, text, catalog)
    assert [p.path for p in found] == [
        "sites.fra.power_sources.solar_pv.profile_csv",
        "regions.paris.demand.chat.csv",
    ]


def test_a_csv_named_in_an_imported_file_is_relative_to_that_file(tmp_path, catalog):
    write(tmp_path, "parts/demand.csv", hourly_csv([7.0] * 24))
    demand = "regions:\n  paris:\n    demand:\n      chat: {csv: demand.csv, column: value}\n"
    write(tmp_path, "parts/regions.yaml", demand)
    text = "import: parts/regions.yaml\n" + BASE.replace("    demand:\n      chat: 1e6 token/s\n", "")
    scenario = load(tmp_path, text, catalog)
    assert scenario.origin.demand_series[("paris", "chat")].tolist() == [7.0] * 24
    assert scenario.origin.referenced_files == [tmp_path / "parts" / "demand.csv"]
