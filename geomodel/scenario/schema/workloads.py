"""Work to place: training jobs and inference services."""

from __future__ import annotations

from datetime import datetime

import pandas as pd
from pydantic import Field, model_validator

from geomodel.catalog.entries import Precision
from geomodel.scenario.schema.compute import JobPool, ModelShape
from geomodel.scenario.schema.fields import Count, Fraction, Name, Section, Timestamp
from geomodel.scenario.schema.time import TimeSpec
from geomodel.scenario.units import Quantity


class Window(Section):
    """When a job may run (clipped to the horizon)."""

    start: Timestamp | None = Field(
        default=None,
        description="earliest start (default: start of the horizon)",
        examples=["2025-07-01T12:00:00-05:00"],
    )
    end: Timestamp | None = Field(
        default=None,
        description="deadline, exclusive (default: end of the horizon)",
        examples=["2025-07-02T12:00:00-05:00"],
    )

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if self.start and self.end and self.start >= self.end:
            raise ValueError(f"window start {self.start} must be before end {self.end}")
        return self


class TrainingJob(Section):
    """A training run measured in FLOP, with its parallel layout and constraints."""

    compute: Quantity("EFLOP", gt=0) | None = Field(
        default=None,
        description="total training compute (1 EFLOP = 1e18 FLOP); or give params and tokens",
        examples=["2e24 FLOP"],
    )
    model: Name | None = Field(
        default=None,
        description="catalogue language model trained (its parameters and shape; instead of 'params')",
        examples=["llama3.1-405b"],
    )
    params: float | None = Field(
        default=None,
        gt=0,
        description="model parameters N (compute = 6·N·D; default with 'compute' alone: the "
        "compute-optimal sqrt(C / 120), docs/compute.md)",
        examples=[70e9],
        json_schema_extra={"unit": "parameters"},
    )
    active_params: float | None = Field(
        default=None,
        gt=0,
        description="parameters a token passes through, for a mixture of experts (compute = "
        "6·active·D; default: params)",
        examples=[37e9],
        json_schema_extra={"unit": "parameters"},
    )
    tokens: float | None = Field(
        default=None,
        gt=0,
        description="training tokens D (compute = 6·N·D)",
        examples=[15e12],
        json_schema_extra={"unit": "tokens"},
    )
    tp: Count = Field(
        default=1,
        ge=1,
        description="tensor-parallel degree",
        examples=[8],
        json_schema_extra={"unit": "chips"},
    )
    ep: Count = Field(
        default=1,
        ge=1,
        description="expert-parallel degree",
        examples=[8],
        json_schema_extra={"unit": "chips"},
    )
    pp: Count = Field(
        default=1,
        ge=1,
        description="pipeline-parallel degree",
        examples=[4],
        json_schema_extra={"unit": "stages"},
    )
    max_chips: Count | None = Field(
        default=None,
        gt=0,
        description="most chips at any time (default: all installed)",
        examples=[40000],
        json_schema_extra={"unit": "chips"},
    )
    gpu_hours: float | None = Field(
        default=None,
        gt=0,
        description="work as chip-hours on 'system' at this job's MFU: compute = gpu_hours x the "
        "system's dense peak x mfu (docs/scenarios.md, job tables)",
        examples=[120000],
        json_schema_extra={"unit": "chip-h"},
    )
    chip_hours: float | None = Field(
        default=None,
        gt=0,
        description="work as chip-hours on any system alike (speed differences ignored)",
        examples=[5000],
        json_schema_extra={"unit": "chip-h"},
    )
    system: Name | None = Field(
        default=None,
        description="hardware system 'gpu_hours' were measured on (needed with gpu_hours)",
        examples=["hgx_h100_8"],
    )
    min_chips: Count | None = Field(
        default=None,
        gt=0,
        description="chips the job keeps in every step of its window (an elastic job that never "
        "pauses; default: it may pause)",
        examples=[512],
        json_schema_extra={"unit": "chips"},
    )
    mfu: Fraction | None = Field(
        default=None,
        description="model FLOPs utilisation, a flat override (default: the performance model's "
        "at the job's size on each system, docs/compute.md)",
        examples=[0.45],
    )
    precision: Precision = Field(
        default="bf16",
        description="number format of the peak FLOPS used (fp4, fp8, bf16, int8)",
        examples=["fp8"],
    )
    sequence_length: Count = Field(
        default=8192,
        gt=0,
        description="tokens per training sequence",
        examples=[2048],
        json_schema_extra={"unit": "tokens"},
    )
    batch_tokens: float | None = Field(
        default=None,
        gt=0,
        description="tokens per optimiser step (global batch; default: 16M, as Llama 3.1 405B, or "
        "1,024 a chip on more than 16,384 chips)",
        examples=[4e6],
        json_schema_extra={"unit": "tokens"},
    )
    pool: JobPool | None = Field(
        default=None,
        description="a population of jobs sharing this work, each at its own size (not one "
        "giant job); max_chips is then each member's size",
        examples=[{"jobs": 400, "sizes": {64: 0.6, 512: 0.3, 4096: 0.1}}],
    )
    window: Window | None = Field(
        default=None,
        description="when the job may run (default: the whole horizon)",
        examples=[{"end": "2025-07-02T12:00:00-05:00"}],
    )
    sites: list[Name] | None = Field(
        default=None, description="allowed sites (default: all)", examples=[["abilene", "ashburn"]]
    )
    jurisdictions: list[str] | None = Field(
        default=None,
        description="allowed site jurisdictions, for data residency (default: all)",
        examples=[["US"]],
    )
    origin: Name | None = Field(
        default=None,
        description="site where the job's data lives; running elsewhere moves 'data_size' "
        "(see data_movement)",
        examples=["ashburn"],
    )
    data_size: Quantity("GB", ge=0) = Field(
        default=0.0,
        description="data moved to any other site the job runs at",
        examples=["2 TB"],
    )
    gradient_size: Quantity("GB", gt=0) | None = Field(
        default=None,
        description="gradient bytes per data-parallel sync (default: 2 B/param); needed only "
        "when the job may span sites joined by a link",
        examples=["140 GB"],
    )
    sync_interval: Quantity("s", gt=0) = Field(
        default=10.0, description="time between gradient synchronisations", examples=["8 s"]
    )
    checkpoint_size: Quantity("GB", gt=0) | None = Field(
        default=None, description="checkpoint size (default: 14 B/param)", examples=["980 GB"]
    )
    checkpoint_bandwidth: Quantity("GB/s", gt=0) = Field(
        default=100.0, description="checkpoint write bandwidth", examples=["200 GB/s"]
    )
    restart: Quantity("min", ge=0) = Field(
        default=10.0, description="time to restart after a failure", examples=["15 min"]
    )
    pipeline_latency_budget: Quantity("ms", gt=0) | None = Field(
        default=None,
        description="most one-way link latency a pipeline stage may cross "
        "(none: stages stay in one site)",
        examples=["1 ms"],
    )
    synchronous: bool = Field(
        default=True,
        description="one synchronous data-parallel run: at each step it uses only sites joined "
        "pairwise by links that carry its gradient exchange (false: a pool of independent "
        "experiments, each at one site, which may run at any sites at once with no exchange "
        "between them)",
        examples=[False],
    )

    @model_validator(mode="after")
    def _work(self) -> TrainingJob:
        if self.model is not None and self.params is not None:
            raise ValueError("give 'model' or 'params', not both ('model' has its parameters)")
        if self.tokens is not None and self.params is None and self.model is None:
            raise ValueError("'tokens' needs 'params' or 'model' (compute = 6 x params x tokens)")
        if self.active_params is not None and (self.params is None or self.active_params > self.params):
            raise ValueError("'active_params' needs 'params' at least as large")
        if self.pool is not None and self.max_chips is not None:
            raise ValueError("a pool's members have their own sizes: leave out 'max_chips'")
        has_nd = (self.params is not None or self.model is not None) and self.tokens is not None
        given = [
            name
            for name, value in (
                ("compute", self.compute),
                ("params and tokens", has_nd or None),
                ("gpu_hours", self.gpu_hours),
                ("chip_hours", self.chip_hours),
            )
            if value is not None
        ]
        if not given:
            raise ValueError(
                "give 'compute' or both 'params' and 'tokens' "
                "(or the work as 'gpu_hours' or 'chip_hours')"
            )
        if len(given) > 1:
            raise ValueError(f"give the work once, not as {' and '.join(given)}")
        if self.gpu_hours is not None and self.system is None:
            raise ValueError("'gpu_hours' needs 'system', the hardware they were measured on")
        if self.min_chips is not None and self.max_chips is not None and self.min_chips > self.max_chips:
            raise ValueError(f"min_chips {self.min_chips} is above max_chips {self.max_chips}")
        return self

    @property
    def compute_eflop(self) -> float | None:
        """Work in EFLOP when given as FLOP or as 6 x (active) params x tokens (Kaplan et
        al. 2020); None when it is given in chip-hours or through a catalogue model (the
        catalogue converts those)."""
        if self.compute is not None:
            return self.compute
        if self.params is not None and self.tokens is not None:
            return 6.0 * (self.active_params or self.params) * self.tokens / 1e18
        return None

    @property
    def group_chips(self) -> int:
        """Chips in one TP x EP group, which must sit inside a scale-up domain."""
        return self.tp * self.ep

    @property
    def gradient_gb(self) -> float | None:
        """Gradient bytes per sync: as given, or 2 bytes (BF16) per parameter; None if neither."""
        if self.gradient_size is not None:
            return self.gradient_size
        return 2.0 * self.params / 1e9 if self.params is not None else None

    @property
    def checkpoint_gb(self) -> float:
        """Checkpoint size: as given, or 14 bytes per parameter (see docs/scenarios.md)."""
        if self.checkpoint_size is not None:
            return self.checkpoint_size
        return 14.0 * self.params / 1e9 if self.params else 0.0


