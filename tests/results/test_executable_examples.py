"""Every example gives a plan that can be carried out, and the library's checker
(geomodel/results/executable.py) and an independent script reading only the saved file
(bench/executable_check.py) agree on it.

Each example is solved as it stands on coarse steps, so that the module takes seconds:
the same sites, jobs, links and build options, and binary site use wherever a job may
use two sites (the flagship on 2 typical days of 2 segments, the week-long examples on
daily steps, quickstart's 48 hours as they are). The independent script reads the
plan from the NetCDF file a user would get (that the library reads such a file back
as it wrote it is tests/results/test_open_result.py's). A plan with site use relaxed
(``solver.participation: relaxed``) breaks rules: there the two checkers must still
agree, on what it breaks.
Every example and every variant at full size goes through both checkers in
``bench/executable_methods.py`` (its ``checkers_agree``; docs/planning.md, "Executable
plans").
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from geomodel.api import solve
from geomodel.results.executable import check_executable
from geomodel.results.result import Result
from geomodel.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import executable_check  # noqa: E402

EXAMPLES = sorted((ROOT / "scenarios").glob("*.yaml"))
#: a week of hourly steps as 7 daily ones: every job's window and slack is whole days
DAILY = ["time.resolution=24 h"]
#: example -> overrides that keep its solve to about a second (the flagship: a few)
REDUCED = {
    "plan-100k-gpu.yaml": ["time.aggregation.typical_days=2", "time.aggregation.segments=2"],
    "quickstart.yaml": [],
}


def _solved(tmp_path: Path, catalog, path: Path, overrides: list[str]) -> tuple[Path, Result]:
    """The example's plan, and the file the independent script reads it from."""
    scenario = load_scenario(path, overrides=overrides, catalog=catalog)
    solved = solve(scenario, catalog=catalog, threads=1)
    assert solved.has_solution, solved.messages
    return solved.to_netcdf(tmp_path / "result.nc"), solved


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_plan_is_executable_and_both_checkers_agree(tmp_path, catalog, path):
    file, saved = _solved(tmp_path, catalog, path, REDUCED.get(path.name, DAILY))
    found = check_executable(saved.dataset, saved.inputs)
    assert found == [], [f.text for f in found]
    assert executable_check.agrees(file, found)
    assert saved.kpis["participation"] == "exact"
    # the relaxation is a lower bound on the plan, and the gap says by how much
    bound, objective = saved.kpis["relaxation_objective"], saved.kpis["objective"]
    assert bound <= objective * (1 + 1e-9)
    assert saved.kpis["relaxation_gap"] == pytest.approx(max(objective - bound, 0) / objective)


def test_a_relaxed_plan_breaks_rules_and_both_checkers_name_the_same(tmp_path, catalog):
    """plan-small's LP relaxation of site use splits its programme between The Dalles and
    Council Bluffs, whose link has no fibre lit, paying a fraction of the exchange: the
    checkers must name the same rules, links and steps."""
    overrides = [*DAILY, "solver.participation=relaxed"]
    file, saved = _solved(tmp_path, catalog, ROOT / "scenarios" / "plan-small.yaml", overrides)
    found = check_executable(saved.dataset, saved.inputs)
    assert found and {f.rule for f in found} == {"link_capacity"}
    assert executable_check.agrees(file, found)
