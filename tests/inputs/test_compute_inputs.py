"""The performance model in the inputs Dataset: service rates, job MFU, job pools."""

from __future__ import annotations

import pytest
import yaml

from geomodel.inputs.build import build_inputs
from geomodel.performance.serving import serving_estimate
from geomodel.performance.training import TrainingShape, training_estimate
from geomodel.scenario import load_scenario
from geomodel.tools.reliability import goodput_factor

SITE = {
    "lat": 39.04,
    "lon": -77.49,
    "power_envelope": "50 MW",
    "pue": 1.2,
    "systems": {"hgx_h200_8": 16, "gb200_nvl72": 2},
    "power_sources": {"nuclear": {"capacity": "50 MW", "price": "40 USD/MWh"}},
}


def build(tmp_path, training=None, inference=None, regions=None, files=None):
    data = {
        "time": {"start": "2025-01-01T00:00:00+00:00", "hours": 4},
        "sites": {"va": SITE},
        "training": training or {},
        "inference": inference or {},
        "regions": regions or {},
    }
    for name, text in (files or {}).items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return build_inputs(load_scenario(path))


def test_a_service_gets_the_rooflines_rate_on_each_system(tmp_path, catalog):
    service = {"model": "llama2-70b", "prompt_tokens": 1000, "output_tokens": 200, "sla": "50 ms"}
    inputs = build(
        tmp_path,
        inference={"chat": service},
        regions={"dc": {"lat": 38.9, "lon": -77.0, "demand": {"chat": "1e5 token/s"}}},
    )
    model = catalog.language_model("llama2-70b")
    for system in ("hgx_h200_8", "gb200_nvl72"):
        expected = serving_estimate(model, catalog.hardware_system(system), 1000, 200)
        rate = inputs["service_tokens_per_s_per_chip"].sel(service="chat", system=system).item()
        assert rate == pytest.approx(expected.output_tokens_per_s_per_chip)
        batch = inputs["service_batch"].sel(service="chat", system=system).item()
        assert batch == expected.batch


def test_a_demand_in_requests_is_times_the_output_tokens(tmp_path):
    service = {"model": "llama2-70b", "prompt_tokens": 1000, "output_tokens": 200, "sla": "50 ms"}
    inputs = build(
        tmp_path,
        inference={"chat": service},
        regions={"dc": {"lat": 38.9, "lon": -77.0, "demand": {"chat": "30 request/s"}}},
    )
    # 30 requests/s x 200 output tokens = 6,000 output tokens/s
    assert inputs["demand_tokens_per_s"].values.ravel() == pytest.approx([6000.0] * 4)


def test_token_lengths_from_a_table_are_its_means(tmp_path):
    table = "ContextTokens,GeneratedTokens\n1000,100\n3000,300\n"
    service = {
        "model": "llama2-70b",
        "token_lengths": {
            "file": "req.csv",
            "prompt_column": "ContextTokens",
            "output_column": "GeneratedTokens",
        },
        "sla": "50 ms",
    }
    inputs = build(
        tmp_path,
        inference={"chat": service},
        regions={"dc": {"lat": 38.9, "lon": -77.0, "demand": {"chat": "1e4 token/s"}}},
        files={"req.csv": table},
    )
    assert inputs["service_prompt_tokens"].item() == 2000.0
    assert inputs["service_output_tokens"].item() == 200.0


def test_a_job_gets_the_step_models_mfu_at_its_size(tmp_path, catalog):
    job = {"model": "llama3.1-70b", "tokens": 1e12, "max_chips": 128, "precision": "fp8"}
    inputs = build(tmp_path, training={"pre": job})
    model = catalog.language_model("llama3.1-70b")
    shape = TrainingShape.from_model(model)
    for system in ("hgx_h200_8", "gb200_nvl72"):
        expected = training_estimate(shape, catalog.hardware_system(system), 128, "fp8")
        assert inputs["mfu"].sel(job="pre", system=system).item() == pytest.approx(expected.mfu)
    # the work is 6 x active parameters x tokens
    assert inputs["work_eflop"].item() == pytest.approx(6 * 70.6e9 * 1e12 / 1e18)


def test_jobs_of_the_same_case_share_its_mfu_and_others_get_their_own(tmp_path, catalog):
    # the MFU of equal jobs is computed once: each must still be its own size's estimate
    job = {"model": "llama3.1-70b", "tokens": 1e12, "max_chips": 128, "precision": "fp8"}
    # b differs from a only in its restart time (its own class, the same MFU case)
    training = {"a": job, "b": dict(job, restart="20 min"), "c": dict(job, max_chips=256)}
    inputs = build(tmp_path, training=training)
    shape = TrainingShape.from_model(catalog.language_model("llama3.1-70b"))
    h200 = catalog.hardware_system("hgx_h200_8")
    mfu = inputs["mfu"].sel(system="hgx_h200_8")
    at_128 = training_estimate(shape, h200, 128, "fp8").mfu
    at_256 = training_estimate(shape, h200, 256, "fp8").mfu
    assert at_128 != pytest.approx(at_256)
    assert mfu.sel(job="a").item() == pytest.approx(at_128)
    assert mfu.sel(job="b").item() == pytest.approx(at_128)
    assert mfu.sel(job="c").item() == pytest.approx(at_256)


def test_a_pools_members_each_have_their_own_goodput_and_mfu(tmp_path, catalog):
    # 4 jobs, half of 8 chips and half of 64: work in proportion to chips (equal durations)
    job = {"compute": "1e21 FLOP", "pool": {"jobs": 4, "sizes": {8: 0.5, 64: 0.5}}}
    inputs = build(tmp_path, training={"exp": job})
    members = inputs["member_max_chips"].values.tolist()
    assert sorted(members) == [8, 8, 64, 64]
    # work shares 8 : 8 : 64 : 64 of 1000 EFLOP
    assert sorted(inputs["member_work_eflop"].values.tolist()) == pytest.approx(
        [1000 * 8 / 144, 1000 * 8 / 144, 1000 * 64 / 144, 1000 * 64 / 144]
    )
    h200 = catalog.hardware_system("hgx_h200_8")
    by_class = dict(zip(inputs["member_class"].values.tolist(), members, strict=True))
    for j, chips in by_class.items():
        goodput = inputs["goodput"].isel(job=j).sel(system="hgx_h200_8").item()
        # every member computed one by one: its own size's goodput (default checkpoint: none
        # given, 0 GB; restart 10 min)
        assert goodput == pytest.approx(goodput_factor(h200, int(chips), 0.0, 10.0))
    mfus = {
        chips: inputs["mfu"].isel(job=j).sel(system="hgx_h200_8").item() for j, chips in by_class.items()
    }
    assert mfus[8] != mfus[64]  # never one giant job: each size has its own MFU
