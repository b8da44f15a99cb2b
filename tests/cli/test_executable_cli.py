"""``geomodel report`` says whether a saved plan can be carried out (text and JSON).

The scenario is test_hand_derived.py's two sites with no link between them: cheap
(800 H100 chips) and dear (1,600), a job needing 1,200 chips for its one hour. With
site use relaxed the LP puts 400 chips at cheap and 800 at dear, over no link at all
(derived there); with binary site use all 1,200 run at dear.

``report`` runs in-process through ``main()``: test_run_cli.py runs it through the
console script.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from geomodel.api import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb
from cli_runs import in_process
from test_hand_derived import dci_scenario


@pytest.fixture(scope="module")
def saved(tmp_path_factory, catalog) -> dict[str, Path]:
    """The two plans as result files (solved here: ``report`` is what is tested)."""
    folder = tmp_path_factory.mktemp("executable_cli")
    files = {}
    for name, binary in (("relaxed", False), ("exact", True)):
        scenario = sb.load(folder, dci_scenario(0, participation=binary), catalog)
        files[name] = solve(scenario, catalog=catalog, threads=1).to_netcdf(folder / f"{name}.nc")
    return files


def test_report_names_the_job_sites_and_step_of_a_relaxed_plan(saved):
    done = in_process("report", saved["relaxed"])
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "Relaxed plan (solver.participation: relaxed): not executable" in text
    assert "synchronous job pretrain runs at cheap, dear in step 0" in text
    assert "no link joins cheap-dear" in text


def test_report_json_lists_every_finding_and_the_gap(saved):
    relaxed_run = json.loads(in_process("report", saved["relaxed"], "--json").stdout)
    relaxed = relaxed_run["executable"]
    assert relaxed["relaxed"] and not relaxed["executable"]
    assert [(f["rule"], f["job"], f["sites"], f["step"]) for f in relaxed["findings"]] == [
        ("unlinked_sites", "pretrain", ["cheap", "dear"], 0)
    ]
    exact_run = json.loads(in_process("report", saved["exact"], "--json").stdout)
    exact = exact_run["executable"]
    assert exact["executable"] and exact["findings"] == [] and exact["participation"] == "exact"
    # the relaxed run is an LP with nothing else integer: its optimum is the relaxation
    bound = relaxed_run["kpis"]["objective"]
    assert exact["relaxation_objective_usd"] == pytest.approx(bound, rel=1e-9)
    objective = exact_run["kpis"]["objective"]
    assert objective > bound
    assert exact["relaxation_gap"] == pytest.approx((objective - bound) / objective, rel=1e-9)


def test_report_says_an_exact_plan_is_executable(saved):
    done = in_process("report", saved["exact"])
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "Executable plan (exact," in text and "above the LP relaxation" in text
