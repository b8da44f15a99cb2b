"""Serving throughput of a language model on a hardware system: a roofline of both phases.

One model instance runs on ``t`` chips of one scale-up domain (tensor parallel; a
mixture of experts spreads its experts over the same chips). It serves a batch of
``b`` sequences by continuous batching, the way vLLM, SGLang and TensorRT-LLM do: every
step generates one token for each sequence in the batch and prefills the prompts of
the requests that replace those finishing, ``b / O`` of them per step on average.

* **Prefill** is compute-bound: ``2 A I + 2 L d I^2`` FLOP for a prompt of ``I``
  tokens (``A`` active parameters; ``L`` layers of attention width ``d``, causal), at
  the family's achievable share of the chips' dense peak (attention at most at the FP8
  rate: FP4 recipes quantise the linear layers only).
* **Decode** reads the weights once per step and every sequence's KV cache:
  ``max(W(b) / B, 2 A b / F) + b max(kv c / B, 4 L d c / F)``, ``B`` and ``F`` the
  instance's achievable HBM bandwidth and FLOPS, ``c = I + O / 2`` the mean context
  of a sequence during its decode, ``W(b)`` the weight bytes a batch reads (all of a
  dense model; for a mixture of experts the shared weights plus the experts its
  ``b`` tokens route to, ``1 - (1 - k/E)^b`` of them).
* **Tensor parallelism** (dense models) adds two all-reduces of the activations per
  layer and step over the scale-up network; a **mixture of experts** instead spreads its
  experts over the instance and runs attention data-parallel (as DeepSeek and SGLang
  serve them): each chip keeps the shared weights and sends its own tokens to their
  experts' chips and back.
* The batch grows until the KV caches fill the HBM the weights leave free, or until
  the time per output token (one step) or the time to first token (a prompt's
  prefill plus the step it waits for) reaches its limit; the largest batch within
  them gives the most tokens per second, and the instance size ``t`` is the one that
  gives the most output tokens per second per chip.

Output tokens per second per chip ``= b / (step x t)``. docs/compute.md derives each
term and lists what the model leaves out.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from geomodel.catalog.entries import HardwareSystem, Precision
from geomodel.catalog.language_models import LanguageModel
from geomodel.performance.constants import FamilyConstants, constants_for
from geomodel.performance.precision import ACTIVATION_BYTES, bytes_per_value

#: Share of HBM a serving engine may fill with weights and KV cache; the rest holds
#: activations, the runtime and fragmentation (vLLM's default
#: ``gpu_memory_utilization`` is 0.9).
HBM_USABLE_SHARE = 0.9

#: Fixed cost of one collective over the scale-up network (launch and synchronisation;
#: NCCL's small-message all-reduce on NVLink takes about 10 us) [estimate].
COLLECTIVE_LATENCY_S = 10e-6

#: Largest instance tried: beyond 64 chips one model copy gains nothing per chip.
MOST_TENSOR_PARALLEL = 64


@dataclass(frozen=True)
class ServingEstimate:
    """Throughput of one model on one system at the service's limits, and how it is set."""

    system: str
    model: str
    precision: str
    weight_precision: str
    kv_precision: str
    prompt_tokens: float
    output_tokens: float
    feasible: bool
    reason: str  #: why not, in words ("" when feasible)
    tensor_parallel: int  #: chips per model instance
    batch: int  #: sequences each instance serves at once
    output_tokens_per_s_per_chip: float
    requests_per_s_per_chip: float
    step_ms: float  #: one decode step with its share of prefill: the time per output token
    ttft_ms: float  #: prefill of a prompt plus the step it waits for
    prefill_ms: float  #: a prompt's prefill alone, on one instance
    batch_limit: str  #: what stopped the batch growing: hbm, tpot or ttft
    decode_bound: str  #: compute or memory: what sets the weight phase of a decode step
    hbm_fill: float  #: share of the instance's HBM weights and KV caches fill
    family_fitted: bool  #: the system's family has fitted constants (else defaults)

    @property
    def chips_per_token_s(self) -> float:
        """Chips for one output token per second."""
        return 1.0 / self.output_tokens_per_s_per_chip if self.feasible else math.inf

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "chips_per_token_s": self.chips_per_token_s}


