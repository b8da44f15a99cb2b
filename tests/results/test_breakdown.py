"""Energy, emissions and cost by job, service, idle chips and DCI add up to the KPIs
(issue 15, item 5): checked by hand on a tiny scenario and on every example scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
import scenario_builder as sb
from test_hand_derived import dci_scenario

from geomodel.api import solve
from geomodel.results.breakdown import breakdown_table

#: pathways (a ``periods`` section) are solved by solve_pathway: tests/model/test_pathway_*.py
EXAMPLES = [
    p
    for p in sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.yaml"))
    if not sb.is_pathway_file(p)
]
KPI_OF = {"energy_mwh": "energy_mwh", "emissions_tco2": "emissions_tco2", "cost_usd": "cost_usd"}


def test_the_rows_by_hand(tmp_path, catalog):
    # One hour, one fibre pair, binary spans: the 1,200-chip job runs at dear (tests/model
    # test_dci_capacity...). PUE 1.2 at both sites; cheap's power costs 30 USD/MWh, dear's
    # 60; both 100 kgCO2e/MWh.
    #   job:  1.2 x 1,200 working chips x training kW                 at dear
    #   idle: 1.2 x 800 idle chips x idle kW at cheap + 1.2 x 400 x idle kW at dear
    #   DCI:  the link's transceivers, capacity x W per Gb/s, half at each end
    h100 = sb.server_figures(catalog)  # catalogue figures: inputs, not outputs
    result = sb.run(tmp_path, dci_scenario(1, participation=True), catalog)
    assert result.status == "optimal", result.messages
    link = catalog.link_technology("smf_800zr")
    link_mw = link.capacity_gbit_s_per_fibre_pair * link.transceiver_power_w_per_gbit_s / 1e6
    job_mwh = 1.2 * 1200 * h100.training_kw / 1000
    idle_cheap, idle_dear = 1.2 * 800 * h100.idle_kw / 1000, 1.2 * 400 * h100.idle_kw / 1000
    table = breakdown_table(result.dataset).set_index("name")
    assert table.loc["pretrain", "energy_mwh"] == pytest.approx(job_mwh, rel=1e-6)
    assert table.loc["pretrain", "cost_usd"] == pytest.approx(60 * job_mwh, rel=1e-6)
    assert table.loc["pretrain", "emissions_tco2"] == pytest.approx(0.1 * job_mwh, rel=1e-6)
    assert table.loc["idle chips", "energy_mwh"] == pytest.approx(idle_cheap + idle_dear, rel=1e-6)
    assert table.loc["idle chips", "cost_usd"] == pytest.approx(
        30 * idle_cheap + 60 * idle_dear, rel=1e-6
    )
    assert table.loc["DCI links", "energy_mwh"] == pytest.approx(link_mw, rel=1e-6)
    assert table.loc["DCI links", "cost_usd"] == pytest.approx(30 * link_mw / 2 + 60 * link_mw / 2)
    by_site = result.dataset["idle_energy_mwh"].to_series()
    assert by_site["cheap"] == pytest.approx(idle_cheap, rel=1e-6)
    assert table["energy_mwh"].sum() == pytest.approx(result.kpis["energy_mwh"], rel=1e-9)
    # no carbon price: the objective is the energy cost
    assert table["cost_usd"].sum() == pytest.approx(result.kpis["objective"], rel=1e-6)


#: examples solved on coarser steps: trace-week's 2,500 jobs over 168 hourly steps are a
#: MIP of a few minutes on a loaded machine (binary site use of its 668 lone jobs); 4-hour
#: steps keep its sites, jobs and windows, and the bookkeeping checked here is the same;
#: the flagship's year on 3 typical days of 3 segments (as tests/model/test_plan_flagship.py)
#: keeps every site, job, service and build option at a tenth of its 30 s solve
COARSER = {
    "trace-week.yaml": ["time.resolution=4 h"],
    "plan-100k-gpu.yaml": ["time.aggregation.typical_days=3", "time.aggregation.segments=3"],
}


@pytest.fixture(scope="module", params=EXAMPLES, ids=lambda p: p.name)
def example(request, catalog):
    return solve(request.param, overrides=COARSER.get(request.param.name), catalog=catalog)


def test_every_example_reconciles_with_its_kpis(example):
    assert example.status in ("optimal", "time_limit"), example.messages
    table = breakdown_table(example.dataset)
    for column, kpi in KPI_OF.items():
        assert table[column].sum() == pytest.approx(example.kpis[kpi], rel=1e-9), column
    assert (table["energy_mwh"].dropna() >= -1e-9).all(), table  # data moved has no site MWh
    kinds = set(table["kind"])
    assert {"overhead"} <= kinds and {"idle chips", "DCI links"} <= set(table["name"])
    # the idle row is the idle power of chips not working, from chip counts (not from the
    # model's IT power): PUE x idle kW x (installed chips - working chips) x hours
    data, inputs = example.dataset, example.inputs
    step_hours = inputs["weight"] * inputs["dt_hours"]
    working_chip_hours = (data["training_chips"] * inputs["job_weight"] * inputs["dt_hours"]).sum(
        "job"
    ) + data["inference_chips"].sum("service") * step_hours  # a job works in its window only
    # chips powered on: installed ones, unless the scenario sheds idle power (trace-week)
    idle_chip_hours = data["chips_powered_on"] * step_hours - working_chip_hours
    idle_kwh = (idle_chip_hours * inputs["idle_power_kw_per_chip"]).sum("system")  # (site, time)
    expected = float((idle_kwh * inputs["pue"]).sum()) / 1000  # PUE may vary by site and hour
    assert table.set_index("name").loc["idle chips", "energy_mwh"] == pytest.approx(expected, rel=1e-6)
    for variable in ("idle_energy_mwh", "dci_cost_usd", "job_energy_mwh", "unattributed_cost_usd"):
        assert data[variable].attrs["units"] and data[variable].attrs["description"]


def test_built_chips_count_as_idle_or_working_in_planning_mode(tmp_path, catalog):
    # the two-site planning scenario (tests/model/test_planning_optima.py) builds all its
    # chips: 100 servers of 8 H100 for a job of 800 chips in both hours, so the idle row
    # is 0 and the job's row is the facility energy but the DCI pair's; energy is free.
    from test_planning_optima import two_site_scenario

    h100 = sb.server_figures(catalog)
    result = sb.run(tmp_path, two_site_scenario(1000.0), catalog)
    table = breakdown_table(result.dataset).set_index("name")
    assert table.loc["idle chips", "energy_mwh"] == pytest.approx(0.0, abs=1e-9)
    job_mwh = 800 * h100.training_kw / 1000 * 1.2 * 2  # PUE 1.2 (scenario_builder), 2 hours
    assert table.loc["pretrain", "energy_mwh"] == pytest.approx(job_mwh, rel=1e-6)
    assert table["energy_mwh"].sum() == pytest.approx(result.kpis["energy_mwh"], rel=1e-9)
