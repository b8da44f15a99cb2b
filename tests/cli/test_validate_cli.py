"""`geomodel validate` and `geomodel schema`.

Two runs go through the installed console script (a good file, and a bad one with
``--debug``), started together because each new interpreter loads every plugin;
the other cases, the bad file's problems without ``--debug`` among them, call the
same entry point, ``geomodel.cli.main``, in-process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from geomodel.cli import main
from geomodel.scenario.files import parse_text

GEOMODEL = Path(sys.executable).with_name("geomodel")
QUICKSTART = Path(__file__).parents[2] / "scenarios" / "quickstart.yaml"

GOOD = """\
name: two sites
time: {start: 2025-01-01T00:00:00+00:00, hours: 24, resolution: 2 h}
sites:
  fra:
    lat: 50.11
    lon: 8.68
    grid: grid_de
    power_envelope: 20 MW
    pue: 1.2
    systems: {hgx_h100_8: 100}
  ams:
    lat: 52.37
    lon: 4.90
    grid: grid_nl
    power_envelope: 15 MW
    cooling: liquid
    systems: {gb200_nvl72: 4}
regions:
  paris: {lat: 48.86, lon: 2.35, demand: {chat: 1e6 token/s}}
  berlin: {lat: 52.52, lon: 13.40, demand: {chat: 1e6 token/s}}
  rome: {lat: 41.9, lon: 12.5, demand: {chat: 1e5 token/s}}
training:
  pretrain: {compute: 1e21 FLOP, gradient_size: 14 GB, tp: 8}
inference:
  chat: {active_params: 8e9, efficiency: 0.3, sla: 40 ms}
variants:
  bigger:
    sites: {fra: {systems: {hgx_h100_8: 150}}}
"""

BAD = """\
time: {start: 2025-01-01T00:00:00+00:00, hours: 24}
sites:
  fra:
    lat: 50.11
    lon: 8.68
    grid: grid_de
    power_envelope: 250 MWh
    pue: 0.9
    systems: {hgx_h100_8: 100}
    colling: liquid
"""


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


SCRIPT_RUNS = {
    "good": ["validate", "good.yaml"],
    "bad_debug": ["--debug", "validate", "bad.yaml"],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("validate")
    (folder / "good.yaml").write_text(GOOD)
    (folder / "bad.yaml").write_text(BAD)
    return folder


@pytest.fixture(scope="module")
def script(folder) -> dict[str, Run]:
    """The console script's runs, started in parallel."""
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
    started = {
        name: subprocess.Popen(
            [str(GEOMODEL), *args],
            cwd=folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, args in SCRIPT_RUNS.items()
    }
    runs = {}
    for name, process in started.items():
        stdout, stderr = process.communicate(timeout=120)
        runs[name] = Run(process.returncode, stdout, stderr)
    return runs


@pytest.fixture
def cli(folder, capsys, monkeypatch):
    """Run ``geomodel ARGS`` in-process in the test folder."""
    monkeypatch.chdir(folder)

    def run(*args: str) -> Run:
        code = main(list(args))
        out, err = capsys.readouterr()
        return Run(code, out, err)

    return run


def summary_row(out: str, row: str) -> str:
    """The value cell of a summary table row (cells are separated by box lines)."""
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.split("│")]
        if len(cells) == 4 and cells[1] == row:
            return cells[2]
    raise AssertionError(f"no row {row!r} in:\n{out}")


def test_a_good_file_exits_0_with_a_summary(script):
    run = script["good"]
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("valid: good.yaml")
    assert {
        row: summary_row(run.stdout, row)
        for row in (
            "sites",
            "systems",
            "chips",
            "power envelope, all sites (MW)",
            "training jobs",
            "inference services",
            "user regions",
            "hours (time steps)",
            "variants defined",
        )
    } == {
        "sites": "2",
        "systems": "hgx_h100_8 x100, gb200_nvl72 x4",
        "chips": "1,088",  # 100 x 8 + 4 x 72
        "power envelope, all sites (MW)": "35.0",
        "training jobs": "1",
        "inference services": "1",
        "user regions": "3",
        "hours (time steps)": "24 (12)",
        "variants defined": "bigger",
    }
    assert summary_row(run.stdout, "IT power at load (MW)")
    assert run.stderr == ""


def test_a_bad_file_exits_1_with_every_problem_and_no_traceback(cli):
    run = cli("validate", "bad.yaml")
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        "Error: bad.yaml: 3 problems found",
        "  bad.yaml:7: sites.fra.power_envelope: expected a power in MW (e.g. '10 MW'), "
        "not an energy (got '250 MWh')",
        "  bad.yaml:8: sites.fra.pue: must lie in [1, 3] (got 0.9)",
        "  bad.yaml:10: sites.fra.colling: unknown field; did you mean 'cooling'?",
    ]


def test_debug_shows_the_traceback(script):
    run = script["bad_debug"]
    assert run.returncode != 0
    assert "Traceback (most recent call last)" in run.stderr
    assert "ScenarioError" in run.stderr
    assert "bad.yaml:8: sites.fra.pue" in run.stderr