@dataclass(frozen=True)
class _Instance:
    """The figures of one model instance on ``t`` chips that every step reads."""

    t: int
    flops: float  #: achievable FLOP/s of the weights' matrix work
    attention_flops: float  #: achievable FLOP/s of attention (at most the FP8 rate)
    bandwidth: float  #: achievable HBM bytes/s
    free_bytes: float  #: HBM left for KV caches
    hbm_bytes: float
    weight_bytes: float  #: the model's weights in their format (one copy)
    comm_s_per_token: float  #: tensor-parallel all-reduce time per token in a step
    comm_s_fixed: float  #: tensor-parallel collective latency per step


def serving_estimate(
    model: LanguageModel,
    system: HardwareSystem,
    prompt_tokens: float,
    output_tokens: float,
    precision: Precision = "fp8",
    kv_precision: Precision | None = None,
    weight_precision: Precision | None = None,
    ttft_ms: float | None = None,
    tpot_ms: float | None = None,
    constants: FamilyConstants | None = None,
) -> ServingEstimate:
    """Output tokens per second per chip of ``model`` on ``system`` within the limits.

    ``precision`` is the format of the matrix work and, unless ``weight_precision`` says
    otherwise (weight-only quantisation: FP4 weights widened to FP8 work), of the
    weights; the KV cache is kept in ``kv_precision`` (default: the work's format, FP8
    for FP4 work). Without ``ttft_ms`` and ``tpot_ms`` the batch is the
    throughput-optimal one (as large as HBM holds).
    """
    kv_precision = kv_precision or ("fp8" if precision == "fp4" else precision)
    weight_precision = weight_precision or precision
    constants = constants or constants_for(system)
    base = {
        "system": system.name,
        "model": model.name,
        "precision": precision,
        "weight_precision": weight_precision,
        "kv_precision": kv_precision,
        "prompt_tokens": float(prompt_tokens),
        "output_tokens": float(output_tokens),
        "family_fitted": constants.fitted,
    }
    problem = _unsupported(system, precision, prompt_tokens, output_tokens)
    if problem:
        return _infeasible(base, problem)
    limits = (
        math.inf if ttft_ms is None else ttft_ms / 1e3,
        math.inf if tpot_ms is None else tpot_ms / 1e3,
    )
    weight_bytes = model.params * bytes_per_value(weight_precision)
    kv_bytes = model.kv_values_per_token * bytes_per_value(kv_precision)
    best: ServingEstimate | None = None
    too_slow: list[ServingEstimate] = []  #: instances that fit HBM but miss a limit at batch 1
    for t in _tensor_parallel_sizes(system):
        instance = _instance(model, system, t, precision, weight_bytes, constants)
        if instance.free_bytes <= 0:
            continue
        estimate = _best_batch(base, model, instance, prompt_tokens, output_tokens, kv_bytes, limits)
        if estimate.reason == "latency":
            too_slow.append(estimate)
        elif estimate.feasible and (
            best is None or estimate.output_tokens_per_s_per_chip > best.output_tokens_per_s_per_chip
        ):
            best = estimate
    if best is not None:
        return best
    return _infeasible(base, _why_none(model, system, weight_bytes, weight_precision, too_slow, limits))


def _unsupported(system, precision, prompt_tokens, output_tokens) -> str:
    if not system.supports(precision):
        return f"{system.name} ({system.chip}) has no {precision.upper()} peak"
    if system.hbm_bandwidth_tbyte_s_per_chip is None:
        return f"{system.name} has no hbm_bandwidth_tbyte_s_per_chip in the catalogue"
    if not (prompt_tokens >= 0 and output_tokens >= 1):
        return f"prompt tokens {prompt_tokens:g} and output tokens {output_tokens:g} per request"
    return ""


def _tensor_parallel_sizes(system: HardwareSystem) -> list[int]:
    """Powers of two up to the scale-up domain (and the domain itself if smaller than 64)."""
    most = min(system.scale_up_domain_chips, MOST_TENSOR_PARALLEL)
    sizes = [2**k for k in range(int(math.log2(most)) + 1)]
    return sizes


