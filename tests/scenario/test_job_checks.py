"""Checks of training jobs on whole columns: gradients only when needed, work that fits.

BASE (conftest) has two sites and no links; its fra site has 100 HGX H100 servers
(800 chips) at availability 0.97. An H100 chip at MFU 0.4 does 0.989 PFLOPS x 0.4 x
3.6 = 1.42416 EFLOP per hour (docs/model.md (1)).
"""

from __future__ import annotations

import pytest

from .conftest import BASE, load, problems, write

PER_CHIP_HOUR = 0.989 * 0.4 * 3.6

#: a job of exactly 8 chips x 4 h of work on H100s, its window 4 h long
EXACT_JOB = """training:
  pretrain:
    gpu_hours: 32
    system: hgx_h100_8
    max_chips: 8
    tp: 8
    sites: [fra]
    window: {end: 2025-01-01T04:00:00+00:00}
"""


def with_job(job: str) -> str:
    start = BASE.index("training:")
    end = BASE.index("inference:")
    return BASE[:start] + job + BASE[end:]


def warnings_of(scenario) -> list[str]:
    return [str(w) for w in scenario.origin.warnings]


def test_gradient_size_is_needed_only_when_the_job_may_span_linked_sites(tmp_path, catalog):
    no_gradient = BASE.replace("    gradient_size: 14 GB\n", "")
    load(tmp_path, no_gradient, catalog)  # no links: nothing to exchange between sites
    linked = no_gradient + "links:\n  mesh: {technology: smf_800zr}\n"
    found = problems(tmp_path, linked, catalog)
    assert [p.path for p in found if p.severity == "error"] == ["training.pretrain.gradient_size"]
    assert "may span sites joined by a link" in found[0].message
    # a job kept to one site never spans: no gradient needed even with the mesh
    load(tmp_path, linked.replace("    tp: 8\n", "    tp: 8\n    sites: [fra]\n", 1), catalog)


def test_work_that_fills_its_window_exactly_is_warned_when_the_default_restart_makes_it_late(
    tmp_path, catalog
):
    scenario = load(tmp_path, with_job(EXACT_JOB), catalog)
    found = warnings_of(scenario)
    assert len(found) == 1, found
    # 8 chips x 4 h x 1.42416 = 45.57 EFLOP at goodput 1, exactly the work; the goodput
    # factor (< 1) of the default 10-minute restart leaves less
    assert "training.pretrain.restart: cannot deliver its work in its window once failures" in found[0]
    assert "restart 10 min (default)" in found[0]
    assert f"of the {8 * 4 * PER_CHIP_HOUR:,.4g} EFLOP" in found[0]
    instant = EXACT_JOB.replace("    tp: 8\n", "    tp: 8\n    restart: 0 min\n")
    assert warnings_of(load(tmp_path, with_job(instant), catalog)) == []  # goodput exactly 1


def test_work_beyond_the_window_is_warned_with_its_figures(tmp_path, catalog):
    job = EXACT_JOB.replace("gpu_hours: 32", "gpu_hours: 40").replace(
        "    tp: 8\n", "    tp: 8\n    restart: 0 min\n"
    )
    found = warnings_of(load(tmp_path, with_job(job), catalog))
    # goodput 1 (instant restart): 8 chips x 4 h x 1.42416 = 45.57 EFLOP of
    # 40 x 1.42416 = 56.97 EFLOP, in whole EFLOP as the run's precheck says them
    assert len(found) == 1
    assert "training.pretrain.window: cannot deliver its work in its window" in found[0]
    assert (
        f"at most 8 chips for 4 h give at most {32 * PER_CHIP_HOUR:,.0f} of the "
        f"{40 * PER_CHIP_HOUR:,.0f} EFLOP it needs (MFU and goodput applied)" in found[0]
    )


def test_min_chips_that_would_overdo_the_work_is_warned(tmp_path, catalog):
    job = EXACT_JOB.replace("gpu_hours: 32", "gpu_hours: 16").replace(
        "max_chips: 8", "max_chips: 8\n    min_chips: 8\n    restart: 0 min"
    )
    found = warnings_of(load(tmp_path, with_job(job), catalog))
    # 8 chips kept for 4 h do 32 chip-hours of work; the job needs 16
    assert len(found) == 1 and "training.pretrain.min_chips: keeping min_chips" in found[0]


def test_table_rows_share_one_warning_with_the_figures_of_the_first(tmp_path, catalog):
    write(
        tmp_path,
        "jobs.csv",
        "name,gpu_hours,chips,deadline_h,sites\nok,32,8,4,fra\nlate1,40,8,4,fra\nlate2,50,8,4,fra\n",
    )
    text = with_job("job_tables:\n  trace: {file: jobs.csv, system: hgx_h100_8}\n")
    found = warnings_of(load(tmp_path, text, catalog))
    assert len(found) == 1, found
    assert (
        "jobs.csv:3: warning: job_tables.trace: rows 2-3: cannot deliver its work in its window"
        in found[0]
    )
    assert "first, job late1: at most 8 chips for 4 h" in found[0]


def test_a_table_job_whose_group_fits_no_domain_is_an_error(tmp_path, catalog):
    write(tmp_path, "jobs.csv", "name,gpu_hours,chips,tp,sites\nbig,32,128,128,fra\n")
    text = with_job("job_tables:\n  trace: {file: jobs.csv, system: hgx_h100_8}\n")
    found = [p for p in problems(tmp_path, text, catalog) if p.severity == "error"]
    assert len(found) == 1
    assert "row 1, column tp: the TP x EP group fits the scale-up domain of no installed system" in str(
        found[0]
    )


@pytest.mark.parametrize("field", ["system", "origin"])
def test_a_yaml_job_naming_an_unknown_system_or_origin(tmp_path, catalog, field):
    job = EXACT_JOB + ("    origin: nowhere\n" if field == "origin" else "")
    if field == "system":
        job = job.replace("system: hgx_h100_8", "system: hgx_h1OO_8")
    found = [p for p in problems(tmp_path, with_job(job), catalog) if p.severity == "error"]
    assert [p.path for p in found] == [f"training.pretrain.{field}"]


def test_the_data_movement_delay_needs_plain_steps(tmp_path, catalog):
    text = BASE.replace("  hours: 24\n", "  hours: 48\n  aggregation: {typical_days: 1}\n")
    text += "data_movement: {delay: true}\n"
    found = [p for p in problems(tmp_path, text, catalog) if p.severity == "error"]
    assert [p.path for p in found] == ["data_movement.delay"]
