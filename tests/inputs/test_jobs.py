"""Training jobs in the inputs Dataset: units, classes, transfer prices; hand-derived.

Catalogue inputs: HGX H100 0.989 PFLOPS and GB200 2.5 PFLOPS dense BF16 per chip.
"""

from __future__ import annotations

import pytest
import yaml

from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario

H100, GB200 = 0.989, 2.5


def scenario(tmp_path, training: dict, sites: dict | None = None, **extra):
    sites = sites or {
        "va": {"lat": 39.04, "lon": -77.49, "systems": {"hgx_h100_8": 10}},
        "va2": {"lat": 38.9, "lon": -77.0, "systems": {"gb200_nvl72": 1}},
    }
    for site in sites.values():
        site.update(power_envelope="50 MW", pue=1.2)
        site.setdefault("power_sources", {"nuclear": {"capacity": "50 MW", "price": "40 USD/MWh"}})
    data = {
        "time": {"start": "2025-01-01T00:00:00+00:00", "hours": 6},
        "sites": sites,
        "training": training,
        **extra,
    }
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return build_inputs(load_scenario(path))


def test_gpu_hours_convert_through_the_named_systems_peak_and_the_mfu(tmp_path):
    inputs = scenario(tmp_path, {"j": {"gpu_hours": 100, "system": "hgx_h100_8", "mfu": 0.5}})
    # 100 GPU-h x 0.989 PFLOPS x 0.5 x 3.6 EFLOP per PFLOPS-hour = 178.02 EFLOP
    assert inputs["work_eflop"].item() == pytest.approx(100 * H100 * 0.5 * 3.6)
    # the job runs at each system's own peak: faster on GB200
    assert inputs["job_pflops_per_chip"].sel(system="gb200_nvl72").item() == pytest.approx(GB200)


def test_chip_hours_count_alike_on_every_system(tmp_path):
    inputs = scenario(tmp_path, {"j": {"chip_hours": 100, "system": "hgx_h100_8"}})
    # every system runs the job at the named system's peak: 100 chip-hours anywhere
    assert inputs["job_pflops_per_chip"].values.ravel().tolist() == pytest.approx([H100, H100])
    assert inputs["work_eflop"].item() == pytest.approx(100 * H100 * 0.4 * 3.6)


def test_jobs_that_may_span_linked_sites_stay_alone(tmp_path):
    jobs = {
        name: {"gpu_hours": 8, "system": "hgx_h100_8", "max_chips": 8, "gradient_size": "1 GB"}
        for name in ("a", "b")
    }
    apart = scenario(tmp_path, jobs)
    assert apart["job"].values.tolist() == ["a+1"]  # no links: one class
    linked = scenario(tmp_path, jobs, links={"mesh": {"technology": "smf_800zr"}})
    assert linked["job"].values.tolist() == ["a", "b"]
    assert linked["job_needs_span"].values.tolist() == [True, True]


def test_a_job_larger_than_a_usable_site_stays_alone_with_its_site_use_rows(tmp_path):
    # va has 80 H100 chips x 0.97 availability = 77.6; a job of 100 chips could need both
    # sites at once, so the one-site-at-a-time rows can bind and it keeps them
    jobs = {n: {"chip_hours": 100, "max_chips": 100} for n in ("a", "b")}
    inputs = scenario(tmp_path, jobs)
    assert inputs["job"].values.tolist() == ["a", "b"]
    assert inputs["job_needs_span"].values.tolist() == [True, True]


def test_a_lone_job_with_two_usable_sites_gets_site_use_unless_relaxed(tmp_path):
    # 8 chips fit either site and no link joins them: the LP rows (6) could never bind, but
    # binary site use (exact, relax_fix) must keep the run at one site a step
    job = {"j": {"gpu_hours": 8, "system": "hgx_h100_8", "max_chips": 8}}
    for participation, needs in (("exact", True), ("relax_fix", True), ("relaxed", False)):
        inputs = scenario(tmp_path, job, solver={"participation": participation})
        assert inputs["job_needs_span"].values.tolist() == [needs], participation
        assert inputs["job_synchronous"].values.tolist() == [True]


