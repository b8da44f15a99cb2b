"""Pathway inputs, bad input and what stays as before (docs/planning.md, "Pathways").

* bad ``periods`` input: one line per problem, all of a file at once, with the field
  path and the line (item 8);
* demand growth that makes a period infeasible is said in words: which period, which
  workload grew, what cannot be met;
* a one-period pathway of one year is today's planning model: its net present cost is
  today's objective divided by the share of a year the horizon stands for (the horizon
  of 4 hours carries 4 / 8760 of every annuity; the pathway charges a whole year of
  them and scales the operational cost to a year), so the two are one LP, scaled;
* the discount weights are PyPSA's.
"""

from __future__ import annotations

import pytest
import scenario_builder as sb

from geomodel.api import solve
from geomodel.errors import GeomodelError
from geomodel.inputs.pathway import objective_weights, period_weights
from geomodel.pathway import solve_pathway
from geomodel.scenario import load_scenario
from geomodel.scenario.problems import ScenarioError
from geomodel.scenario.schema import Periods

H100, GB300 = "hgx_h100_8", "gb300_nvl72"


def small_site(**extra) -> dict:
    site = sb.site(systems=10, price=40.0, carbon=100.0, supply_mw=10.0)
    site.update(extra)
    return site


def test_bad_periods_are_reported_all_at_once_one_line_each(tmp_path):
    site = small_site()
    site["systems"] = {H100: 10, GB300: 2}
    data = sb.scenario(
        {"s": site},
        training={"pretrain": sb.training_job(10.0)},
        periods={
            "years": [2025, 2028, 2027],
            "lead_times": {"grid_connection": "9 years", "wnd": "1 year"},
            "retirements": [
                {"site": "s", "asset": H100, "year": 2024, "installed": 2025},
                {"site": "s", "asset": GB300, "year": 2030, "installed": 2024},
            ],
            "demand_growth": {"pretrian": 2.0},
            "carbon_price": [0, 1],
        },
    )
    with pytest.raises(ScenarioError) as raised:
        load_scenario(sb.write(tmp_path, data))
    got = {p.path: p.message for p in raised.value.problems}
    assert "periods must be in increasing order: 2027 comes after 2028" in got["periods.years[2]"]
    assert "longer than the horizon 2025-2028 (3 years)" in got["periods.lead_times.grid_connection"]
    assert "did you mean wind?" in got["periods.lead_times.wnd"]
    assert "retires in 2024, not after it was installed (2025)" in got["periods.retirements[0].year"]
    assert "can be bought from 2026" in got["periods.retirements[1].installed"]
    assert "can be bought from 2026" in got[f"sites.s.systems.{GB300}"]  # installed at the start
    assert "did you mean pretrain?" in got["periods.demand_growth.pretrian"]
    assert "one value per period (3), got 2" in got["periods.carbon_price"]
    assert len(raised.value.problems) == 8
    assert all(p.position is not None for p in raised.value.problems)  # every line is known


def test_growth_that_cannot_be_met_names_the_period_and_the_workload(tmp_path):
    """10 H100 servers and nothing to build: a 4-hour job of 40 EFLOP fits (80 chips x
    0.989 PFLOPS x 0.5 MFU x 4 h x 3.6 = 570 EFLOP at most), 100 x that in 2028 does not."""
    data = sb.scenario(
        {"s": small_site()},
        training={"pretrain": sb.training_job(40.0)},
        periods={"years": [2026, 2028], "demand_growth": {"pretrain": [1, 100]}},
    )
    result = solve_pathway(sb.write(tmp_path, data))
    assert not result.has_solution
    lines = [m for m in result.messages if m.startswith("period ")]
    assert lines and all(m.startswith("period 2028 (demand grown: pretrain x 100)") for m in lines)
    assert any("pretrain" in m.split(":", 1)[1] for m in lines), lines


def test_solve_refuses_a_pathway_and_says_what_solves_it(tmp_path):
    data = sb.scenario({"s": small_site()}, periods={"years": [2026]})
    with pytest.raises(GeomodelError, match="solve_pathway"):
        solve(sb.write(tmp_path, data))


@pytest.mark.parametrize("build", [False, True])
def test_a_one_year_pathway_is_todays_plan_scaled_to_a_year(tmp_path, build):
    site = small_site()
    if build:  # an H100 server at 100,000 USD, 4 years at 7 %, and 2 MW of facility
        site["build"] = {
            "systems": {H100: {"max": 40, "capex": "100000 USD"}},
            "power_envelope": {"max": "502 MW", "capex": "1 MUSD/MW"},
        }
    data = sb.scenario(
        {"s": site},
        # 900 EFLOP: more than the 10 installed servers do in 4 hours (570 EFLOP); 300 fits
        training={"pretrain": sb.training_job(900.0 if build else 300.0)},
        finance={"discount_rate": 0.07, "lifetimes": {"systems": "4 years", "facility": "20 years"}},
    )
    today = solve(sb.write(tmp_path, data, "today.yaml"))
    data["periods"] = {"years": [2025], "lead_times": {"facility": 0, "grid_connection": 0}}
    pathway = solve_pathway(sb.write(tmp_path, data, "pathway.yaml"))
    hours = 4
    assert pathway.kpis["net_present_cost_usd"] == pytest.approx(
        today.kpis["objective"] * 8760 / hours, rel=1e-7
    )
    if build:
        assert float(today.dataset["built_systems"].sum()) > 1  # the comparison builds
        (row,) = pathway.timeline().to_dict(orient="records")
        assert row["amount"] == pytest.approx(float(today.dataset["built_systems"].sum()), rel=1e-6)


def test_period_weights_and_discounting_are_pypsas():
    """Periods 2026, 2028, 2031: weights are the gaps 2, 3 and the last gap again, 3; at
    5 %: W = 1 + 1/1.05 = 1.952381; from 2028 1.05^-2 + 1.05^-3 + 1.05^-4 = 0.907029 +
    0.863838 + 0.822702 = 2.593569; from 2031 1.05^-5..-7 = 0.783526 + 0.746215 + 0.710681
    = 2.240422."""
    periods = Periods(years=[2026, 2028, 2031])
    weights = period_weights(periods)
    assert weights == [2.0, 3.0, 3.0]
    w = objective_weights(periods.years, weights, 0.05)
    assert w == pytest.approx([1.952381, 2.593569, 2.240422], rel=1e-6)
