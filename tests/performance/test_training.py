"""The training step model against hand-derived figures and measured trends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geomodel.performance.constants import FamilyConstants
from geomodel.performance.jobs import compute_optimal_params
from geomodel.performance.training import TrainingShape, training_estimate

FULL = FamilyConstants(
    "test", serving_flops_share=1.0, hbm_share=1.0, training_flops_share=1.0, fitted_on=""
)


def test_one_server_of_data_parallel_replicas_by_hand(catalog):
    # 1e9 parameters, 16 layers of width 2048, sequences of 512, a batch of 16,384 tokens
    # on 8 H100 (BF16 0.989 PFLOPS, NVLink 900 GB/s both ways): t = p = c = 1, d = 8, m = 4.
    shape = TrainingShape(
        params=1e9,
        layers=16,
        hidden_size=2048,
        attention_dim=2048,
        sequence_tokens=512,
        batch_tokens=16_384,
    )
    e = training_estimate(
        shape,
        catalog.hardware_system("hgx_h100_8"),
        8,
        "bf16",
        FULL,
        tensor_parallel=1,
        pipeline_parallel=1,
    )
    assert (e.tensor_parallel, e.pipeline_parallel, e.context_parallel, e.data_parallel) == (1, 1, 1, 8)
    peak = 0.989e15
    # compute: 2,048 tokens a chip x (6e9 / peak + 6 x 16 x 512 x 2048 / peak) = 12.63 ms
    compute_s = 2048 * (6e9 / peak + 6 * 16 * 512 * 2048 / peak)
    assert e.compute_s == pytest.approx(compute_s)
    # gradients 2e9 B a chip, all 8 replicas on one NVLink domain: 2 x 7/8 x 2e9 / 450e9 =
    # 7.78 ms, less the last micro-batch's compute (compute / 4 = 3.16 ms) that hides it
    exchange_s = 2 * 7 / 8 * 2e9 / 450e9
    assert exchange_s > compute_s / 4
    assert e.data_parallel_exposed_s == pytest.approx(exchange_s - compute_s / 4)
    step_s = compute_s + exchange_s - compute_s / 4
    assert e.step_s == pytest.approx(step_s)
    assert e.mfu == pytest.approx(6e9 * 16_384 / (step_s * 8 * peak))


def test_the_bubble_is_stages_less_one_over_microbatches_and_virtual_stages(catalog):
    shape = TrainingShape(
        params=7e9,
        layers=32,
        hidden_size=4096,
        attention_dim=4096,
        sequence_tokens=4096,
        batch_tokens=2**21,
    )
    e = training_estimate(
        shape, catalog.hardware_system("hgx_h100_8"), 64, "bf16", tensor_parallel=8, pipeline_parallel=4
    )
    # d = 64 / 32 = 2 replicas, m = 2^21 / (4096 x 2) = 256 micro-batches, v = 32 / 4 = 8
    assert (e.data_parallel, e.microbatches, e.virtual_stages) == (2, 256, 8)
    assert e.bubble_s == pytest.approx(e.compute_s * 3 / (256 * 8))


def test_mfu_falls_with_scale_at_a_fixed_batch_as_measured(catalog):
    # MLPerf GPT-3 175B on H100 (FP8): 0.41-0.43 of peak at 256-512 GPUs, 0.27 at 11,616
    # (bench/data/mlperf/training.csv); the model falls the same way
    gpt3 = catalog.language_model("gpt3-175b")
    h100 = catalog.hardware_system("hgx_h100_8")
    mfu = {
        n: training_estimate(
            TrainingShape.from_model(gpt3, sequence_tokens=2048, batch_tokens=batch * 2048),
            h100,
            n,
            "fp8",
        ).mfu
        for n, batch in ((512, 2048), (11_616, 2904))
    }
    assert mfu[512] == pytest.approx(0.42, abs=0.05)
    assert mfu[11_616] == pytest.approx(0.27, abs=0.05)


def test_a_mixture_computes_its_active_parameters(catalog):
    shape = TrainingShape(params=47e9, layers=32, hidden_size=4096, attention_dim=4096)
    dense = training_estimate(shape, catalog.hardware_system("gb200_nvl72"), 512, "bf16")
    moe = training_estimate(
        shape, catalog.hardware_system("gb200_nvl72"), 512, "bf16", active_params=13e9, expert_parallel=8
    )
    assert moe.tokens_per_s > 2 * dense.tokens_per_s  # 13e9 of 47e9 parameters' work


def test_a_job_too_big_for_its_chips_says_the_gigabytes(catalog):
    shape = TrainingShape.from_params(1e12)
    e = training_estimate(shape, catalog.hardware_system("hgx_h100_8"), 8, "bf16")
    assert not e.feasible
    assert "GB per chip" in e.reason


def test_the_compute_optimal_size_is_the_square_root_of_compute_over_120():
    # Chinchilla: D = 20 N, C = 6 N D = 120 N^2; 70B trained on 1.4T tokens: C = 5.88e23
    assert compute_optimal_params(5.88e23) == pytest.approx(70e9)


def test_the_shape_rule_gives_gpt3_its_depth():
    # P = 12 L h^2 with h = 128 L: GPT-3 175B has 96 layers of 12,288
    shape = TrainingShape.from_params(175e9)
    assert (shape.layers, shape.hidden_size) == (96, 12288)


@settings(max_examples=20, deadline=None)
@given(chips=st.sampled_from([64, 256, 1024, 4096]))
def test_more_chips_never_raise_mfu_at_a_fixed_batch(catalog, chips):
    shape = TrainingShape.from_params(70e9, batch_tokens=4 * 2**20)
    system = catalog.hardware_system("hgx_h100_8")
    fewer = training_estimate(shape, system, chips, "bf16")
    more = training_estimate(shape, system, chips * 2, "bf16")
    if fewer.feasible and more.feasible:
        assert more.mfu <= fewer.mfu * (1 + 1e-9)
        assert more.tokens_per_s >= fewer.tokens_per_s * (1 - 1e-9)