def test_a_class_of_several_jobs_and_a_pool_are_not_one_synchronous_run(tmp_path):
    # two interchangeable jobs merge into a class: a pool of independent runs, no site use
    # variables and no gradient exchange between sites; so is a job declared a pool
    jobs = {n: {"gpu_hours": 8, "system": "hgx_h100_8", "max_chips": 8} for n in ("a", "b")}
    merged = scenario(tmp_path, jobs)
    assert merged["job"].values.tolist() == ["a+1"]
    assert merged["job_synchronous"].values.tolist() == [False]
    assert merged["job_needs_span"].values.tolist() == [False]
    pool = {"p": {"gpu_hours": 8, "system": "hgx_h100_8", "gradient_size": "1 GB", "synchronous": False}}
    inputs = scenario(tmp_path, pool, links={"mesh": {"technology": "smf_800zr"}})
    assert inputs["job_synchronous"].values.tolist() == [False]
    assert inputs["job_needs_span"].values.tolist() == [False]
    assert inputs["dp_traffic_gbit_s"].values.tolist() == [0.0]


def test_site_participation_is_now_solver_participation(tmp_path):
    from geomodel.scenario.problems import ScenarioError

    job = {"j": {"gpu_hours": 8, "system": "hgx_h100_8"}}
    with pytest.raises(ScenarioError, match=r"solver\.participation"):
        scenario(tmp_path, job, solver={"integer": {"site_participation": True}})


def test_transfer_prices_follow_the_distance_class(tmp_path):
    sites = {
        "va": {"lat": 39.04, "lon": -77.49, "systems": {"hgx_h100_8": 1}},
        "ca": {"lat": 37.4, "lon": -121.9, "systems": {"hgx_h100_8": 1}},  # ~3,900 km: same continent
        "de": {"lat": 50.11, "lon": 8.68, "systems": {"hgx_h100_8": 1}},  # ~6,500 km: intercontinental
    }
    job = {"j": {"chip_hours": 1, "max_chips": 8}}
    inputs = scenario(tmp_path, job, sites=sites)
    price = inputs["transfer_usd_per_gb"]
    assert price.sel(site="va", to_site="ca").item() == pytest.approx(0.02)
    assert price.sel(site="va", to_site="de").item() == pytest.approx(0.05)
    assert price.sel(site="va", to_site="va").item() == 0.0
    # 0.00375 kWh/GB x mean of the two ends' carbon (nuclear default of both) / 1000
    assert inputs["transfer_kwh_per_gb"].sel(site="ca", to_site="de").item() == pytest.approx(0.00375)
    fixed = scenario(tmp_path, job, sites=sites, data_movement={"price": "1 USD/TB"})
    assert fixed["transfer_usd_per_gb"].sel(site="va", to_site="de").item() == pytest.approx(0.001)


def test_every_default_figure_is_documented_with_its_source_type():
    """docs/catalogues.md's data-movement table lists each figure of the defaults table."""
    from pathlib import Path

    from geomodel.inputs.data_movement import default_figures

    doc = (Path(__file__).parents[2] / "docs" / "catalogues.md").read_text(encoding="utf-8")
    section = doc.split("## Data movement")[1]
    rows = [row for rows in default_figures().values() for row in rows]
    assert len(rows) == 5
    for row in rows:
        value = float(row["value"])
        shown = f"{value:,.0f}" if value >= 100 else f"{value:g}"
        assert f"| {shown} {row['unit']} |" in section, row
        assert f"| {row['source_type']} |" in section, row
        assert row["source"], row


def test_a_cap_that_cannot_bind_gets_no_rows(tmp_path):
    # one H100 chip-hour at MFU 0.4 is 0.989 x 0.4 x 3.6 = 1.424 EFLOP; 8 chips for one
    # hour give 11.4 EFLOP: a job of 8 GPU-hours fits one step at its cap, one of 9 does not
    # (restart 0 and no checkpoint: goodput 1)
    jobs = {
        "fits": {"gpu_hours": 8, "system": "hgx_h100_8", "max_chips": 8, "restart": 0},
        "longer": {"gpu_hours": 9, "system": "hgx_h100_8", "max_chips": 8, "restart": 0},
    }
    inputs = scenario(tmp_path, jobs)
    assert dict(zip(inputs["job"].values, inputs["job_cap_binds"].values, strict=True)) == {
        "fits": False,
        "longer": True,
    }
