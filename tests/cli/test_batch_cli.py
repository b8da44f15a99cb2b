"""`geomodel batch` and `geomodel report OUTDIR` as a user meets them.

One sweep of five cases runs once through the real console script on a
LocalCluster (the module's one subprocess): a good case, a case identical to it
written differently, a case whose `set` makes the scenario invalid, an infeasible
one, and one stopped at its time limit before HiGHS found any solution. The other
tests read its output folder, rerun it through ``geomodel.cli.main`` in-process, or
call the CLI in-process for errors that stop before anything runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest
from cli_runs import in_process

from geomodel.batch import engine
from geomodel.batch.store import MANIFEST, open_batch, read_record
from geomodel.cli import main
from geomodel.plugin_loader import DISABLE_ENV

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "scenarios" / "quickstart.yaml"
GEOMODEL = Path(sys.executable).with_name("geomodel")
#: tests/test_example_plugin.py pip-installs this plugin into the shared environment
#: for a while; a plugin appearing mid-test would change every scenario hash.
EXAMPLE_PLUGIN = tomllib.loads(
    (ROOT / "examples" / "geomodel-example-plugin" / "pyproject.toml").read_text(encoding="utf-8")
)["project"]["name"]

#: the quickstart cut to 6 hours, with a training job that fits in them, HiGHS on one thread
SWEEP = {
    "name": "five-cases",
    "base": str(QUICKSTART),
    "set": {"time.hours": 6, "solver.threads": 1, "training.pretrain.compute": "1e22 FLOP"},
    "cases": [
        {"name": "good"},
        # the base's carbon price is "0 USD/tCO2": the same scenario, so solved once
        {"name": "same", "set": {"objective.carbon_price": 0}},
        # no site is within 5 ms of any region: the scenario does not validate
        {"name": "invalid", "set": {"inference.chat.sla": "5 ms"}},
        # 2e24 FLOP cannot be trained in 6 hours on these sites
        {"name": "infeasible", "set": {"training.pretrain.compute": "2e24 FLOP"}},
        # a time limit with no feasible plan yet: nothing to show, so a failure too
        {"name": "too-slow", "set": {"solver.time_limit": "1e-6 s"}},
    ],
}


def geomodel(*args: str, timeout: float = 200) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, DISABLE_ENV: EXAMPLE_PLUGIN}
    return subprocess.run(
        [str(GEOMODEL), *args], capture_output=True, text=True, env=env, timeout=timeout
    )


@pytest.fixture
def stable_plugins(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, EXAMPLE_PLUGIN)


@pytest.fixture(scope="module")
def five_cases(tmp_path_factory):
    folder = tmp_path_factory.mktemp("batch-cli")
    sweep = folder / "five-cases.yaml"
    sweep.write_text(json.dumps(SWEEP, indent=1), encoding="utf-8")
    out = folder / "out"
    done = geomodel("batch", str(sweep), "-o", str(out), "--workers", "2", "--json")
    return sweep, out, done


def _cases(done) -> dict[str, dict]:
    return {c["case"]: c for c in json.loads(done.stdout)["cases"]}


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_failing_cases_are_recorded_and_the_others_finish(five_cases):
    _, out, done = five_cases
    assert done.returncode == 1, done.stdout + done.stderr
    cases = _cases(done)  # --json: stdout is JSON alone, the error goes to stderr
    assert list(cases) == ["good", "same", "invalid", "infeasible", "too-slow"]
    assert {name: c["status"] for name, c in cases.items()} == {
        "good": "optimal",
        "same": "optimal",
        "invalid": "invalid",
        "infeasible": "infeasible",
        "too-slow": "no_solution",
    }
    assert cases["good"]["cost_usd"] > 0
    assert "no site meets the 5 ms SLA of 'chat'" in cases["invalid"]["message"]
    assert "quickstart.yaml" in cases["invalid"]["message"]
    assert "Infeasible" in cases["infeasible"]["message"]
    assert cases["too-slow"]["message"] == "no solution: Time limit reached"
    assert cases["too-slow"]["cost_usd"] is None
    assert done.stderr.strip().splitlines()[-1] == (f"Error: 3 of 5 cases failed; see {out / MANIFEST}")
    # the infeasible case has its record and result, like a good one
    record = read_record(out, cases["infeasible"]["hash"])
    assert record["status"] == "infeasible"
    assert "Infeasible" in record["message"]
    assert (out / "results" / f"{cases['infeasible']['hash']}.nc").is_file()
    manifest = pd.read_csv(out / MANIFEST)
    statuses = ["optimal", "optimal", "invalid", "infeasible", "no_solution"]
    assert manifest["status"].tolist() == statuses


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_identical_scenarios_are_solved_once(five_cases):
    _, out, done = five_cases
    cases = _cases(done)
    assert cases["same"]["hash"] == cases["good"]["hash"]
    results = out / "results"
    assert sorted(p.name for p in results.iterdir()) == sorted(
        f"{cases[name]['hash']}{suffix}"
        for name in ("good", "infeasible", "too-slow")
        for suffix in (".json", ".nc")
    )
    assert read_record(out, cases["good"]["hash"])["case"] == "good"
    manifest = pd.read_csv(out / MANIFEST)
    rows = manifest.set_index("case")
    assert rows.loc["same", "hash"] == rows.loc["good", "hash"]
    dataset, table = open_batch(out)
    assert dataset["scenario"].values.tolist() == ["good", "same"]  # the solved ones
    assert float(dataset["kpi_cost_usd"][0]) == float(dataset["kpi_cost_usd"][1])
    assert len(table) == 5


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_rerun_prints_the_table_and_each_failure_and_solves_nothing(five_cases, stable_plugins):
    sweep, out, _ = five_cases
    mtimes = {p.name: p.stat().st_mtime_ns for p in (out / "results").iterdir()}
    # in-process: the sweep itself ran through the console script (five_cases)
    done = in_process("batch", sweep, "-o", out, "--workers", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any("five-cases.yaml: 5 cases in" in line for line in lines)
    shown = [("good", "optimal"), ("same", "optimal"), ("infeasible", "infeasible")]
    for name, status in [*shown, ("too-slow", "no_solution")]:
        assert any(f" {name} " in line and status in line for line in lines), done.stdout
    assert any(line.startswith("invalid: invalid ") for line in lines)
    assert any(line.startswith("infeasible: infeasible no solution: Infeasible") for line in lines)
    assert "too-slow: no_solution no solution: Time limit reached" in lines
    # issue 13: the four cases with a record are skipped, not "done" again; the invalid
    # one fails again (good and same share a scenario, but each case has its row)
    assert "done 0, skipped 4 (already solved), failed 1" in lines
    assert "Error: 3 of 5 cases failed" in done.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (out / "results").iterdir()} == mtimes


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_report_prints_the_kpi_table_of_a_batch_folder(five_cases, capsys):
    _, out, _ = five_cases
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"{out}: 5 cases" in text
    for header in ("case", "status", "cost_usd", "emissions_tco2", "latency_ms_mean"):
        assert header in text
    assert "param:case" not in text
    assert main(["report", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["outdir"] == str(out)
    assert [c["case"] for c in report["cases"]] == [
        "good",
        "same",
        "invalid",
        "infeasible",
        "too-slow",
    ]
    good, same, invalid, *_ = report["cases"]
    assert good["cost_usd"] == same["cost_usd"] > 0
    assert invalid["cost_usd"] is None  # NaN becomes null: any JSON parser reads it


def test_report_on_a_folder_without_a_batch(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"Error: OUTDIR: {tmp_path} holds no batch results (manifest.csv missing)"
    )


def test_report_on_a_damaged_manifest_says_what_is_wrong(tmp_path, capsys):
    # issue 24, item 13: was KeyError: 'hash', exit 3
    (tmp_path / MANIFEST).write_text("case,variants,status\ngood,,optimal\n", encoding="utf-8")
    assert main(["report", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"Error: {tmp_path / MANIFEST}: damaged batch manifest: no 'hash' column")
    assert "Internal error" not in err and len(err.splitlines()) == 1
    (tmp_path / MANIFEST).write_bytes(b"case,hash,status\n\xff\xfe,\x00\n")
    assert main(["report", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"Error: {tmp_path / MANIFEST}: not a readable batch manifest (")


def test_report_on_a_batch_folder_without_its_result_files_says_so(tmp_path, capsys):
    # issue 24, item 14: the records' KPIs were shown as if the results were there
    (tmp_path / MANIFEST).write_text(
        "case,variants,hash,status,message,seconds\na,,h1,optimal,,1.0\nb,,h2,optimal,,1.0\n",
        encoding="utf-8",
    )
    (tmp_path / "results").mkdir()
    for name in ("h1", "h2"):
        (tmp_path / "results" / f"{name}.json").write_text('{"status": "optimal", "kpis": {}}')
    assert main(["report", str(tmp_path)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"warning: {tmp_path}: 2 of 2 cases have no result file in results/ (<hash>.nc): a, b" in err
    assert main(["report", str(tmp_path), "--json"]) == 0
    (line,) = json.loads(capsys.readouterr().out)["warnings"]
    assert "2 of 2 cases have no result file" in line


@pytest.fixture
def nothing_runs(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("nothing may run")

    monkeypatch.setattr(engine, "run_batch", refuse)
    monkeypatch.setattr(engine, "_client", refuse)


def test_an_unwritable_output_folder_stops_before_anything_runs(tmp_path, capsys, nothing_runs):
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text(json.dumps(SWEEP), encoding="utf-8")
    # a folder under a regular file: not writable, for root too (chmod would not stop root)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    for out in (blocker / "out", blocker):
        assert main(["batch", str(sweep), "-o", str(out)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == f"Error: -o/--output: cannot write to {out}: Not a directory\n"
    assert blocker.read_text() == "not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "sweep.yaml"]


def test_the_python_api_checks_the_output_folder_first(tmp_path, stable_plugins):
    from geomodel.batch.engine import run_batch
    from geomodel.errors import UsageError

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # the sweep file does not even exist: the folder is checked first
    with pytest.raises(UsageError, match=r"cannot write to .*: Not a directory"):
        run_batch(tmp_path / "missing.yaml", blocker / "out")


def test_a_bad_sweep_file_is_reported_before_anything_runs(tmp_path, capsys, nothing_runs):
    sweep = tmp_path / "bad.yaml"
    sweep.write_text(f"base: {QUICKSTART}\nzip:\n  time.hours: [4, 6]\n  solver.threads: [1]\n")
    assert main(["batch", str(sweep), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {sweep}: 1 problem found")
    assert "zip lists must have one length: time.hours has 2, solver.threads has 1" in err
