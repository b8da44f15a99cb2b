"""``geomodel run`` and ``geomodel report``.

Every command runs once per module: the plain ``run`` and its ``report`` through the
real console script in a subprocess, as a user would run them; the other cases through
the same ``main()`` in-process (a subprocess costs seconds of imports for the same text)
while the first subprocess runs. ``report`` then reads the files the runs wrote.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb
from cli_runs import in_process, real

from geomodel.results.result import open_result

QUICKSTART = str(Path(__file__).resolve().parents[2] / "scenarios" / "quickstart.yaml")
#: four days as 2 typical days of 6 segments: 12 steps
SEGMENTED = [
    *("--set", "time.hours=96", "--set", "time.aggregation.typical_days=2"),
    *("--set", "time.aggregation.segments=6", "--set", "solver.threads=1"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("run_cli")
    # 100 servers x 8 chips x 2 h x 1.7802 EFLOP/chip-h = 2848 EFLOP at most in the window
    infeasible = sb.scenario(
        {"a": sb.site(systems=100)},
        training={"bigjob": sb.training_job(1e6, window={"end": "2025-01-01T02:00:00+00:00"})},
    )
    sb.write(path, infeasible, "infeasible.yaml")
    (path / "a_file.txt").write_text("not a folder\n")
    return path


@pytest.fixture(scope="module")
def runs(folder: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    others = {
        "set": [
            "run",
            QUICKSTART,
            "--set",
            "objective.carbon_price=100",
            "--json",
            "-o",
            folder / "set.nc",
        ],
        "variant": ["run", QUICKSTART, "--variant", "carbon_price_100", "--json"],
        "pareto": ["run", QUICKSTART, "--pareto", "latency:3", "--json", "-o", folder / "pareto.nc"],
        "infeasible": ["run", folder / "infeasible.yaml", "-o", folder / "infeasible.nc"],
        "missing_folder": ["run", QUICKSTART, "-o", folder / "missing" / "out.nc"],
        "unwritable": ["run", QUICKSTART, "-o", folder / "a_file.txt" / "out.nc"],
        "bad_pareto": ["run", QUICKSTART, "--pareto", "latency:1"],
        "aggregation": ["run", QUICKSTART, *SEGMENTED, "--check-aggregation"],
        "aggregation_json": [
            "run",
            QUICKSTART,
            *SEGMENTED,
            "--check-aggregation",
            "--json",
            "-o",
            folder / "segmented.nc",
        ],
    }
    with ThreadPoolExecutor(max_workers=1) as pool:
        table = pool.submit(real, "run", QUICKSTART, "-o", folder / "out.nc")
        done = {name: in_process(*args) for name, args in others.items()}
        done["table"] = table.result()
        report = pool.submit(real, "report", folder / "out.nc")
        done["report_json"] = in_process("report", folder / "set.nc", "--json")
        done["calendar"] = in_process(
            "report", folder / "segmented.nc", "--calendar", folder / "calendar.nc"
        )
        done["report"] = report.result()
    return done


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stdout + done.stderr, done.stderr


def table(text: str) -> list[str]:
    """The KPI table of a command's output, from its title line to its bottom border."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "quickstart" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("└"))
    return lines[start : end + 1]


def test_run_prints_the_kpi_table_and_writes_the_results(runs, folder):
    done = runs["table"]
    assert done.returncode == 0, done.stderr
    no_traceback(done)
    for word in ("KPI", "energy_mwh", "cost_usd", "objective", "solver_status", "optimal", "MWh"):
        assert word in done.stdout
    assert f"results written to {folder / 'out.nc'}" in done.stdout.replace("\n", "")
    assert (folder / "out.nc").exists()
    # the phases and their times go to stderr, not into the table
    assert "phases:" in done.stderr


def test_an_operational_table_leaves_out_the_planning_kpis(runs):
    """The quickstart builds nothing: capex and fixed O&M would be 0 and a year's total
    its 48 h of energy stretched to a year, so the text table leaves them out; JSON keeps
    them (a planning result shows them: test_planning_cli.py)."""
    shown = "\n".join(table(runs["table"].stdout))
    for name in ("capex_usd_per_year", "total_cost_usd_per_year", "investment_cost_term_usd"):
        assert name not in shown
    assert "cost_usd" in shown and "usd_per_eflop" in shown
    kpis = json.loads(runs["set"].stdout)["kpis"]
    assert kpis["capex_usd_per_year"] == 0


def test_report_prints_the_same_table_as_the_run(runs):
    assert runs["report"].returncode == 0, runs["report"].stderr
    assert table(runs["report"].stdout) == table(runs["table"].stdout)


def test_run_json_and_report_json_give_the_same_kpis(runs):
    assert runs["set"].returncode == 0, runs["set"].stderr
    run = json.loads(runs["set"].stdout)
    report = json.loads(runs["report_json"].stdout)
    assert run["kpis"]["solver_status"] == "optimal"
    assert report["kpis"].keys() == run["kpis"].keys()
    for name, value in run["kpis"].items():
        if isinstance(value, float):
            assert report["kpis"][name] == pytest.approx(value, rel=1e-12, nan_ok=True), name
        else:
            assert report["kpis"][name] == value, name
    assert report["messages"] == run["messages"]