class TokenLengths(Section):
    """Prompt and output tokens per request from a table, such as a trace's requests."""

    file: str = Field(
        description="CSV (may be gzipped) with one row per request, relative to the scenario file",
        examples=["data/azure-llm-2023-conv.csv.gz"],
    )
    prompt_column: str = Field(
        default="prompt_tokens", description="column of prompt tokens", examples=["ContextTokens"]
    )
    output_column: str = Field(
        default="output_tokens", description="column of output tokens", examples=["GeneratedTokens"]
    )


class InferenceService(Section):
    """A model served to users: what it is, what a request asks of it, and its SLAs."""

    model: Name | ModelShape | None = Field(
        default=None,
        description="the language model served: a catalogue name (`geomodel plugins`) or its "
        "shape inline; the performance model turns it into tokens/s per chip (docs/compute.md)",
        examples=["llama3.1-70b"],
    )
    prompt_tokens: Quantity("token", ge=0) | None = Field(
        default=None, description="mean prompt tokens per request", examples=[1020]
    )
    output_tokens: Quantity("token", ge=1) | None = Field(
        default=None, description="mean output tokens per request", examples=[129]
    )
    token_lengths: TokenLengths | None = Field(
        default=None,
        description="prompt and output tokens per request as a table; their means are used",
        examples=[{"file": "data/requests.csv"}],
    )
    sla: Quantity("ms", gt=0) = Field(
        description="round-trip network latency limit from a user region", examples=["25 ms"]
    )
    ttft: Quantity("ms", gt=0) | None = Field(
        default=None, description="time to first token limit (default: none)", examples=["2000 ms"]
    )
    tpot: Quantity("ms", gt=0) | None = Field(
        default=None, description="time per output token limit (default: none)", examples=["50 ms"]
    )
    precision: Precision = Field(
        default="fp8",
        description="number format of the weights and of the matrix work",
        examples=["fp4"],
    )
    kv_precision: Precision | None = Field(
        default=None,
        description="number format of the KV cache (default: the weights', FP8 for FP4 weights)",
        examples=["fp8"],
    )
    efficiency: Fraction | None = Field(
        default=None,
        description="flat override: achieved fraction of peak FLOPS at 2 x active parameters per "
        "output token, prompts free (default: the performance model)",
        examples=[0.25],
    )
    flop_per_token: Quantity("FLOP", gt=0) | None = Field(
        default=None,
        description="compute per output token, with 'efficiency' (without a model)",
        examples=["74e9 FLOP"],
    )
    active_params: float | None = Field(
        default=None,
        gt=0,
        description="active parameters per token, with 'efficiency' (without a model): "
        "2 x active_params FLOP per output token",
        examples=[37e9],
        json_schema_extra={"unit": "parameters"},
    )
    systems: list[Name] | None = Field(
        default=None, description="allowed hardware systems (default: all)", examples=[["gb200_nvl72"]]
    )

    @model_validator(mode="after")
    def _compute(self) -> InferenceService:
        flat = [n for n in ("flop_per_token", "active_params") if getattr(self, n) is not None]
        means = [n for n in ("prompt_tokens", "output_tokens") if getattr(self, n) is not None]
        if means and self.token_lengths is not None:
            raise ValueError(f"give the tokens per request once: {means[0]} or token_lengths")
        if len(means) == 1:
            missing = ({"prompt_tokens", "output_tokens"} - set(means)).pop()
            raise ValueError(f"'{means[0]}' needs '{missing}' too")
        if self.model is not None:
            if flat:
                raise ValueError(f"'model' gives the compute: leave out {' and '.join(flat)}")
            if self.efficiency is None and not means and self.token_lengths is None:
                raise ValueError(
                    "the performance model needs the tokens per request: 'prompt_tokens' and "
                    "'output_tokens', or 'token_lengths'"
                )
            return self
        if len(flat) != 1:
            raise ValueError(
                "give 'model' (the performance model), or 'efficiency' with exactly one of "
                "'flop_per_token' or 'active_params' (the flat override)"
            )
        if self.efficiency is None:
            raise ValueError(
                f"'{flat[0]}' alone does not say how fast a chip serves: name the 'model' "
                "(performance model, docs/compute.md) or give 'efficiency' (flat override)"
            )
        return self

    @property
    def flop_per_token_value(self) -> float | None:
        """Flat compute per output token (None: a model gives it)."""
        if self.flop_per_token is not None:
            return self.flop_per_token
        return 2.0 * self.active_params if self.active_params is not None else None

    @property
    def modelled(self) -> bool:
        """Throughput comes from the performance model (else from the flat efficiency)."""
        return self.model is not None and self.efficiency is None


def window_bounds(job: TrainingJob, time: TimeSpec) -> tuple[datetime, datetime]:
    """The job's window clipped to the horizon."""
    start = time.start
    end = time.start + pd.Timedelta(hours=time.horizon_hours)
    if job.window is not None:
        start = max(start, job.window.start or start)
        end = min(end, job.window.end or end)
    return start, end
