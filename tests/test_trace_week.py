"""scenarios/trace-week.yaml: its statistics, its generated table, its sites, its variants.

The digitised Helios statistics are checked against figures the paper's artifact
publishes in another form (analysis/1_compare with Philly trace/helios_cluster_summary.csv,
row Saturn: 698,896 GPU jobs, median GPU-job run time 124 s, median GPUs 1) over
the trace's six months (April to September 2020, 183 days).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

import geomodel
from geomodel.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "scenarios" / "data"
SCENARIO = REPO / "scenarios" / "trace-week.yaml"
sys.path.insert(0, str(DATA))

import make_trace_week  # noqa: E402  (the committed generator, a script beside its data)

SATURN_GPU_JOBS = 698_896
TRACE_DAYS = 183  # 2020-04-01 to 2020-09-30
SATURN_MEDIAN_RUN_S = 124.0


@pytest.fixture(scope="module")
def statistics() -> dict[str, pd.DataFrame]:
    return make_trace_week.statistics()


def test_the_digitised_statistics_agree_with_the_papers_summary(statistics):
    submissions = statistics["submissions"]["value"]
    # mean of the 24 hourly means = the trace's GPU jobs per hour: 698,896 / (183 x 24) = 159.1
    assert submissions.mean() == pytest.approx(SATURN_GPU_JOBS / (TRACE_DAYS * 24), rel=0.02)
    durations = statistics["duration_cdf"].set_index("x")["value"]
    # the median run time (124 s) lies between the CDF's points at 64 s and 128 s
    assert durations[64] < 50 < durations[128]
    gpus = statistics["gpus_cdf"].set_index("x")["value"]
    assert gpus[1] > 50  # median GPUs per job: 1
    assert list(durations.index) == [2**i for i in range(22)]
    assert (durations.diff().dropna() >= 0).all() and (gpus.diff().dropna() >= 0).all()


def test_the_generator_makes_the_committed_table(tmp_path):
    made = make_trace_week.draw_jobs()
    committed = pd.read_csv(DATA / "trace-week-jobs.csv")
    out = tmp_path / "jobs.csv"
    made.to_csv(out, index=False, lineterminator="\n")
    assert out.read_bytes() == (DATA / "trace-week-jobs.csv").read_bytes()
    assert len(committed) == 2500
    # every job ends within the week, and uses at most 64 GPUs
    arrival = (pd.to_datetime(committed["arrival"]) - make_trace_week.START).dt.total_seconds() / 3600
    assert (arrival + committed["duration_h"] <= 168 + 1e-6).all()
    assert committed["chips"].max() == 64


def test_each_site_has_the_servers_its_own_jobs_need(catalog):
    scenario = load_scenario(SCENARIO, catalog=catalog)
    servers = make_trace_week.servers_per_site(pd.read_csv(DATA / "trace-week-jobs.csv"))
    assert {name: site.systems["hgx_h100_8"] for name, site in scenario.sites.items()} == servers
    assert {name: site.utilisation for name, site in scenario.sites.items()} == dict.fromkeys(
        servers, make_trace_week.AVAILABILITY
    )


@pytest.mark.parametrize(
    "variant", ["local_only", "geographic", "temporal", "always_on", "carbon_price_100"]
)
def test_every_variant_loads(catalog, variant):
    scenario = load_scenario(SCENARIO, variants=[variant], catalog=catalog)
    jobs = scenario.origin.job_tables["trace"]
    assert len(jobs) == 2500
    if variant in ("local_only", "temporal"):
        assert (jobs.allowed.sum(axis=1) == 1).all()  # its origin only


def test_local_only_runs_every_job_where_and_when_it_was_submitted(catalog):
    result = geomodel.solve(SCENARIO, variants=["local_only"], catalog=catalog)
    assert result.ok, result.messages
    assert result.kpis["transfer_gb"] == 0
    work = result.dataset["member_work_eflop"]
    origin = result.inputs["job_origin"].values[result.inputs["member_class"].values]
    at_origin = work.values[range(work.shape[0]), origin]
    assert at_origin == pytest.approx(result.inputs["member_work_eflop"].values, rel=1e-6)