def test_a_variant_and_the_same_set_give_the_same_kpis(runs, folder):
    variant = json.loads(runs["variant"].stdout)["kpis"]
    override = json.loads(runs["set"].stdout)["kpis"]
    plain = open_result(folder / "out.nc").kpis  # the run without a carbon price
    assert variant["objective"] == pytest.approx(override["objective"], rel=1e-9)
    # the carbon term is 100 USD/t x emissions and the objective the sum of its terms
    assert variant["carbon_cost_term_usd"] == pytest.approx(100 * variant["emissions_tco2"], rel=1e-6)
    assert variant["objective"] == pytest.approx(
        variant["energy_cost_term_usd"] + variant["carbon_cost_term_usd"], rel=1e-6
    )
    # a carbon price can only raise the optimum and lower (or keep) the emissions
    assert variant["objective"] >= plain["objective"]
    assert variant["emissions_tco2"] <= plain["emissions_tco2"] * (1 + 1e-9)


def test_pareto_writes_a_pareto_dimension(runs, folder):
    done = runs["pareto"]
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["pareto"] == "latency"
    assert len(payload["points"]) == 3
    with xr.open_dataset(folder / "pareto.nc", engine="h5netcdf") as front:
        assert front.sizes["pareto"] == 3
        epsilon = front["epsilon"].values
        latency = front["kpi_latency_ms_mean"].values
        objective = front["kpi_objective"].values
        assert front.attrs["pareto_term"] == "latency"
        assert "training_chips" in front and "pareto" in front["training_chips"].dims
    # bounds from tight to loose; each point's mean latency within its bound; the
    # objective can only fall as the bound loosens
    assert list(epsilon) == sorted(epsilon)
    assert all(lat <= eps * (1 + 1e-6) for lat, eps in zip(latency, epsilon, strict=True))
    assert all(a >= b * (1 - 1e-9) for a, b in itertools.pairwise(objective))


def test_an_infeasible_scenario_exits_1_without_a_traceback(runs):
    done = runs["infeasible"]
    no_traceback(done)
    assert "infeasible" in done.stdout
    assert done.returncode == 1, done.stdout


def test_an_infeasible_scenario_names_the_job_that_cannot_fit(runs):
    done = runs["infeasible"]
    assert "bigjob" in done.stdout + done.stderr, done.stdout


def test_an_infeasible_run_still_writes_a_result_record(runs, folder):
    assert (folder / "infeasible.nc").exists(), runs["infeasible"].stdout
    record = open_result(folder / "infeasible.nc")
    assert record.status == "infeasible"
    assert any("no solution" in m for m in record.messages)


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("missing_folder", "does not exist"),
        ("unwritable", "cannot write"),
        ("bad_pareto", "latency:N or carbon:N"),
    ],
)
def test_bad_output_or_options_exit_2_in_one_line(runs, case, words):
    done = runs[case]
    no_traceback(done)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr
    assert done.stderr.startswith("Error:")


def test_check_aggregation_compares_every_kpi_and_names_the_worst(runs, folder):
    done = runs["aggregation_json"]
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    errors = {row["kpi"]: row["relative_error"] for row in payload["kpis"]}
    assert {"energy_mwh", "cost_usd", "emissions_tco2", "objective"} <= errors.keys()
    for row in payload["kpis"]:
        if row["relative_error"] is not None and row["kpi"] != "unserved_fraction":
            expected = abs(row["aggregated"] - row["full"]) / abs(row["full"])
            assert row["relative_error"] == pytest.approx(expected), row
    worst = max((e, k) for k, e in errors.items() if e is not None)
    assert payload["worst_kpi"] == worst[1]
    assert payload["worst_relative_error"] == pytest.approx(worst[0])
    # the aggregated result is written: 12 model steps standing for the 96 hours
    inputs = open_result(folder / "segmented.nc").inputs
    assert inputs.sizes["time"] == 12
    assert float((inputs["weight"] * inputs["dt_hours"]).sum()) == pytest.approx(96)
    assert inputs.sizes["hour"] == 96
    # the table says the same in words
    text = runs["aggregation"].stdout
    assert runs["aggregation"].returncode == 0, runs["aggregation"].stderr
    no_traceback(runs["aggregation"])
    assert "typical days" in text and "hour by hour" in text
    assert f"worst error: {worst[0]:.2%} ({worst[1]})" in " ".join(text.split())


def test_report_writes_typical_day_results_on_every_hour(runs, folder):
    done = runs["calendar"]
    assert done.returncode == 0, done.stderr
    assert f"results on every hour written to {folder / 'calendar.nc'}" in " ".join(done.stdout.split())
    result = open_result(folder / "segmented.nc")
    calendar = xr.load_dataset(folder / "calendar.nc", engine="h5netcdf")
    assert calendar.sizes["time"] == 96
    np.testing.assert_array_equal(calendar["time"].values, result.inputs["hour"].values)
    # each hour carries its step's power; hour by hour the energy adds up to the KPI
    step = result.inputs["step_of_hour"].values
    np.testing.assert_allclose(
        calendar["facility_power_mw"].values, result.dataset["facility_power_mw"].isel(time=step).values
    )
    assert float(calendar["energy_mwh"].sum()) == pytest.approx(result.kpis["energy_mwh"])
