"""Job tables: CSV and Parquet rows become training jobs; every problem names file, rows, column.

Expected figures are worked out by hand from docs/scenarios.md ("Job tables"):
GPU-hours convert through the system's dense peak and the job's MFU
(W = GPU-h x PFLOPS x MFU x 3.6 EFLOP per PFLOPS-hour), the HGX H100's dense
BF16 peak being 0.989 PFLOPS per chip (catalogue input).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel.scenario.jobtable import MAX_RUNS, row_runs

from .conftest import BASE, load, problems, write

H100_BF16 = 0.989

#: BASE with a job table and no YAML job (ERCOT-free European sites, 24 h from midnight UTC)
TABLE = BASE.replace(
    """training:
  pretrain:
    compute: 1e21 FLOP
    gradient_size: 14 GB
    tp: 8
""",
    """job_tables:
  trace: {file: jobs.csv, system: hgx_h100_8}
""",
)


def write_rows(folder, rows: str, name: str = "jobs.csv") -> None:
    write(folder, name, rows)


def table_jobs(scenario):
    return scenario.origin.job_tables["trace"]


def test_units_people_use_become_eflop_and_hours(tmp_path, catalog):
    write_rows(
        tmp_path,
        "name,arrival,deadline_h,gpu_hours,duration_h,chips,chip_hours,flop,mfu,origin,data_gb\n"
        "a,2025-01-01T02:00:00+01:00,10,100,,8,,,,fra,50\n"
        "b,,,,2.5,16,,,0.5,,\n"
        "c,,,,,,40,,,,\n"
        "d,,,,,,,2e21,,,\n",
    )
    jobs = table_jobs(load(tmp_path, TABLE, catalog))
    assert list(jobs.name) == ["a", "b", "c", "d"]
    # a: 100 GPU-h x 0.989 PFLOPS x 0.4 (table default MFU) x 3.6 = 142.416 EFLOP
    # b: 2.5 h x 16 chips = 40 GPU-h x 0.989 x 0.5 x 3.6 = 71.208 EFLOP
    # c: 40 chip-hours on any system, at the table system's peak: 40 x 0.989 x 0.4 x 3.6
    # d: 2e21 FLOP = 2000 EFLOP
    expected = [
        100 * H100_BF16 * 0.4 * 3.6,
        40 * H100_BF16 * 0.5 * 3.6,
        40 * H100_BF16 * 0.4 * 3.6,
        2000,
    ]
    assert jobs.work_eflop == pytest.approx(expected)
    assert list(jobs.uniform_rate) == [False, False, True, False]
    # a arrives at 01:00 UTC (02:00+01:00), deadline 10 h after the horizon's start
    assert jobs.start_h[0] == pytest.approx(1.0) and jobs.end_h[0] == pytest.approx(10.0)
    # no arrival: the horizon's start; no deadline or slack: its end (24 h)
    assert jobs.start_h[1:] == pytest.approx([0, 0, 0]) and jobs.end_h[1:] == pytest.approx([24] * 3)
    assert jobs.max_chips[:2] == pytest.approx([8, 16])
    assert np.isnan(jobs.max_chips[2:]).all()  # every installed chip
    assert jobs.origin[0] == 0 and jobs.data_gb[0] == 50  # fra is site 0
    assert not jobs.goodput_modelled.any()  # a trace's work includes its failures


def test_a_slack_sets_the_deadline_after_the_earliest_finish_widened_to_whole_steps(tmp_path, catalog):
    write_rows(
        tmp_path,
        "name,arrival_h,gpu_hours,chips,slack_h\n"
        "a,1.5,20,8,3\n"  # runs 20 / 8 = 2.5 h: earliest finish 4.0, + 3 h slack = 7.0
        "b,1.25,20,8,\n",  # the table's slack (2 h): 1.25 + 2.5 + 2 = 5.75 -> widened to 6
    )
    text = TABLE.replace("system: hgx_h100_8}", "system: hgx_h100_8, slack: 2 h}")
    jobs = table_jobs(load(tmp_path, text, catalog))
    # windows widen to whole steps: arrival 1.5 -> 1, 1.25 -> 1
    assert jobs.start_h == pytest.approx([1.0, 1.0])
    assert jobs.end_h == pytest.approx([7.0, 6.0])


def test_parquet_reads_like_csv(tmp_path, catalog):
    frame = pd.DataFrame(
        {
            "name": ["a", "b"],
            "arrival": pd.to_datetime(["2025-01-01T03:00:00Z", "2025-01-01T05:00:00Z"]),
            "gpu_hours": [100.0, 50.0],
            "chips": [8, 8],
            "sites": ["fra", "fra;ams"],
        }
    )
    frame.to_parquet(tmp_path / "jobs.parquet", engine="pyarrow")
    text = TABLE.replace("file: jobs.csv", "file: jobs.parquet")
    jobs = table_jobs(load(tmp_path, text, catalog))
    assert list(jobs.name) == ["a", "b"]
    assert jobs.start_h == pytest.approx([3.0, 5.0])
    assert jobs.work_eflop == pytest.approx([100 * H100_BF16 * 0.4 * 3.6, 50 * H100_BF16 * 0.4 * 3.6])
    assert jobs.allowed.tolist() == [[True, False], [True, True]]


def test_every_problem_names_the_file_rows_and_column_all_at_once(tmp_path, catalog):
    write_rows(
        tmp_path,
        "name,arrival,gpu_hours,chips,max_chips,system,origin,deadline_h\n"
        "ok,,10,8,,,,\n"  # line 2
        "bad name,,10,8,,,,\n"  # line 3: a space
        "x1,2025-01-01T01:00:00,10,8,,,,\n"  # line 4: no UTC offset
        "x2,,-5,8,,,,\n"  # line 5: negative work
        "x3,,10,8,16,,,\n"  # line 6: chips and max_chips
        "x4,,10,8,,h200_typo,,\n"  # line 7: unknown system
        "x5,,10,8,,,nowhere,\n"  # line 8: unknown origin
        "ok,,10,8,,,,\n"  # line 9: name repeats line 2
        "x6,,,8,,,,\n"  # line 10: no work
        "x7,,10,2.5,,,,\n"  # line 11: chips not whole
        "x8,,10,8,,,,-3\n",  # line 12: deadline before arrival
    )
    found = problems(tmp_path, TABLE, catalog)
    text = "\n".join(map(str, found))
    file = str(tmp_path / "jobs.csv")
    expected = [
        (3, "row 2, column name"),
        (4, "row 3, column arrival: needs a UTC offset"),
        (5, "row 4, column gpu_hours: must be greater than 0"),
        (6, "row 5, column max_chips: give 'chips' or 'max_chips', not both"),
        (7, "row 6, column system: unknown hardware system 'h200_typo'"),
        (8, "row 7, column origin: unknown site 'nowhere'"),
        (2, "rows 1, 8, column name: job name 'ok' repeats"),
        (10, "row 9: no work"),
        (11, "row 10, column chips: must be a whole number"),
        (12, "row 11, column deadline_h: must be after the arrival (got '-3 h vs arrival at the"),
    ]
    for line, phrase in expected:
        assert f"{file}:{line}: job_tables.trace: {phrase}" in text, text
    # one line per problem, nothing else (row 11 is also wholly before the horizon: a warning)
    assert sum(p.severity == "error" for p in found) == len(expected), text


def test_rows_with_the_same_problem_share_one_line(tmp_path, catalog):
    rows = "".join(f"j{i},{-1 if i % 3 == 0 else 1},8\n" for i in range(1, 301))
    write_rows(tmp_path, "name,gpu_hours,chips\n" + rows)
    found = problems(tmp_path, TABLE, catalog)
    assert len(found) == 1, found
    # rows 3, 6, ..., 300: 100 rows, each its own run; the first MAX_RUNS are named
    message = found[0].message
    assert message.startswith("rows 3, 6, 9, ")
    assert f"and {100 - MAX_RUNS} more (100 rows in all)" in message
    assert found[0].position.line == 4  # row 3 is line 4 (the header is line 1)


def test_row_runs_names_ranges():
    assert row_runs(np.array([7])) == "row 7"
    assert row_runs(np.array([1, 2, 3, 7, 9, 10])) == "rows 1-3, 7, 9-10"
    many = np.arange(1, 2 * (MAX_RUNS + 5), 2)  # MAX_RUNS + 5 separate rows
    assert row_runs(many).endswith("and 5 more (45 rows in all)")


def test_a_file_without_name_or_work_columns_says_so(tmp_path, catalog):
    write_rows(tmp_path, "job,gpus\na,8\n")
    text = "\n".join(map(str, problems(tmp_path, TABLE, catalog)))
    assert "has no 'name' column" in text
    assert "has no work column: give one of gpu_hours, duration_h, chip_hours, flop" in text


def test_a_trace_with_its_own_headers_maps_them(tmp_path, catalog):
    write_rows(tmp_path, "job_id,gpu_num,gpu_time\nj1,8,80\n")
    text = TABLE.replace(
        "system: hgx_h100_8}",
        "system: hgx_h100_8, columns: {name: job_id, chips: gpu_num, gpu_hours: gpu_time}}",
    )
    jobs = table_jobs(load(tmp_path, text, catalog))
    assert list(jobs.name) == ["j1"] and jobs.max_chips[0] == 8
    bad = TABLE.replace("system: hgx_h100_8}", "system: hgx_h100_8, columns: {gpus: gpu_num, name: id}}")
    found = "\n".join(map(str, problems(tmp_path, bad, catalog)))
    assert "job_tables.trace.columns.gpus: unknown standard column" in found
    assert "job_tables.trace.columns.name:" in found and "has no column 'id'" in found


def test_a_missing_file_and_an_unknown_format_are_problems(tmp_path, catalog):
    found = problems(tmp_path, TABLE, catalog)
    assert [str(p.message) for p in found] == ["file jobs.csv does not exist"]
    write_rows(tmp_path, "x", name="jobs.txt")
    found = problems(tmp_path, TABLE.replace("jobs.csv", "jobs.txt"), catalog)
    assert "unknown table type .txt" in found[0].message


def test_rows_outside_the_horizon_are_left_out_with_a_warning(tmp_path, catalog):
    write_rows(tmp_path, "name,arrival_h,deadline_h,gpu_hours,chips\nin,1,5,8,8\nlate,30,40,8,8\n")
    scenario = load(tmp_path, TABLE, catalog)
    assert list(table_jobs(scenario).name) == ["in"]
    warnings = [str(w) for w in scenario.origin.warnings]
    assert any("row 2: lies wholly outside the horizon of 24 h; left out" in w for w in warnings), (
        warnings
    )


@pytest.mark.parametrize(
    ("header", "late"), [("arrival_h", "30"), ("arrival", "2025-01-03T00:00:00+00:00")]
)
def test_a_row_arriving_after_the_horizon_with_no_deadline_is_left_out_with_a_warning(
    tmp_path, catalog, header, late
):
    # issue 24, item 10: no deadline, no slack: the window ends with the horizon (24 h),
    # so a row arriving at 30 h (or on 3 January) lies outside it; left out, not an error
    write_rows(tmp_path, f"name,{header},gpu_hours,chips\nin,,8,8\nlate,{late},8,8\n")
    scenario = load(tmp_path, TABLE, catalog)
    assert list(table_jobs(scenario).name) == ["in"]
    warnings = [str(w) for w in scenario.origin.warnings]
    assert any("row 2: lies wholly outside the horizon of 24 h; left out" in w for w in warnings)


def test_a_deadline_before_the_arrival_is_quoted_as_the_file_writes_both(tmp_path, catalog):
    # issue 24, item 15: the dates, not hours after the start ("got 5.0")
    write_rows(
        tmp_path,
        "name,arrival,deadline,gpu_hours,chips\n"
        "early,2025-01-01T06:00:00+00:00,2025-01-01T05:00:00+00:00,8,8\n"
        "ok,2025-01-01T06:00:00+00:00,2025-01-01T02:00:00-05:00,8,8\n",  # 07:00 UTC
    )
    (problem,) = problems(tmp_path, TABLE, catalog)
    assert str(problem).endswith(
        "row 1, column deadline: must be after the arrival "
        "(got '2025-01-01T05:00:00+00:00 vs arrival 2025-01-01T06:00:00+00:00')"
    )


def test_a_table_with_only_a_header_is_a_named_warning(tmp_path, catalog):
    # issue 24, item 14: a header-only table (0 jobs) passed silently
    write_rows(tmp_path, "name,gpu_hours,chips\n")
    scenario = load(tmp_path, TABLE, catalog)
    assert len(table_jobs(scenario)) == 0
    assert [str(w) for w in scenario.origin.warnings] == [
        f"{tmp_path / 'jobs.csv'}: warning: job_tables.trace: {tmp_path / 'jobs.csv'} has no rows, "
        "only a header: the table adds no job"
    ]


def test_a_semicolon_separated_table_is_read_and_said_to_be(tmp_path, catalog):
    # issue 24, item 15: was "has no 'name' column" (the header was one field)
    write_rows(tmp_path, "name;gpu_hours;chips\na;100;8\n")
    scenario = load(tmp_path, TABLE, catalog)
    assert list(table_jobs(scenario).name) == ["a"]
    assert table_jobs(scenario).work_eflop == pytest.approx([100 * H100_BF16 * 0.4 * 3.6])
    (warning,) = [str(w) for w in scenario.origin.warnings]
    assert warning.endswith("jobs.csv separates its fields by ';', not commas; read that way")


def test_names_are_unique_across_the_scenario(tmp_path, catalog):
    write_rows(tmp_path, "name,gpu_hours,chips\nchat,8,8\n")
    found = "\n".join(map(str, problems(tmp_path, TABLE, catalog)))
    assert "row 1, column name: already names a job or service (inference)" in found


def test_stay_at_origin_allows_only_the_origin(tmp_path, catalog):
    write_rows(tmp_path, "name,gpu_hours,chips,origin\na,8,8,ams\nb,8,8,\n")
    text = TABLE.replace("system: hgx_h100_8}", "system: hgx_h100_8, stay_at_origin: true}")
    found = "\n".join(map(str, problems(tmp_path, text, catalog)))
    assert "row 2, column origin: stay_at_origin needs each job's 'origin'" in found
    write_rows(tmp_path, "name,gpu_hours,chips,origin\na,8,8,ams\n")
    jobs = table_jobs(load(tmp_path, text, catalog))
    assert jobs.allowed.tolist() == [[False, True]]  # sites fra, ams


def test_table_files_count_in_the_scenario_hash(tmp_path, catalog):
    write_rows(tmp_path, "name,gpu_hours,chips\na,8,8\n")
    first = load(tmp_path, TABLE, catalog).origin.scenario_hash
    write_rows(tmp_path, "name,gpu_hours,chips\na,9,8\n")
    assert load(tmp_path, TABLE, catalog).origin.scenario_hash != first


def test_every_column_is_documented_as_the_reader_knows_it():
    """docs/scenarios.md's column table is COLUMNS, row for row."""
    from pathlib import Path

    from geomodel.scenario.jobtable import COLUMNS

    doc = (Path(__file__).parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    block = doc.split("<!-- job-table columns: geomodel.scenario.jobtable.COLUMNS -->")[1]
    block = block.split("<!-- job-table columns: end -->")[0]
    rows = [line.strip("|").split("|") for line in block.strip().splitlines()[2:]]
    documented = {cells[0].strip().strip("`"): (cells[1].strip(), cells[2].strip()) for cells in rows}
    assert documented == COLUMNS
