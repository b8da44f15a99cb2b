"""What the performance model reads of a workload: a model's shape and a pool of jobs."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from geomodel.catalog.language_models import LanguageModel
from geomodel.scenario.schema.fields import Count, Section

#: Parameter counts are plain numbers (``70e9``); a bound keeps typos out.
Parameters = Annotated[float, Field(gt=0, le=1e14, json_schema_extra={"unit": "parameters"})]


class ModelShape(Section):
    """A language model described inline, as its published configuration gives it.

    The fields follow a Hugging Face ``config.json``: ``num_hidden_layers``,
    ``hidden_size``, ``num_attention_heads``, ``head_dim``, ``num_key_value_heads``.
    """

    params: Parameters = Field(description="total parameters", examples=[70e9])
    active_params: Parameters | None = Field(
        default=None,
        description="parameters a token passes through (default: all, a dense model)",
        examples=[13e9],
    )
    layers: Count = Field(
        gt=0,
        le=1000,
        description="transformer layers",
        examples=[80],
        json_schema_extra={"unit": "layers"},
    )
    hidden_size: Count = Field(
        gt=0, description="model width", examples=[8192], json_schema_extra={"unit": "values"}
    )
    attention_heads: Count = Field(
        gt=0, description="query heads", examples=[64], json_schema_extra={"unit": "heads"}
    )
    head_dim: Count = Field(
        default=128,
        gt=0,
        description="width of one head",
        examples=[128],
        json_schema_extra={"unit": "values"},
    )
    kv_heads: Count | None = Field(
        default=None,
        gt=0,
        description="key-value heads (grouped-query attention; default: one per query head)",
        examples=[8],
        json_schema_extra={"unit": "heads"},
    )
    kv_latent_dim: Count | None = Field(
        default=None,
        gt=0,
        description="numbers cached per layer and token by latent attention (DeepSeek's MLA: "
        "512 + 64); replaces kv_heads",
        examples=[576],
        json_schema_extra={"unit": "values"},
    )
    experts: Count = Field(
        default=1,
        ge=1,
        description="routed experts per layer",
        examples=[8],
        json_schema_extra={"unit": "experts"},
    )
    experts_per_token: Count = Field(
        default=1,
        ge=1,
        description="routed experts each token uses",
        examples=[2],
        json_schema_extra={"unit": "experts"},
    )

    @model_validator(mode="after")
    def _consistent(self) -> ModelShape:
        active = self.active_params if self.active_params is not None else self.params
        if active > self.params:
            raise ValueError(f"active_params {active:g} exceeds params {self.params:g}")
        if self.experts_per_token > self.experts:
            raise ValueError(
                f"experts_per_token {self.experts_per_token} exceeds experts {self.experts}"
            )
        if self.experts == 1 and active != self.params:
            raise ValueError("a model with active_params below params needs 'experts' (a mixture)")
        if self.kv_heads is not None and self.kv_latent_dim is not None:
            raise ValueError("give kv_heads (grouped-query attention) or kv_latent_dim, not both")
        return self

    def language_model(self, name: str) -> LanguageModel:
        """The catalogue entry this shape describes, named after the service or job."""
        return LanguageModel.from_config(
            name=name.lower(),
            source="the scenario",
            source_type="estimate",
            **self.model_dump(exclude_none=True),
        )


class JobPool(Section):
    """A population of jobs sharing one budget of work, each at its own size.

    A pool is never one giant job: each member has its own chips, and so its own
    goodput and MFU (docs/scenarios.md, "Job pools"). The work is split over the
    members in proportion to their chips (equal durations) or, with a size table that
    has a ``gpu_hours`` column, in proportion to those.
    """

    jobs: Count = Field(
        gt=0,
        le=1_000_000,
        description="number of jobs",
        examples=[400],
        json_schema_extra={"unit": "jobs"},
    )
    sizes: dict[Count, Annotated[float, Field(gt=0)]] | None = Field(
        default=None,
        description="chips per job -> share of the jobs (shares are normalised)",
        examples=[{64: 0.5, 512: 0.35, 4096: 0.15}],
    )
    sizes_file: str | None = Field(
        default=None,
        description="CSV of a job-size distribution (columns 'chips' and 'jobs', optional "
        "'gpu_hours'), relative to the scenario file",
        examples=["data/philly-job-sizes.csv"],
    )
    scale: Annotated[float, Field(gt=0, le=100_000)] = Field(
        default=1.0,
        description="multiplier on every size (a trace of 8-GPU jobs as 128-chip jobs: 16)",
        examples=[16],
        json_schema_extra={"unit": "1"},
    )

    @model_validator(mode="after")
    def _one_distribution(self) -> JobPool:
        if (self.sizes is None) == (self.sizes_file is None):
            raise ValueError("give the job sizes once: 'sizes' or 'sizes_file'")
        if self.sizes is not None and any(chips < 1 for chips in self.sizes):
            raise ValueError("every job size needs at least 1 chip")
        return self
