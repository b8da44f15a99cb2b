"""``geomodel run`` and ``report`` print the build table of a planning result (text and JSON).

The scenario is test_planning_optima.py's whole-rack one with a real price: a job needs
100 GB200 chips in each of 2 hours; an NVL72 rack costs 5,000,000 USD, lasts 5 years
(systems), discount rate 0: 1,000,000 USD a year per rack. With whole systems 2 racks
are built: capex 10,000,000 USD, 2,000,000 USD a year.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb
from cli_runs import in_process, real
from test_planning_optima import rack_scenario


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("planning_cli")
    data = rack_scenario(whole=True)
    data["sites"]["s"]["build"]["systems"]["gb200_nvl72"].update(
        capex="5000000 USD", fixed_om="0 USD/year"
    )
    data["finance"]["lifetimes"] = {"systems": "5 years"}
    path = sb.write(folder, data, "racks.yaml")
    done = real("run", path, "-o", folder / "racks.nc")  # the console script solves it
    assert done.returncode == 0, done.stderr
    assert "racks.yaml" in done.stdout or "hand-derived" in done.stdout
    assert "built" in done.stdout
    return folder / "racks.nc"


def test_report_prints_the_build_table(saved):
    done = in_process("report", saved)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "gb200_nvl72" in line]
    assert len(lines) == 1, done.stdout
    cells = [cell.strip() for cell in lines[0].strip("│┃ ").split("│")]
    assert cells == ["systems", "gb200_nvl72", "s", "2.00", "systems", "10,000,000", "2,000,000"]
    # a planning result's KPI table shows the planning KPIs (an operational one does not)
    assert "capex_usd_per_year" in done.stdout and "total_cost_usd_per_year" in done.stdout


def test_report_json_gives_the_build_rows(saved):
    done = in_process("report", saved, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (row,) = report["build"]
    assert row["asset"] == "systems" and row["what"] == "gb200_nvl72" and row["where"] == "s"
    assert row["amount"] == pytest.approx(2.0)
    assert row["capex_usd"] == pytest.approx(10_000_000)
    assert row["annual_cost_usd_per_year"] == pytest.approx(2_000_000)
    kpis = report["kpis"]
    assert kpis["capex_usd_per_year"] == pytest.approx(2_000_000)
    # 2 h are 2 / 8760 of a year
    assert kpis["investment_cost_term_usd"] == pytest.approx(2_000_000 * 2 / 8760)