def _instance(model, system, t, precision, weight_bytes, constants) -> _Instance:
    flops = t * system.dense_pflops_per_chip(precision) * 1e15 * constants.serving_flops_share
    attention_precision = "fp8" if precision == "fp4" else precision
    attention_flops = (
        t * system.dense_pflops_per_chip(attention_precision) * 1e15 * constants.serving_flops_share
    )
    bandwidth = t * system.hbm_bandwidth_tbyte_s_per_chip * 1e12 * constants.hbm_share
    hbm_bytes = t * system.hbm_gb_per_chip * 1e9 * HBM_USABLE_SHARE
    held_bytes = weight_bytes  # every chip a shard of a dense model
    comm_per_token, comm_fixed = 0.0, 0.0
    if t > 1:
        link_bytes_s = system.scale_up_bandwidth_gbyte_s_per_chip * 1e9 / 2.0  # one way
        activation = model.hidden_size * ACTIVATION_BYTES
        comm_fixed = 2 * model.layers * COLLECTIVE_LATENCY_S
        if model.is_mixture_of_experts:
            # attention data-parallel, experts spread: each chip keeps the shared weights and
            # sends its own tokens (1/t of the batch) to their k experts' chips and back
            held_bytes = weight_bytes * (model.expert_params + t * model.shared_params) / model.params
            routed = 2.0 * model.experts_per_token * activation * (t - 1) / t
            comm_per_token = model.layers * routed / t / link_bytes_s
        else:  # tensor parallel: two ring all-reduces of the activations per layer
            comm_per_token = 2 * model.layers * activation * 2.0 * (t - 1) / t / link_bytes_s
    return _Instance(
        t=t,
        flops=flops,
        attention_flops=attention_flops,
        bandwidth=bandwidth,
        free_bytes=hbm_bytes - held_bytes,
        hbm_bytes=hbm_bytes,
        weight_bytes=weight_bytes,
        comm_s_per_token=comm_per_token,
        comm_s_fixed=comm_fixed,
    )


def prefill_flop(model: LanguageModel, prompt_tokens: float) -> tuple[float, float]:
    """FLOP to prefill one prompt: (the weights' 2 A per token, causal attention 2 L d I^2)."""
    return (
        2.0 * model.active_params * prompt_tokens,
        2.0 * model.context_layers * model.attention_dim * prompt_tokens**2,
    )


def weight_bytes_read(model: LanguageModel, weight_bytes: float, batch: float, chips: int = 1) -> float:
    """Weight bytes one decode step reads on an instance of ``chips``: all of a dense
    model; for a mixture of experts each chip's copy of the shared weights and the
    experts ``batch`` tokens route to."""
    if not model.is_mixture_of_experts:
        return weight_bytes
    share = model.experts_per_token / model.experts
    touched = 1.0 - (1.0 - share) ** batch
    per_param = weight_bytes / model.params
    return per_param * (chips * model.shared_params + model.expert_params * touched)


@dataclass(frozen=True)
class _StepTimes:
    step_s: float  #: a decode step with its share of prefill
    prefill_s: float  #: one prompt's prefill
    ttft_s: float  #: a prompt's prefill (at least one read of the weights) plus one step
    compute_bound: bool  #: the weight phase of a step is compute-bound


def _times(model, instance: _Instance, batch, prompt_tokens, output_tokens, kv_bytes, weight_bytes):
    """The step times of an instance serving ``batch`` sequences."""
    context = prompt_tokens + output_tokens / 2.0
    weights_s = weight_bytes_read(model, weight_bytes, batch, instance.t) / instance.bandwidth
    matmul_s = 2.0 * model.active_params * batch / instance.flops
    attention_s = batch * max(
        kv_bytes * context / instance.bandwidth,
        4.0 * model.context_layers * model.decode_width * context / instance.attention_flops,
    )
    comm_s = instance.comm_s_fixed + instance.comm_s_per_token * batch
    weights_flop, attention_flop = prefill_flop(model, prompt_tokens)
    prefill_s = (
        weights_flop / instance.flops
        + attention_flop / instance.attention_flops
        + instance.comm_s_fixed
        + instance.comm_s_per_token * prompt_tokens
    )
    step_s = max(weights_s, matmul_s) + attention_s + comm_s + batch / output_tokens * prefill_s
    one_read_s = weight_bytes_read(model, weight_bytes, 1.0, instance.t) / instance.bandwidth
    alone_s = max(prefill_s, one_read_s)
    return _StepTimes(step_s, prefill_s, alone_s + step_s, matmul_s >= weights_s)