def test_json_output_is_the_summary_for_scripts(cli, catalog):
    run = cli("validate", "good.yaml", "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    h100, nvl72 = catalog.hardware["hgx_h100_8"], catalog.hardware["gb200_nvl72"]
    assert summary["valid"] is True
    assert summary["sites"] == 2
    assert summary["chips"] == 100 * 8 + 4 * 72
    assert summary["systems"] == {"hgx_h100_8": 100, "gb200_nvl72": 4}
    assert summary["it_mw_at_load"] == pytest.approx(
        (100 * h100.power_kw_per_system + 4 * nvl72.power_kw_per_system) / 1000
    )
    assert summary["power_envelope_mw"] == 35.0
    assert summary["training_jobs"] == summary["inference_services"] == 1
    assert summary["regions"] == 3
    assert summary["hours"] == 24 and summary["time_steps"] == 12
    assert len(summary["scenario_hash"]) == 64
    assert summary["warnings"] == []


def test_variant_and_set_are_applied_in_order(cli):
    base = json.loads(cli("validate", "good.yaml", "--json").stdout)
    run = cli(
        "validate",
        "good.yaml",
        "--variant",
        "bigger",
        "--set",
        "sites.ams.systems.gb200_nvl72=6",
        "--json",
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["variants_applied"] == ["bigger"]
    assert summary["systems"] == {"hgx_h100_8": 150, "gb200_nvl72": 6}
    assert summary["chips"] == 150 * 8 + 6 * 72
    assert summary["scenario_hash"] != base["scenario_hash"]
    table = cli("validate", "good.yaml", "--variant", "bigger")
    assert table.stdout.startswith("valid: good.yaml with variants bigger")


def test_bad_set_values_are_all_reported(cli):
    run = cli("validate", "good.yaml", "--set", "objective.carbon_price=-1", "--set", "nope")
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "Error: command line: 1 problem found",
        "  --set nope: expected path.to.field=value",
    ]
    run = cli("validate", "good.yaml", "--set", "objective.carbon_price=-1")
    assert run.returncode == 1
    assert "--set objective.carbon_price: objective.carbon_price: must be at least 0" in run.stderr


def test_an_impossible_date_in_set_is_one_line_not_an_internal_error(cli):
    # issue 24, item 13: was "Internal error: ValueError: day is out of range for month", exit 3
    run = cli("validate", "good.yaml", "--set", "time.start=2025-02-29T00:00:00-05:00")
    assert run.returncode == 1
    assert run.stderr.splitlines()[1].startswith(
        "  --set time.start: time.start: expected an ISO 8601 date-time with a UTC offset"
    )
    assert "February 2025 has 28 days, not 29" in run.stderr and "Internal error" not in run.stderr


def test_an_unknown_variant_lists_the_known_ones(cli):
    run = cli("validate", "good.yaml", "--variant", "smaller")
    assert run.returncode == 1
    line = GOOD.splitlines().index("variants:") + 1
    assert f"good.yaml:{line}: variants: unknown variant 'smaller'; known variants: bigger" in (
        run.stderr
    )


def test_a_missing_file_is_a_problem_not_a_crash(cli):
    run = cli("validate", "missing.yaml")
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "Error: missing.yaml: 1 problem found",
        "  missing.yaml: cannot read the file: No such file or directory",
    ]


def test_warnings_are_printed_after_the_summary(cli, folder):
    (folder / "warn.yaml").write_text(GOOD + "  typo:\n    objective: {carbon_prize: 1}\n")
    run = cli("validate", "warn.yaml")
    assert run.returncode == 0
    assert run.stdout.rstrip().endswith(
        "warning: objective.carbon_prize: with variant 'typo': unknown field; did you mean "
        "'carbon_price'?"
    )


def test_the_quickstart_example_is_valid(cli):
    run = cli("validate", str(QUICKSTART), "--json")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert (summary["sites"], summary["training_jobs"], summary["inference_services"]) == (3, 1, 1)
    assert summary["hours"] == 48


def _plain(value):
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(type(value))


def as_json_data(text: str) -> dict:
    """A scenario file as the JSON a schema validator sees (dates as ISO text)."""
    return json.loads(json.dumps(parse_text(text, "t.yaml").data, default=_plain))


def test_schema_prints_a_json_schema_the_example_files_satisfy(cli):
    jsonschema = pytest.importorskip("jsonschema")  # installed with the app (altair)
    run = cli("schema")
    assert run.returncode == 0, run.stderr
    schema = json.loads(run.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for text in (GOOD, QUICKSTART.read_text()):
        assert [e.message for e in validator.iter_errors(as_json_data(text))] == []
    messages = [e.message for e in validator.iter_errors(as_json_data(BAD))]
    assert any("'colling' was unexpected" in m for m in messages), messages
    site = schema["$defs"]["Site"]["properties"]
    assert site["power_envelope"]["unit"] == "MW"
    assert site["power_envelope"]["anyOf"][0] == {"type": "number", "minimum": 0}
