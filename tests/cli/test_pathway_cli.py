"""``geomodel run`` and ``report`` print a pathway's build timeline (text and JSON), through
``geomodel.cli.main`` in-process (``run`` and ``report`` meet the real console script in
test_run_cli.py). The case is test_pathway_optima.py's early build: 10 H100 servers
bought in 2026 (online 2026, retiring 2030 after 4 years), nothing in 2028."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

from cli_runs import in_process
from test_pathway_optima import (
    H100,
    MTOKEN_PER_TOKEN_S_YEAR,
    crf,
    pathway_scenario,
    tokens_per_s_per_system,
)


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    folder = tmp_path_factory.mktemp("pathway_cli")
    periods = {"years": [2026, 2028], "systems": {H100: {"price_decline": 0.3}}}
    build = {"systems": {H100: {"max": 100, "capex": "100000 USD", "fixed_om": "0 USD/year"}}}
    kwargs = dict(build=build, periods=periods, rate=0.1)
    per_server = tokens_per_s_per_system(
        pathway_scenario(folder, demand_tokens_s=1, penalty=1, **kwargs), H100
    )
    penalty = 1.1 * 100_000 * crf(0.1, 4) / (per_server * MTOKEN_PER_TOKEN_S_YEAR)
    path = pathway_scenario(folder, demand_tokens_s=10 * per_server, penalty=penalty, **kwargs)
    done = in_process("run", path, "-o", folder / "pathway.nc")
    assert done.returncode == 0, done.stderr
    return folder / "pathway.nc", done


def timeline_rows(text: str) -> list[list[str]]:
    return [
        [c.strip() for c in line.split("│")[1:-1]] for line in text.splitlines() if "│ systems" in line
    ]


def test_run_and_report_print_the_same_timeline(saved):
    path, done = saved
    report = in_process("report", path)
    assert report.returncode == 0, report.stderr
    for text in (done.stdout, report.stdout):
        assert "build timeline" in text
        (row,) = timeline_rows(text)
        assert row[:6] == ["2026", "2026", "2030", "systems", H100, "s"]
        assert float(row[6]) == pytest.approx(10, rel=1e-3)
        assert "net present cost" in text and "perfect foresight" in text
        assert "periods" in text


def test_report_json_has_the_timeline_and_periods(saved):
    path, _ = saved
    report = in_process("report", path, "--json")
    assert report.returncode == 0, report.stderr
    payload = json.loads(report.stdout)
    (row,) = payload["timeline"]
    assert (row["decided"], row["online"], row["what"]) == (2026, 2026, H100)
    assert [p["period"] for p in payload["periods"]] == [2026, 2028]
    # 10 servers at 0.7 x 100,000 USD x CRF(10 %, 4) a year, W = 1.909091 + 1.577761
    expected = 10 * 0.7 * 100_000 * crf(0.1, 4) * (1 + 1 / 1.1 + 1.1**-2 + 1.1**-3)
    assert payload["net_present_cost_usd"] == pytest.approx(expected, rel=1e-6)
