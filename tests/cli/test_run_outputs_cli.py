"""What `run` and `report` show and write (issue 13, items 7-12), through the console script.

The commands run once per module, in stages where a later command reads what an earlier
one wrote: the solved run and its report through the console script in subprocesses (as a
user meets them), the rest through ``geomodel.cli.main`` in this process meanwhile (the
same code and exit codes without ~2-3 s of interpreter start and imports each).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cli_runs import in_process
from quickstart_copy import QUICKSTART, copy_quickstart

from geomodel.results.result import open_result

GEOMODEL = Path(sys.executable).with_name("geomodel")
#: the issue's case: 2e27 FLOP in the quickstart's 48 hours
TOO_MUCH_WORK = ["--set", "training.pretrain.compute=2e27 FLOP"]
#: two typical days of six segments, for --check-aggregation
SEGMENTED = ["--set", "time.hours=96", "--set", "time.aggregation.typical_days=2"]


#: the commands run through the console script; the others through geomodel.cli.main
REAL = {"solved", "report"}


def run_cli(args: list) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(GEOMODEL), *map(str, args)], capture_output=True, text=True, timeout=240, check=False
    )


def in_stages(*stages: dict[str, list]) -> dict[str, subprocess.CompletedProcess[str]]:
    done: dict[str, subprocess.CompletedProcess[str]] = {}
    for stage in stages:
        with ThreadPoolExecutor(max_workers=2) as pool:
            real = {name: pool.submit(run_cli, args) for name, args in stage.items() if name in REAL}
            done.update({name: in_process(*args) for name, args in stage.items() if name not in REAL})
            done.update({name: future.result() for name, future in real.items()})
    return done


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("run_outputs")
    copy_quickstart(path, "scenario.yaml")
    return path


@pytest.fixture(scope="module")
def runs(folder: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    q = folder / "scenario.yaml"
    first = {
        "solved": ["run", q, "--json", "-o", folder / "out.nc"],
        "onto_scenario": ["run", q, "-o", q],
        "pareto": ["run", q, "--pareto", "latency:3", "-o", folder / "front.nc"],
        "infeasible_pareto": ["run", q, *TOO_MUCH_WORK, "--pareto", "latency:3"],
        "infeasible_aggregation": ["run", q, *TOO_MUCH_WORK, *SEGMENTED, "--check-aggregation"],
        "overloaded": ["run", q, "--set", "regions.dallas.demand.chat.scale=2000", "--json"],
    }
    second = {
        "onto_solved": ["run", q, *TOO_MUCH_WORK, "-o", folder / "out.nc"],
        "report": ["report", folder / "out.nc"],
        "report_front": ["report", folder / "front.nc"],
        "report_front_json": ["report", folder / "front.nc", "--json"],
        "report_scenario": ["report", q],
    }
    done = in_stages(first, second)
    shutil.copy(folder / "out.nc", folder / "forced.nc")
    done.update(in_stages({"forced": ["run", q, *TOO_MUCH_WORK, "-o", folder / "forced.nc", "--force"]}))
    return done


# --- item 7: a Pareto front is one table ------------------------------------------------------


def test_run_pareto_prints_one_front_table_not_a_table_per_point(runs):
    done = runs["pareto"]
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Pareto front of cost against latency" in out
    assert out.count("┃ KPI") == 0  # no KPI table per point
    rows = [line for line in out.splitlines() if line.startswith("│ ") and "optimal" in line]
    assert [row.split("│")[1].strip() for row in rows] == ["1", "2", "3"]


def test_report_of_a_front_gives_the_table_in_text_and_json(runs):
    assert runs["report_front"].returncode == 0, runs["report_front"].stderr
    assert "Pareto front of cost against latency" in runs["report_front"].stdout
    payload = json.loads(runs["report_front_json"].stdout)
    assert payload["pareto"] == "latency"
    front = payload["front"]
    assert [row["role"] for row in front] == ["least latency", "bounded", "weighted optimum"]
    for row in front:
        assert {"cost_usd", "emissions_tco2", "latency_ms_mean", "latency_ms_p95"} <= row.keys()
        assert row["latency_ms_mean"] <= row["bound"] * (1 + 1e-6)
    # the cost falls as the latency bound loosens; kpis are the weighted optimum's
    costs = [row["cost_usd"] for row in front]
    assert costs == sorted(costs, reverse=True)
    assert payload["kpis"]["cost_usd"] == front[-1]["cost_usd"]


# --- item 8: -o never destroys a file ---------------------------------------------------------


def test_run_refuses_to_overwrite_the_scenario(runs, folder):
    done = runs["onto_scenario"]
    assert done.returncode == 2
    assert "exists and is not a file geomodel wrote" in done.stderr
    assert "a text file (a scenario YAML?)" in done.stderr
    assert (folder / "scenario.yaml").read_bytes() == QUICKSTART.read_bytes()


def test_an_infeasible_run_keeps_a_solved_result_unless_forced(runs, folder):
    kept = runs["onto_solved"]
    assert kept.returncode == 1
    assert "it holds a solved result (optimal)" in " ".join(kept.stdout.split())
    assert open_result(folder / "out.nc").status == "optimal"
    forced = runs["forced"]
    assert forced.returncode == 1
    assert open_result(folder / "forced.nc").status == "infeasible"
    # writes go through a temporary file: none is left behind
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# --- item 9: report on a file that is not a result ---------------------------------------------


def test_report_on_a_scenario_says_it_is_not_a_result(runs, folder):
    done = runs["report_scenario"]
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"Error: {folder / 'scenario.yaml'} is not a geomodel result file: "
        "a text file (a scenario YAML?), not NetCDF-4"
    )


# --- item 10: where the work ran ---------------------------------------------------------------


def test_run_and_report_say_where_each_workload_ran(runs):
    payload = json.loads(runs["solved"].stdout)
    placement = payload["placement"]
    assert {row["workload"] for row in placement} == {"pretrain", "chat"}
    for workload in ("pretrain", "chat"):
        shares = [row["share"] for row in placement if row["workload"] == workload]
        assert sum(shares) == pytest.approx(1.0, rel=1e-9)  # work done, or demand (incl. unserved)
    assert all(row["site"] in {"abilene", "council_bluffs", "ashburn"} for row in placement)
    text = runs["report"].stdout
    assert "Where the work ran" in text
    assert "pretrain" in text and "energy (MWh)" in text


# --- item 11: every infeasible run exits 1 ------------------------------------------------------


@pytest.mark.parametrize("case", ["infeasible_pareto", "infeasible_aggregation", "onto_solved"])
def test_every_infeasible_run_exits_1_and_says_why(runs, case):
    done = runs[case]
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "training job 'pretrain' needs 2,000,000,000 EFLOP" in " ".join(done.stdout.split())


# --- item 12: run shows the warnings validate gives --------------------------------------------


def test_run_shows_validates_warnings_before_solving(runs):
    done = runs["overloaded"]
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    warned = [w for w in payload["warnings"] if "inference demand needs up to" in w]
    assert warned, payload["warnings"]
    assert any(line.startswith(warned[0][:40]) for line in done.stderr.splitlines())
    assert payload["kpis"]["unserved_fraction"] > 0.5