def _best_batch(base, model, instance, prompt_tokens, output_tokens, kv_bytes, limits):
    """The largest batch within HBM and the latency limits, and its estimate."""
    ttft_limit, tpot_limit = limits
    weight_bytes = instance.weight_bytes
    context_bytes = kv_bytes * (prompt_tokens + output_tokens / 2.0)
    most = int(instance.free_bytes // context_bytes)
    if most < 1:
        return _infeasible(base, f"{instance.t} chips leave no HBM for one sequence's KV cache")

    def times(batch: int) -> _StepTimes:
        return _times(model, instance, batch, prompt_tokens, output_tokens, kv_bytes, weight_bytes)

    def fits(batch: int) -> bool:
        at = times(batch)
        return at.step_s <= tpot_limit and at.ttft_s <= ttft_limit

    if not fits(1):
        at = times(1)
        return _infeasible(
            base, "latency", tensor_parallel=instance.t, ttft_ms=1e3 * at.ttft_s, step_ms=1e3 * at.step_s
        )
    low, high = 1, most  # the step grows with the batch: bisect for the largest that fits
    if fits(high):
        low = high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    batch, at = low, times(low)
    # what stops the batch growing: the HBM, or the limit the next sequence would miss
    limit = "hbm" if batch == most else "tpot" if times(batch + 1).step_s > tpot_limit else "ttft"
    per_chip = batch / (at.step_s * instance.t)
    return ServingEstimate(
        **base,
        feasible=True,
        reason="",
        tensor_parallel=instance.t,
        batch=batch,
        output_tokens_per_s_per_chip=per_chip,
        requests_per_s_per_chip=per_chip / output_tokens,
        step_ms=1e3 * at.step_s,
        ttft_ms=1e3 * at.ttft_s,
        prefill_ms=1e3 * at.prefill_s,
        batch_limit=limit,
        decode_bound="compute" if at.compute_bound else "memory",
        hbm_fill=(instance.hbm_bytes - instance.free_bytes + batch * context_bytes) / instance.hbm_bytes,
    )


def _why_none(model, system, weight_bytes, precision, too_slow, limits) -> str:
    """Why no instance serves: the weights fit no scale-up domain, or even one sequence
    misses a latency limit (the best TTFT and TPOT any instance size reaches)."""
    most = min(system.scale_up_domain_chips, MOST_TENSOR_PARALLEL)
    usable = most * system.hbm_gb_per_chip * HBM_USABLE_SHARE
    if not too_slow:
        return (
            f"{model.name} needs {weight_bytes / 1e9:,.0f} GB of weights in {precision.upper()} "
            f"and its KV cache, more than the {usable:,.0f} GB usable in {most} chips of "
            f"{system.name}'s scale-up domain"
        )
    ttft = min(too_slow, key=lambda e: e.ttft_ms)
    tpot = min(too_slow, key=lambda e: e.step_ms)
    ttft_limit, tpot_limit = (1e3 * limit for limit in limits)
    missed = []
    if ttft.ttft_ms > ttft_limit:
        missed.append(
            f"TTFT {ttft_limit:g} ms (best {ttft.ttft_ms:,.0f} ms, on {ttft.tensor_parallel} chips)"
        )
    if tpot.step_ms > tpot_limit:
        missed.append(
            f"TPOT {tpot_limit:g} ms (best {tpot.step_ms:,.1f} ms, on {tpot.tensor_parallel} chips)"
        )
    if not missed:  # each limit alone is reachable, not both on one instance size
        missed.append(f"TTFT {ttft_limit:g} ms and TPOT {tpot_limit:g} ms together")
    return f"even one request misses {' and '.join(missed)}"


def _infeasible(
    base: dict,
    reason: str,
    tensor_parallel: int = 0,
    ttft_ms: float = math.nan,
    step_ms: float = math.nan,
) -> ServingEstimate:
    return ServingEstimate(
        **base,
        feasible=False,
        reason=reason,
        tensor_parallel=tensor_parallel,
        batch=0,
        output_tokens_per_s_per_chip=0.0,
        requests_per_s_per_chip=0.0,
        step_ms=step_ms,
        ttft_ms=ttft_ms,
        prefill_ms=math.nan,
        batch_limit="",
        decode_bound="",
        hbm_fill=math.nan,
    )
