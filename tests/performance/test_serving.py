"""The serving roofline against hand-derived figures.

Every test runs at shares of 1 (the chip's full peak and bandwidth) unless it says
otherwise, so the figures are the datasheet's: H100 SXM 1.979 PFLOPS FP8 dense, 3.35 TB/s,
80 GB (72 GB usable at 90 %); H200 the same compute with 4.8 TB/s and 141 GB.
Llama 2 70B: 68.98e9 parameters, 80 layers, attention width 64 x 128 = 8192, KV cache 2 x
80 x 8 x 128 = 163,840 numbers a token.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geomodel.performance.constants import FamilyConstants
from geomodel.performance.serving import prefill_flop, serving_estimate, weight_bytes_read

FULL = FamilyConstants(
    "test", serving_flops_share=1.0, hbm_share=1.0, training_flops_share=1.0, fitted_on=""
)
H100_FP8 = 1.979e15
H100_BW = 3.35e12


@pytest.fixture(scope="module")
def llama(catalog):
    return catalog.language_model("llama2-70b")


def one_chip(catalog, name):
    """A system whose instances are one chip (scale-up domain 1), to hand-derive a step."""
    return catalog.hardware_system(name).model_copy(update={"scale_up_domain_chips": 1})


def test_a_decode_step_of_70b_fp8_on_one_h100_is_its_weight_bytes_over_bandwidth(catalog, llama):
    # 2 output tokens, no prompt: mean context 1 token, nothing to prefill. The step is
    # max(68.98e9 B / 3.35e12 B/s, 2 x 68.98e9 b / 1.979e15) + b x 163,840 B / 3.35e12:
    # weights dominate until b ~ 295; a TPOT of 21 ms holds b while
    # 0.069712 b + 0.0000489 b <= 21 (ms) once compute leads: b = 301.
    estimate = serving_estimate(
        llama, one_chip(catalog, "hgx_h100_8"), 0, 2, precision="fp8", tpot_ms=21, constants=FULL
    )
    weights_ms = 68.98e9 / H100_BW * 1e3
    assert weights_ms == pytest.approx(20.591, abs=1e-3)
    per_sequence_ms = (2 * 68.98e9 / H100_FP8 + 163_840 / H100_BW) * 1e3
    assert estimate.batch == math.floor(21 / per_sequence_ms) == 301
    assert estimate.batch_limit == "tpot"
    assert estimate.step_ms == pytest.approx(301 * per_sequence_ms, rel=1e-9)
    assert estimate.output_tokens_per_s_per_chip == pytest.approx(301 / (301 * per_sequence_ms / 1e3))


def test_while_weights_dominate_a_step_grows_only_by_the_caches_read(catalog, llama):
    # weights 68.98e9 B / 3.35e12 = 20.5910 ms a step whatever the batch (compute below it up
    # to b ~ 295); each sequence adds its cache, 163,840 B / 3.35e12 = 48.907 ns. A TPOT of
    # 20.6 ms leaves 0.00896 ms: 183 sequences.
    estimate = serving_estimate(
        llama, one_chip(catalog, "hgx_h100_8"), 0, 2, precision="fp8", tpot_ms=20.6, constants=FULL
    )
    weights_ms, cache_ms = 68.98e9 / H100_BW * 1e3, 163_840 / H100_BW * 1e3
    assert estimate.batch == math.floor((20.6 - weights_ms) / cache_ms) == 183
    assert estimate.step_ms == pytest.approx(weights_ms + 183 * cache_ms, rel=1e-9)
    assert estimate.decode_bound == "memory"


def test_a_prefill_of_1000_tokens(llama):
    # weights 2 x 68.98e9 x 1000 = 1.3796e14 FLOP; causal attention 2 x 80 x 8192 x 1000^2
    weights, attention = prefill_flop(llama, 1000)
    assert weights == pytest.approx(1.3796e14)
    assert attention == pytest.approx(1.31072e12)


def test_the_prefill_time_is_its_flop_at_peak(catalog, llama):
    estimate = serving_estimate(
        llama, one_chip(catalog, "hgx_h100_8"), 1000, 2, precision="fp8", constants=FULL
    )
    # both parts at the FP8 peak (attention runs at FP8 for FP8 work)
    assert estimate.prefill_ms == pytest.approx((1.3796e14 + 1.31072e12) / H100_FP8 * 1e3, rel=1e-9)


def test_a_mixture_reads_the_experts_its_batch_routes_to(catalog):
    mixtral = catalog.language_model("mixtral-8x7b")
    # experts' parameters: (46.7e9 - 12.9e9) / (1 - 2/8) = 45.0667e9; shared 1.6333e9
    assert mixtral.expert_params == pytest.approx(33.8e9 / 0.75)
    assert mixtral.shared_params == pytest.approx(46.7e9 - 33.8e9 / 0.75)
    # one token routes to 2 of 8 experts: it reads exactly its active parameters
    assert weight_bytes_read(mixtral, 46.7e9, 1) == pytest.approx(12.9e9)
    # four tokens touch 1 - (6/8)^4 = 68.36 % of the experts
    assert weight_bytes_read(mixtral, 46.7e9, 4) == pytest.approx(
        mixtral.shared_params + mixtral.expert_params * (1 - 0.75**4)
    )
    assert weight_bytes_read(mixtral, 46.7e9, 10_000) == pytest.approx(46.7e9)


def test_the_batch_is_what_hbm_holds_after_the_weights(catalog, llama):
    # H200, one chip: 141 GB x 0.9 = 126.9 GB usable, 68.98 GB of FP8 weights, 57.92 GB free;
    # 1000 prompt + 300 output tokens: mean context 1150 x 163,840 B = 188.416 MB a sequence
    estimate = serving_estimate(
        llama, one_chip(catalog, "hgx_h200_8"), 1000, 300, precision="fp8", constants=FULL
    )
    assert estimate.batch == math.floor((126.9e9 - 68.98e9) / (1150 * 163_840)) == 307
    assert estimate.batch_limit == "hbm"
    assert estimate.hbm_fill == pytest.approx((68.98e9 + 307 * 1150 * 163_840) / 126.9e9)


def test_a_ttft_limit_binds_on_the_wait_for_the_running_step(catalog, llama):
    # TTFT = prefill alone (1000 tokens: 70.37 ms at peak) + one step; a limit of 120 ms
    # leaves at most 49.6 ms for the step
    system = one_chip(catalog, "hgx_h200_8")
    estimate = serving_estimate(llama, system, 1000, 300, precision="fp8", ttft_ms=120, constants=FULL)
    prefill_ms = (1.3796e14 + 1.31072e12) / H100_FP8 * 1e3
    assert estimate.batch_limit == "ttft"
    assert estimate.ttft_ms == pytest.approx(prefill_ms + estimate.step_ms)
    assert estimate.ttft_ms <= 120
    wider = serving_estimate(llama, system, 1000, 300, precision="fp8", ttft_ms=200, constants=FULL)
    assert wider.batch > estimate.batch


def test_limits_no_system_can_reach_say_the_best_it_does(catalog, llama):
    estimate = serving_estimate(llama, catalog.hardware_system("hgx_h100_8"), 1000, 300, tpot_ms=1)
    assert not estimate.feasible
    assert "misses TPOT 1 ms (best" in estimate.reason


def test_a_model_too_big_for_the_domain_says_the_gigabytes(catalog):
    model = catalog.language_model("llama3.1-405b")
    estimate = serving_estimate(
        model, catalog.hardware_system("hgx_h100_8"), 1000, 100, precision="bf16"
    )
    # 405.9e9 x 2 bytes = 812 GB against 8 x 80 x 0.9 = 576 GB
    assert not estimate.feasible
    assert "812 GB" in estimate.reason and "576 GB" in estimate.reason


def test_fp4_asked_of_a_chip_without_it(catalog, llama):
    estimate = serving_estimate(llama, catalog.hardware_system("hgx_h100_8"), 100, 100, precision="fp4")
    assert not estimate.feasible and "has no FP4 peak" in estimate.reason


def test_more_bandwidth_serves_more_where_memory_binds(catalog, llama):
    # H200 and H100 have the same compute; with a tight TPOT the step is mostly memory
    h100 = serving_estimate(llama, catalog.hardware_system("hgx_h100_8"), 220, 290, tpot_ms=40)
    h200 = serving_estimate(llama, catalog.hardware_system("hgx_h200_8"), 220, 290, tpot_ms=40)
    assert h200.output_tokens_per_s_per_chip > 1.1 * h100.output_tokens_per_s_per_chip


@settings(max_examples=25, deadline=None)
@given(
    prompt=st.floats(0, 8000),
    output=st.floats(1, 2000),
    tpot=st.floats(5, 500),
)
def test_a_looser_limit_never_serves_less(catalog, llama, prompt, output, tpot):
    system = catalog.hardware_system("hgx_h200_8")
    tight = serving_estimate(llama, system, prompt, output, tpot_ms=tpot)
    loose = serving_estimate(llama, system, prompt, output, tpot_ms=tpot * 1.5)
    assert loose.output_tokens_per_s_per_chip >= tight.output_tokens_per_s_per_chip * (1 - 1e-9)
    if tight.feasible:
        assert tight.step_ms <= tpot * (1 + 1e-9)
