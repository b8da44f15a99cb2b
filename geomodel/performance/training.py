"""Training step time on a hardware system: compute plus exposed communication.

A job of ``P`` parameters trains on ``N`` chips in the Megatron layout: tensor
parallel ``t`` inside a scale-up domain, ``p`` pipeline stages, context parallel ``c``
(each sequence split over ``c`` chips), ``d`` data-parallel replicas (as many whole ones as
``N`` holds; the chips left over idle and count against the MFU),
each step a global batch of ``G`` tokens split into micro-batches of one sequence of
``s`` tokens, ``m = G / (s d)`` per replica (a job that gives no ``G`` takes
:func:`default_batch_tokens`). Per step:

* **compute**: ``6 P G / (N F) + 6 L s a G / (N F_a)``, the weights' forward and
  backward work at the family's achievable share ``F`` of the chips' dense peak at the
  job's precision, plus causal attention (``L`` layers of attention width ``a``) at the
  same share of the BF16 peak (FP8 and FP4 recipes keep attention in BF16, NVIDIA
  Transformer Engine);
* **pipeline bubble**: ``(p - 1) / (m v)`` of the compute with ``v`` virtual stages per
  chip (the interleaved 1F1B schedule, one layer per virtual stage at most), plus the
  activations passed between stages over the scale-out network;
* **tensor parallelism**: four all-reduces of a micro-batch's activations per layer
  (two forward, two backward) over the scale-up network, not hidden;
* **context parallelism**: each layer gathers the other chips' keys and values forward
  and reduces their gradients backward (ring attention), not hidden;
* **data parallelism**: the gradients' reduce-scatter and the parameters' all-gather
  (distributed optimiser) over the scale-out network, hierarchically when replicas share
  a scale-up domain; only the last micro-batch's compute hides them, so the exposed
  part grows with scale at a fixed batch, as measured.

Model FLOPs utilisation ``MFU = 6 P G / (step N peak)`` (``P`` the active parameters of a
mixture of experts). The layout is the fastest one
whose weights, gradients, sharded optimiser state and activations fit the chips' HBM.
A job split over sites adds its gradient exchange over the DCI (:func:`dci_exchange_s`).
docs/compute.md derives each term.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

from geomodel.catalog.entries import HardwareSystem, Precision
from geomodel.catalog.language_models import LanguageModel
from geomodel.performance.constants import FamilyConstants, constants_for
from geomodel.performance.precision import ACTIVATION_BYTES

#: Width per layer of the models the shape rule follows (GPT-3 175B: 12288 / 96 = 128;
#: Llama 3.1 405B: 16384 / 126 = 130).
WIDTH_PER_LAYER = 128
#: Parameters of a dense transformer: about 12 L h^2 (Kaplan et al. 2020, eq. 2.1).
PARAMS_PER_LAYER_WIDTH2 = 12.0

#: Bytes per parameter a chip keeps: BF16 weights (2) and FP32 gradients (4), plus FP32
#: master weights and Adam moments (12) sharded over the data-parallel replicas
#: (Megatron's distributed optimiser; Rajbhandari et al. 2020, ZeRO stage 1).
UNSHARDED_BYTES_PER_PARAM = 6.0
SHARDED_BYTES_PER_PARAM = 12.0
#: Activations kept per layer and token with sequence parallelism and selective
#: recomputation: 34 h bytes / t (Korthikanti et al. 2022, "Reducing Activation
#: Recomputation in Large Transformer Models", section 5).
ACTIVATION_BYTES_PER_LAYER_TOKEN_WIDTH = 34.0
#: Share of HBM training may fill (the rest: workspace, fragmentation).
HBM_USABLE_SHARE = 0.9
#: Gradients are reduced in BF16.
GRADIENT_BYTES = 2.0

#: Defaults of a job that does not give its own (docs/scenarios.md).
DEFAULT_SEQUENCE_TOKENS = 8192
#: Llama 3.1 405B trained on batches of 16M tokens on 16,384 GPUs, about 1,024 tokens a
#: GPU (Llama Team 2024, sections 3.3.2 and 3.4.1): a job that gives no batch takes the
#: larger of the two for its chips, as a planner grows the batch with the cluster.
DEFAULT_BATCH_TOKENS = 16 * 2**20
DEFAULT_BATCH_TOKENS_PER_CHIP = 1024


def default_batch_tokens(chips: int) -> float:
    """Tokens per step of a job that gives none: 16M, or 1,024 a chip on more chips."""
    return float(max(DEFAULT_BATCH_TOKENS, DEFAULT_BATCH_TOKENS_PER_CHIP * chips))


TENSOR_PARALLEL_SIZES = (1, 2, 4, 8)
CONTEXT_PARALLEL_SIZES = (1, 2, 4)
#: Keys and values per layer and token of a model given by its parameters only: grouped-
#: query attention with 8 KV heads of 128, as Llama 3 and Mistral models have.
DEFAULT_KV_VALUES_PER_LAYER = 2 * 8 * 128


@dataclass(frozen=True)
class TrainingShape:
    """What the step model reads of a job: its parameters, depth, widths and batch."""

    params: float
    layers: int
    hidden_size: int
    attention_dim: int
    kv_values_per_layer: int = DEFAULT_KV_VALUES_PER_LAYER
    sequence_tokens: int = DEFAULT_SEQUENCE_TOKENS
    batch_tokens: float | None = None  #: None: :func:`default_batch_tokens` of the chips

    @classmethod
    def from_params(
        cls, params: float, active_params: float | None = None, **kwargs: Any
    ) -> TrainingShape:
        """A model of ``params`` shaped like GPT-3 and Llama 3: ``N = 12 L h^2`` with
        ``h = 128 L``, so ``L = (N / (12 x 128^2))^(1/3)``, ``N`` the parameters a token
        passes through (a mixture of experts is as deep and wide as its active part, as
        DeepSeek-V3's 37B active parameters in 61 layers of 7,168)."""
        shaped = active_params or params
        layers = max(1, round((shaped / (PARAMS_PER_LAYER_WIDTH2 * WIDTH_PER_LAYER**2)) ** (1 / 3)))
        width = WIDTH_PER_LAYER * layers
        return cls(params=params, layers=layers, hidden_size=width, attention_dim=width, **kwargs)

    @classmethod
    def from_model(cls, model: LanguageModel, **kwargs: Any) -> TrainingShape:
        """A catalogue model's shape (a mixture of experts trains its active parameters'
        compute; its memory is the total's)."""
        return cls(
            params=model.params,
            layers=model.layers,
            hidden_size=model.hidden_size,
            attention_dim=model.attention_dim,
            kv_values_per_layer=model.kv_values_per_token // model.layers,
            **kwargs,
        )


@dataclass(frozen=True)
class TrainingEstimate:
    """One job's step on one system and chip count: layout, time by part and MFU."""

    system: str
    chips: int
    precision: str
    feasible: bool
    reason: str
    tensor_parallel: int
    pipeline_parallel: int
    context_parallel: int
    data_parallel: int
    virtual_stages: int
    microbatches: float  #: sequences per replica per step
    step_s: float
    compute_s: float
    bubble_s: float
    tensor_parallel_s: float
    context_parallel_s: float
    pipeline_comm_s: float
    data_parallel_exposed_s: float
    mfu: float  #: 6 P G / (step x chips x dense peak at the precision)
    tokens_per_s: float
    family_fitted: bool

    def hours(self, tokens: float) -> float:
        """Wall-clock hours to train on ``tokens`` (no failures; goodput is separate)."""
        return tokens / self.tokens_per_s / 3600.0 if self.feasible else math.inf

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def training_estimate(
    shape: TrainingShape,
    system: HardwareSystem,
    chips: int,
    precision: Precision = "bf16",
    constants: FamilyConstants | None = None,
    active_params: float | None = None,
    tensor_parallel: int | None = None,
    pipeline_parallel: int | None = None,
    expert_parallel: int = 1,
) -> TrainingEstimate:
    """The fastest layout of a job on ``chips`` chips of ``system`` that fits its HBM.

    ``active_params`` (a mixture of experts) sets the compute; ``shape.params`` the
    memory and the gradient exchange. A given ``tensor_parallel`` or
    ``pipeline_parallel`` fixes that degree; ``expert_parallel`` spreads the experts
    of a mixture over that many data-parallel ranks inside the scale-up domain, at the
    cost of an all-to-all of the tokens before and after each expert layer.
    """
    constants = constants or constants_for(system)
    if shape.batch_tokens is None:
        shape = replace(shape, batch_tokens=default_batch_tokens(chips))
    base = {
        "system": system.name,
        "chips": int(chips),
        "precision": precision,
        "family_fitted": constants.fitted,
    }
    if not system.supports(precision):
        return _infeasible(base, f"{system.name} ({system.chip}) has no {precision.upper()} peak")
    peak = system.dense_pflops_per_chip(precision) * 1e15
    compute_params = active_params or shape.params
    best: TrainingEstimate | None = None
    moe = _Experts(shape.params, compute_params, expert_parallel)
    for t in (tensor_parallel,) if tensor_parallel else TENSOR_PARALLEL_SIZES:
        if t * expert_parallel > system.scale_up_domain_chips or t > chips:
            continue
        depths = (pipeline_parallel,) if pipeline_parallel else _pipeline_sizes(shape.layers, chips // t)
        for p in depths:
            for c in CONTEXT_PARALLEL_SIZES:
                # whole replicas (a multiple of the expert-parallel degree); the rest idle
                d = chips // (t * p * c) // expert_parallel * expert_parallel
                if d < 1:
                    continue
                layout = _Layout(t, p, c, d)
                estimate = _estimate(base, shape, system, chips, layout, peak, moe, constants)
                if estimate is not None and (best is None or estimate.step_s < best.step_s):
                    best = estimate
    if best is None:
        return _infeasible(base, _why_none(shape, system, chips))
    return best


def _pipeline_sizes(layers: int, most: int) -> list[int]:
    """Pipeline depths to try: powers of two up to the layers and the chips left."""
    return [2**k for k in range(int(math.log2(max(1, min(layers, most)))) + 1)]


@dataclass(frozen=True)
class _Experts:
    """How a job's parameters split into what every rank holds and what experts spread."""

    params: float
    active_params: float
    expert_parallel: int

    @property
    def per_rank_params(self) -> float:
        """Parameters one tensor-and-pipeline rank keeps, before dividing by t x p: the
        dense part, and the experts' part over the expert-parallel ranks."""
        return self.params - (self.params - self.active_params) * (1 - 1 / self.expert_parallel)


@dataclass(frozen=True)
class _Layout:
    t: int  #: tensor parallel
    p: int  #: pipeline stages
    c: int  #: context parallel
    d: int  #: data-parallel replicas


def _estimate(base, shape, system, chips, layout: _Layout, peak, moe: _Experts, constants):
    """The estimate of one layout, or None when it does not fit HBM or the batch."""
    t, p, c, d = layout.t, layout.p, layout.c, layout.d
    working = t * p * c * d  # chips beyond whole replicas idle
    microbatches = shape.batch_tokens / (shape.sequence_tokens * d)
    if microbatches < 1:
        return None
    tokens_per_chip = shape.sequence_tokens / (t * c)
    memory = (
        moe.per_rank_params / (t * p) * (UNSHARDED_BYTES_PER_PARAM + SHARDED_BYTES_PER_PARAM / (d * c))
        + ACTIVATION_BYTES_PER_LAYER_TOKEN_WIDTH * shape.hidden_size * shape.layers * tokens_per_chip
    )
    if memory > system.hbm_gb_per_chip * 1e9 * HBM_USABLE_SHARE:
        return None
    share = constants.training_flops_share
    attention_peak = min(peak, system.dense_pflops_per_chip("bf16") * 1e15)
    per_chip_tokens = shape.batch_tokens / working
    compute_s = per_chip_tokens * (
        6.0 * moe.active_params / (peak * share)
        + 6.0 * shape.layers * shape.sequence_tokens * shape.attention_dim / (attention_peak * share)
    )
    virtual = max(1, shape.layers // p) if p > 1 else 1
    bubble_s = compute_s * (p - 1) / (microbatches * virtual)
    out_bytes_s = system.scale_out_bandwidth_gbit_s_per_chip * 1e9 / 8.0
    up_bytes_s = system.scale_up_bandwidth_gbyte_s_per_chip * 1e9 / 2.0  # one way
    activation = shape.sequence_tokens / c * shape.hidden_size * ACTIVATION_BYTES
    layers_per_chip = shape.layers / p
    tensor_s = 0.0
    if t > 1:  # two all-reduces forward, two backward, per layer and micro-batch
        tensor_s = 4.0 * layers_per_chip * microbatches * 2.0 * (t - 1) / t * activation / up_bytes_s
    if moe.expert_parallel > 1:  # tokens to their experts and back, forward and backward
        e = moe.expert_parallel
        tensor_s += 4.0 * layers_per_chip * microbatches * (e - 1) / e * activation / t / up_bytes_s
    context_s = 0.0
    if c > 1:  # keys and values of the other chunks forward, their gradients backward
        kv = shape.sequence_tokens / c * shape.kv_values_per_layer * ACTIVATION_BYTES / t
        link = up_bytes_s if t * c <= system.scale_up_domain_chips else out_bytes_s
        context_s = 2.0 * layers_per_chip * microbatches * (c - 1) * kv / link
    # forward and backward activations between stages, every virtual stage, each rank its
    # shard: over the scale-up network when the stages share a domain (TPU pods, NVL72)
    stage_link = up_bytes_s if t * p * c <= system.scale_up_domain_chips else out_bytes_s
    pipeline_s = 0.0 if p == 1 else 2.0 * virtual * microbatches * activation / t / stage_link
    exposed_s = max(0.0, _data_parallel_s(moe, system, layout) - compute_s / microbatches)
    step_s = compute_s + bubble_s + tensor_s + context_s + pipeline_s + exposed_s
    return TrainingEstimate(
        **base,
        feasible=True,
        reason="",
        tensor_parallel=t,
        pipeline_parallel=p,
        context_parallel=c,
        data_parallel=d,
        virtual_stages=virtual,
        microbatches=microbatches,
        step_s=step_s,
        compute_s=compute_s,
        bubble_s=bubble_s,
        tensor_parallel_s=tensor_s,
        context_parallel_s=context_s,
        pipeline_comm_s=pipeline_s,
        data_parallel_exposed_s=exposed_s,
        mfu=6.0 * moe.active_params * shape.batch_tokens / (step_s * chips * peak),
        tokens_per_s=shape.batch_tokens / step_s,
    )


def _data_parallel_s(moe: _Experts, system, layout: _Layout) -> float:
    """Reduce-scatter of gradients and all-gather of parameters over the replicas (and the
    context-parallel chips, which hold the same weights): each moves ``(d - 1) / d`` of a
    chip's shard, so ``2 (d - 1) / d`` of it in all.

    Hierarchically, as NCCL does: the ``k`` replicas that share a scale-up domain exchange
    over its bus, then the ``d / k`` domains over the scale-out network, each chip with
    ``1 / k`` of its shard.
    """
    t, p, d = layout.t, layout.p, layout.d * layout.c
    if d == 1:
        return 0.0
    shard = moe.per_rank_params / (t * p) * GRADIENT_BYTES
    k = max(1, min(d, system.scale_up_domain_chips // (t * p)))
    groups = d / k
    up_bytes_s = system.scale_up_bandwidth_gbyte_s_per_chip * 1e9 / 2.0
    out_bytes_s = system.scale_out_bandwidth_gbit_s_per_chip * 1e9 / 8.0
    inside = 2.0 * (k - 1) / k * shard / up_bytes_s
    outside = 2.0 * (groups - 1) / groups * shard / k / out_bytes_s if groups > 1 else 0.0
    return inside + outside


def dci_exchange_s(gradient_gb: float, dci_gbit_s: float) -> float:
    """Seconds to exchange a job's gradients between two sites over ``dci_gbit_s``:
    about twice the gradient bytes cross the link per sync (docs/model.md (6))."""
    return 2.0 * gradient_gb * 8.0 / dci_gbit_s


def _why_none(shape: TrainingShape, system: HardwareSystem, chips: int) -> str:
    least = shape.params * (UNSHARDED_BYTES_PER_PARAM + SHARDED_BYTES_PER_PARAM / chips) / chips
    if least > system.hbm_gb_per_chip * 1e9 * HBM_USABLE_SHARE:
        return (
            f"{shape.params:.3g} parameters need {least / 1e9:,.1f} GB per chip on {chips:,} chips, "
            f"more than {system.name}'s {system.hbm_gb_per_chip:g} GB"
        )
    sequences = shape.batch_tokens / shape.sequence_tokens
    return (
        f"no layout of {chips:,} chips fits: a batch of {sequences:,.0f} sequences cannot give "
        "every data-parallel replica one, or the activations do not fit HBM"
    )


def _infeasible(base: dict, reason: str) -> TrainingEstimate:
    nan = math.nan
    return TrainingEstimate(
        **base,
        feasible=False,
        reason=reason,
        tensor_parallel=0,
        pipeline_parallel=0,
        context_parallel=0,
        data_parallel=0,
        virtual_stages=0,
        microbatches=nan,
        step_s=nan,
        compute_s=nan,
        bubble_s=nan,
        tensor_parallel_s=nan,
        context_parallel_s=nan,
        pipeline_comm_s=nan,
        data_parallel_exposed_s=nan,
        mfu=0.0,
        tokens_per_s=0.0,
    )
