"""Language models: the shape of a transformer, as serving and training it need.

A service names a model (``inference.<name>.model``) and the performance model
(:mod:`geomodel.performance`) reads from it what one token costs: the weights read
per decode step (total parameters; for a mixture of experts, the experts a batch
touches), the compute per token (active parameters, attention over the context) and
the KV cache each token keeps. Plugins register well-known models like any other
entry (``register_language_models``); a scenario may also describe its own inline.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from geomodel.catalog.entries import CatalogEntry


class LanguageModel(CatalogEntry):
    """A decoder-only transformer: parameters, layers, attention and KV-cache shape."""

    params: float = Field(gt=0, le=1e14, description="total parameters")
    active_params: float = Field(
        gt=0, le=1e14, description="parameters a token passes through (MoE: shared + its experts)"
    )
    layers: int = Field(gt=0, le=1000)
    hidden_size: int = Field(gt=0, le=1_000_000, description="model (residual stream) width")
    attention_dim: int = Field(
        gt=0, le=1_000_000, description="query heads x head dimension: width of attention scores"
    )
    decode_attention_dim: int | None = Field(
        default=None,
        gt=0,
        description="attention width while decoding, where it differs (latent attention "
        "attends in its compressed space: heads x mean of the latent key and value dims)",
    )
    kv_values_per_token: int = Field(
        gt=0,
        description="numbers the KV cache keeps per token over all layers: 2 x layers x KV heads x "
        "head dim (grouped-query attention), or layers x (latent + rope dims) for latent attention",
    )
    attention_layers: int | None = Field(
        default=None,
        gt=0,
        description="layers attending to the whole context (default: all; gpt-oss alternates "
        "full and 128-token banded layers)",
    )
    experts: int = Field(default=1, ge=1, le=10_000, description="routed experts per layer (1: dense)")
    experts_per_token: int = Field(default=1, ge=1, description="routed experts each token uses")
    context_tokens: int | None = Field(
        default=None, gt=0, description="longest context the model was trained for"
    )

    @model_validator(mode="after")
    def _consistent(self) -> LanguageModel:
        if self.active_params > self.params:
            raise ValueError(f"active_params {self.active_params:g} exceeds params {self.params:g}")
        if self.experts_per_token > self.experts:
            raise ValueError(
                f"experts_per_token {self.experts_per_token} exceeds experts {self.experts}"
            )
        if self.experts == 1 and self.active_params != self.params:
            raise ValueError("a dense model (experts 1) has active_params equal to params")
        if self.attention_layers is not None and self.attention_layers > self.layers:
            raise ValueError(f"attention_layers {self.attention_layers} exceeds layers {self.layers}")
        return self

    @property
    def decode_width(self) -> int:
        """Attention width of one decode step."""
        return self.decode_attention_dim or self.attention_dim

    @property
    def context_layers(self) -> int:
        """Layers whose attention reads the whole context."""
        return self.attention_layers or self.layers

    @classmethod
    def from_config(
        cls,
        *,
        attention_heads: int,
        head_dim: int,
        kv_heads: int | None = None,
        kv_latent_dim: int | None = None,
        decode_head_dim: int | None = None,
        **fields: Any,
    ) -> LanguageModel:
        """A model from the figures of its published configuration (a Hugging Face
        ``config.json``): attention width = query heads x head dim; KV numbers per
        token = 2 x layers x KV heads x head dim (one KV head per query head when not
        given), or layers x latent dim for latent attention, over the layers that attend to
        the whole context."""
        layers = int(fields.get("attention_layers") or fields["layers"])
        if kv_latent_dim is not None:
            kv_values = layers * kv_latent_dim
        else:
            kv_values = 2 * layers * (kv_heads or attention_heads) * head_dim
        if fields.get("active_params") is None:
            fields["active_params"] = fields["params"]
        decode = attention_heads * decode_head_dim if decode_head_dim else None
        return cls(
            attention_dim=attention_heads * head_dim,
            decode_attention_dim=decode,
            kv_values_per_token=kv_values,
            **fields,
        )

    @property
    def is_mixture_of_experts(self) -> bool:
        return self.experts > 1

    @property
    def expert_params(self) -> float:
        """Parameters in routed experts: total - active = experts' share x (1 - k/E)."""
        if not self.is_mixture_of_experts:
            return 0.0
        return (self.params - self.active_params) / (1.0 - self.experts_per_token / self.experts)

    @property
    def shared_params(self) -> float:
        """Parameters every token uses (attention, embeddings, shared experts)."""
        return self.params - self.expert_params
