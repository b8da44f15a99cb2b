"""Every example gives a plan that can be carried out, and the library's checker
(geomodel/results/executable.py) and an independent script reading only the saved file
(bench/executable_check.py) agree on it.

Each example is solved as it stands on coarse steps, so that the module takes seconds:
the same sites, jobs, links and build options, and binary site use wherever a job may
use two sites (the flagship and pathway-2030, each period of which is a plan of its own
from ``solve_pathway``, on 2 typical days of 2 segments, the week-long examples on daily
steps, quickstart's 48 hours as they are). The independent script reads the plan from
the NetCDF file a user would get (that the library reads such a file back
as it wrote it is tests/results/test_open_result.py's). A plan with site use relaxed
(``solver.participation: relaxed``) breaks rules: there the two checkers must still
agree, on what it breaks.
Every example and every variant at full size goes through both checkers in
``bench/executable_methods.py`` (its ``checkers_agree``; docs/planning.md, "Executable
plans").
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from geomodel.api import solve
from geomodel.pathway import solve_pathway
from geomodel.results.executable import check_executable
from geomodel.results.result import Result
from geomodel.scenario import Scenario, load_scenario

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import executable_check  # noqa: E402

EXAMPLES = sorted((ROOT / "scenarios").glob("*.yaml"))
#: a week of hourly steps as 7 daily ones: every job's window and slack is whole days
DAILY = ["time.resolution=24 h"]
#: the flagship's typical days, fewer of them
FLAGSHIP_DAYS = ["time.aggregation.typical_days=2", "time.aggregation.segments=2"]
#: example -> overrides that keep its solve to about a second (the flagship: a few)
REDUCED = {
    "plan-100k-gpu.yaml": FLAGSHIP_DAYS,
    "pathway-2030.yaml": FLAGSHIP_DAYS,  # typical days are built from hourly steps
    "quickstart.yaml": [],
}


def _solved(tmp_path: Path, catalog, scenario: Scenario) -> list[tuple[Path, Result]]:
    """The scenario's plans (a pathway's one per period, solved by ``solve_pathway``), each
    with the file the independent script reads it from."""
    solver = solve if scenario.periods is None else solve_pathway
    solved = solver(scenario, catalog=catalog, threads=1)
    assert solved.has_solution, solved.messages
    plans = [solved] if scenario.periods is None else solved.periods
    return [(plan.to_netcdf(tmp_path / f"result-{n}.nc"), plan) for n, plan in enumerate(plans)]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_plan_is_executable_and_both_checkers_agree(tmp_path, catalog, path):
    scenario = load_scenario(path, overrides=REDUCED.get(path.name, DAILY), catalog=catalog)
    for file, saved in _solved(tmp_path, catalog, scenario):
        found = check_executable(saved.dataset, saved.inputs)
        assert found == [], [f.text for f in found]
        assert executable_check.agrees(file, found)
        assert saved.kpis["participation"] == "exact"
        bound, objective = saved.kpis["relaxation_objective"], saved.kpis["objective"]
        if scenario.periods is not None:  # solve_pathway solves site use as one MIP: no bound
            assert math.isnan(bound)
            continue
        # the relaxation is a lower bound on the plan, and the gap says by how much
        assert bound <= objective * (1 + 1e-9)
        assert saved.kpis["relaxation_gap"] == pytest.approx(max(objective - bound, 0) / objective)


def test_a_relaxed_plan_breaks_rules_and_both_checkers_name_the_same(tmp_path, catalog):
    """plan-small's LP relaxation of site use splits its programme between The Dalles and
    Council Bluffs, whose link has no fibre lit, paying a fraction of the exchange: the
    checkers must name the same rules, links and steps."""
    overrides = [*DAILY, "solver.participation=relaxed"]
    scenario = load_scenario(
        ROOT / "scenarios" / "plan-small.yaml", overrides=overrides, catalog=catalog
    )
    ((file, saved),) = _solved(tmp_path, catalog, scenario)
    found = check_executable(saved.dataset, saved.inputs)
    assert found and {f.rule for f in found} == {"link_capacity"}
    assert executable_check.agrees(file, found)
