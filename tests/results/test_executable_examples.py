"""Every example and every variant gives a plan that can be carried out, and the library's
checker (geomodel/results/executable.py) and an independent script reading only the saved
file (bench/executable_check.py) agree on it.

The examples are solved as they stand, on coarser steps where a week of hourly steps
or a year of typical days would take minutes (the same sites, jobs, links and build
options; what a reduction keeps and why is beside it); each result goes through the
NetCDF file, as a user's would. A plan with site use relaxed (``solver.participation:
relaxed``) is reported as not executable: there the two checkers must still agree, on
what it breaks.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from geomodel.api import solve
from geomodel.results.executable import check_executable
from geomodel.results.result import open_result
from geomodel.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import executable_check  # noqa: E402

EXAMPLES = sorted((ROOT / "scenarios").glob("*.yaml"))
#: example -> overrides that keep it small; every other example is solved as it stands
REDUCED = {
    # 3 typical days of 3 segments (9 steps, as tests/model/test_plan_flagship.py)
    "plan-100k-gpu.yaml": ["time.aggregation.typical_days=3", "time.aggregation.segments=3"],
    # 2,500 jobs over a week: 4-hour steps keep every job's window and day of slack
    "trace-week.yaml": ["time.resolution=4 h"],
}


def _cases() -> list[tuple[Path, str]]:
    cases = []
    for path in EXAMPLES:
        variants = YAML(typ="safe").load(path.read_text()).get("variants") or {}
        cases.extend((path, variant) for variant in ["base", *variants])
    return cases


CASES = _cases()


@pytest.mark.parametrize(("path", "variant"), CASES, ids=[f"{p.stem}:{v}" for p, v in CASES])
def test_every_example_plan_is_executable_and_both_checkers_agree(tmp_path, catalog, path, variant):
    scenario = load_scenario(
        path,
        variants=[] if variant == "base" else [variant],
        overrides=REDUCED.get(path.name, []),
        catalog=catalog,
    )
    solved = solve(scenario, catalog=catalog, threads=1)
    assert solved.has_solution, solved.messages
    saved = open_result(solved.to_netcdf(tmp_path / "result.nc"))
    found = check_executable(saved.dataset, saved.inputs)
    assert executable_check.agrees(tmp_path / "result.nc", found)
    relaxed = saved.kpis["participation"] == "relaxed"
    assert relaxed or found == [], [f.text for f in found]
    assert saved.kpis["relaxation_objective"] <= saved.kpis["objective"] * (1 + 1e-9)
