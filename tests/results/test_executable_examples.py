"""Every example gives a plan that can be carried out, and the library's checker
(geomodel/results/executable.py) and an independent script reading only the saved file
(bench/executable_check.py) agree on it.

Each example is solved once, as it stands on coarse steps (pathway-2030's inputs, three
periods of weather and typical days, take most of the module's time):
the same sites, jobs, links and build options, and binary site use wherever a job may
use two sites (the flagship and pathway-2030, each period of which is a plan of its own
from ``solve_pathway``, on 2 typical days of 2 segments, the week-long examples on daily
steps, quickstart's 48 hours as they are). The independent script reads the plan from
the NetCDF file a user would get (that the library reads such a file back
as it wrote it is tests/results/test_open_result.py's). A plan with site use relaxed
(``solver.participation: relaxed``) breaks rules: on a two-site scenario built so that
its relaxation must split a synchronous job, the two checkers must agree on what it
breaks (no example is a sure case: a relaxation may as well split only pools, which
break no rule).
Every example and every variant at full size goes through both checkers in
``bench/executable_methods.py`` (its ``checkers_agree``; docs/planning.md, "Executable
plans").
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest
import scenario_builder as sb

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


#: one lit 800ZR pair (25,600 Gb/s) below the job's exchange, or no link at all
SPLIT_OVER = {"no link": None, "a thin link": sb.route("a", "b")}


def split_job_scenario(catalog, link: dict | None) -> dict:
    """Two sites of 1,600 H100 chips whose envelopes let 800 of them train, and one
    synchronous job that needs 1,600 chips in each of 2 hours (its ``max_chips``), over
    ``link`` (None: no link); site use as the scenario builder leaves it (exact)."""
    h100 = sb.server_figures(catalog)  # catalogue figures: inputs, not outputs
    dci_mw = 0.0
    if link is not None:  # a lit link draws its optics' power, half at each end
        tech = catalog.link_technology(link["technology"])
        dci_mw = tech.capacity_gbit_s_per_fibre_pair * tech.transceiver_power_w_per_gbit_s / 1e6
    # PUE 1: every installed chip idles, each working one adds nameplate - idle
    envelope_mw = (1600 * h100.idle_kw + 800 * h100.nameplate_extra_kw) / 1000 + dci_mw / 2
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    job = sb.training_job(1600 * 2 * rate, max_chips=1600, gradient_size="5000 GB", sync_interval="1 s")
    sites = {
        name: sb.site(lat=lat, systems=200, pue=1.0, envelope_mw=envelope_mw)
        for name, lat in (("a", 40.0), ("b", 40.3))
    }
    links = None if link is None else {"routes": [link]}
    return sb.scenario(sites, hours=2, training={"pretrain": job}, links=links)


@pytest.mark.parametrize("link", SPLIT_OVER.values(), ids=SPLIT_OVER.keys())
def test_a_relaxed_plan_breaks_rules_and_both_checkers_name_the_same(tmp_path, catalog, link):
    """The relaxed optimum provably splits the job, and both checkers name the same rule,
    sites and steps (and job: the script names none for ``link_capacity``, a link's
    rule); with exact site use no plan exists.

    By hand (docs/model.md (4) and (6)): the envelope, 1,600 idle chips plus 800 working
    ones (plus the link's optics), lets at most 800 chips work at each site; the job's
    2 x 1,600 chip-hours at 1,600 chips a step at most need exactly 1,600 in each step, so
    800 at a and 800 at b in both. Relaxed, nothing stops that: U = 1,600 chips at each
    site is the job's ``max_chips``, so with no link it gets no span rows at all
    (``one_group`` would read chips_a + chips_b <= 1,600), and over the link each span
    need only be 800 / 1,600 = 0.5, whose exchange 80,000 Gb/s x (0.5 + 0.5 - 1) = 0
    fits the 25,600 Gb/s of one lit pair. The plan uses two sites no link joins
    (``unlinked_sites``), or needs the whole exchange of 2 x 5,000 GB x 8 / 1 s =
    80,000 Gb/s on that pair (``link_capacity``), in steps 0 and 1. Exact (binary spans),
    the job may be at both sites only over a link carrying that whole exchange, which
    neither case has, so it is at one site a step: 800 chips, half what the work needs.
    """
    data = split_job_scenario(catalog, link)
    data["solver"]["participation"] = "relaxed"
    scenario = sb.load(tmp_path, data, catalog)
    ((file, saved),) = _solved(tmp_path, catalog, scenario)
    chips = saved.dataset["training_chips"].sum("system").sel(job="pretrain")
    assert chips.values == pytest.approx(800.0, rel=1e-6)  # (site, time)
    found = check_executable(saved.dataset, saved.inputs)
    rule = "unlinked_sites" if link is None else "link_capacity"
    named = [(f.rule, f.job, f.sites, f.step) for f in found]
    assert sorted(named) == [(rule, "pretrain", ("a", "b"), step) for step in (0, 1)]
    assert executable_check.agrees(file, found)
    assert saved.kpis["participation"] == "relaxed"
    exact = solve(sb.load(tmp_path, split_job_scenario(catalog, link), catalog), catalog=catalog)
    assert exact.status == "infeasible", exact.messages
