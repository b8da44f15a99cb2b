"""``geomodel throughput`` and ``train-time``: the performance model from the command line.

Both share the code the inputs Dataset uses (:mod:`geomodel.performance`), so what they
print is what a scenario's services and jobs get.
"""

from __future__ import annotations

import typer

from geomodel.catalog import LanguageModel, build_catalog
from geomodel.catalog.entries import PRECISIONS
from geomodel.cli.analysis import lookup
from geomodel.cli.output import JSON_HELP, console, print_json, print_table
from geomodel.errors import UsageError
from geomodel.performance.serving import serving_estimate
from geomodel.performance.training import (
    DEFAULT_KV_VALUES_PER_LAYER,
    DEFAULT_SEQUENCE_TOKENS,
    TrainingShape,
    training_estimate,
)
from geomodel.tools import checks
from geomodel.tools.reliability import goodput_factor

PRECISION_HELP = f"Number format of weights and matrix work: {', '.join(PRECISIONS)}."


def register(app: typer.Typer) -> None:
    """Add the performance-model commands to the CLI."""
    app.command("throughput")(throughput)
    app.command("train-time")(train_time)


def _precision(value: str, option: str) -> str:
    if value not in PRECISIONS:
        raise UsageError(option, f"{value!r} is not a precision; allowed: {', '.join(PRECISIONS)}")
    return value


def _model(catalog, name, params, active_params, layers, kv_values, experts, experts_per_token):
    """The model a command is asked about: a catalogue entry, or one shaped from its size."""
    if name is not None:
        if params is not None:
            raise UsageError("--params", "give --model or --params, not both")
        return lookup(
            catalog.language_model, name, "--model", sorted(catalog.language_models), "language model"
        )
    if params is None:
        raise UsageError("--params", "give --model (a catalogue name) or --params")
    checks.positive(params, "--params")
    active = params if active_params is None else checks.positive(active_params, "--active-params")
    if active > params:
        raise UsageError("--active-params", f"{active:g} exceeds --params {params:g}")
    shape = TrainingShape.from_params(params, active)
    depth = layers or shape.layers
    moe = active < params
    return LanguageModel(
        name="command-line",
        source="shaped from its size (docs/compute.md)",
        source_type="estimate",
        params=params,
        active_params=active,
        layers=depth,
        hidden_size=shape.hidden_size,
        attention_dim=shape.attention_dim,
        kv_values_per_token=kv_values or depth * DEFAULT_KV_VALUES_PER_LAYER,
        experts=experts if moe else 1,
        experts_per_token=experts_per_token if moe else 1,
    )


def throughput(
    system: str = typer.Option(..., "--system", help="Hardware system serving."),
    model: str | None = typer.Option(None, "--model", help="Catalogue language model."),
    params: float | None = typer.Option(None, "--params", help="Total parameters."),
    active_params: float | None = typer.Option(
        None, "--active-params", help="Parameters per token (a mixture of experts)."
    ),
    layers: int | None = typer.Option(None, "--layers", help="Layers (default: from the size)."),
    kv_values: int | None = typer.Option(
        None, "--kv-values-per-token", help="KV-cache numbers per token over all layers."
    ),
    experts: int = typer.Option(8, "--experts", help="Routed experts of a mixture."),
    experts_per_token: int = typer.Option(2, "--experts-per-token", help="Experts each token uses."),
    prompt_tokens: float = typer.Option(..., "--prompt-tokens", help="Mean prompt tokens a request."),
    output_tokens: float = typer.Option(..., "--output-tokens", help="Mean output tokens a request."),
    precision: str = typer.Option("fp8", "--precision", help=PRECISION_HELP),
    kv_precision: str | None = typer.Option(None, "--kv-precision", help="KV-cache format."),
    ttft_ms: float | None = typer.Option(None, "--ttft-ms", help="Time to first token limit, ms."),
    tpot_ms: float | None = typer.Option(None, "--tpot-ms", help="Time per output token limit, ms."),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Output tokens/s per chip of a model on a system: the serving roofline (docs/compute.md)."""
    checks.non_negative(prompt_tokens, "--prompt-tokens")
    checks.at_least(output_tokens, 1.0, "--output-tokens")
    for value, option in ((ttft_ms, "--ttft-ms"), (tpot_ms, "--tpot-ms")):
        if value is not None:
            checks.positive(value, option)
    _precision(precision, "--precision")
    if kv_precision is not None:
        _precision(kv_precision, "--kv-precision")
    catalog = build_catalog()
    entry = lookup(catalog.hardware_system, system, "--system", sorted(catalog.hardware), "system")
    language_model = _model(
        catalog, model, params, active_params, layers, kv_values, experts, experts_per_token
    )
    estimate = serving_estimate(
        language_model,
        entry,
        prompt_tokens,
        output_tokens,
        precision=precision,
        kv_precision=kv_precision,
        ttft_ms=ttft_ms,
        tpot_ms=tpot_ms,
    )
    if json_output:
        print_json(estimate.as_dict())
        return
    if not estimate.feasible:
        raise UsageError(
            "--system", f"{language_model.name} cannot be served on {system}: {estimate.reason}"
        )
    rows = [
        ("output tokens/s per chip", estimate.output_tokens_per_s_per_chip),
        ("requests/s per chip", estimate.requests_per_s_per_chip),
        ("chips per model instance (tensor parallel)", estimate.tensor_parallel),
        ("sequences per instance (batch)", estimate.batch),
        ("what stopped the batch", estimate.batch_limit),
        ("decode weight phase", f"{estimate.decode_bound}-bound"),
        ("time per output token (ms)", estimate.step_ms),
        ("time to first token (ms)", estimate.ttft_ms),
        ("prefill of one prompt (ms)", estimate.prefill_ms),
        ("HBM filled", f"{estimate.hbm_fill:.0%}"),
    ]
    print_table(
        [{"quantity": q, "value": v} for q, v in rows],
        {"quantity": "quantity", "value": "value"},
        title=f"{language_model.name} on {system} at {precision.upper()}, "
        f"{prompt_tokens:g} prompt + {output_tokens:g} output tokens",
    )
    if not estimate.family_fitted:
        console().print(f"{system}'s vendor has no fitted constants: the default ones are used")


def train_time(
    system: str = typer.Option(..., "--system", help="Hardware system training."),
    chips: int = typer.Option(..., "--chips", help="Chips the job runs on."),
    model: str | None = typer.Option(None, "--model", help="Catalogue language model."),
    params: float | None = typer.Option(None, "--params", help="Total parameters."),
    active_params: float | None = typer.Option(
        None, "--active-params", help="Parameters per token (a mixture of experts)."
    ),
    tokens: float = typer.Option(..., "--tokens", help="Training tokens D (work = 6 x P x D)."),
    precision: str = typer.Option("bf16", "--precision", help=PRECISION_HELP),
    sequence_tokens: int = typer.Option(
        DEFAULT_SEQUENCE_TOKENS, "--sequence-length", help="Tokens per sequence."
    ),
    batch_tokens: float | None = typer.Option(
        None, "--batch-tokens", help="Tokens per optimiser step (default: 16M, or 1,024 a chip)."
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Hours and MFU of a training job: step time with exposed communication (docs/compute.md)."""
    checks.positive_int(chips, "--chips")
    checks.positive(tokens, "--tokens")
    checks.positive_int(sequence_tokens, "--sequence-length")
    if batch_tokens is not None:
        checks.positive(batch_tokens, "--batch-tokens")
    _precision(precision, "--precision")
    catalog = build_catalog()
    entry = lookup(catalog.hardware_system, system, "--system", sorted(catalog.hardware), "system")
    language_model = _model(catalog, model, params, active_params, None, None, 8, 2)
    shape = TrainingShape.from_model(
        language_model, sequence_tokens=sequence_tokens, batch_tokens=batch_tokens
    )
    estimate = training_estimate(
        shape, entry, chips, precision, active_params=language_model.active_params
    )
    if not estimate.feasible:
        raise UsageError("--chips", f"no layout on {chips:,} chips of {system}: {estimate.reason}")
    hours = estimate.hours(tokens)
    goodput = goodput_factor(entry, chips)
    result = {
        **estimate.as_dict(),
        "tokens": tokens,
        "model_flop": 6.0 * language_model.active_params * tokens,
        "hours": hours,
        "goodput": goodput,
        "hours_with_failures": hours / goodput if goodput > 0 else None,
    }
    if json_output:
        print_json(result)
        return
    rows = [
        ("hours (no failures)", hours),
        ("MFU", estimate.mfu),
        ("tokens/s", estimate.tokens_per_s),
        (
            "layout TP x PP x CP x DP",
            f"{estimate.tensor_parallel} x {estimate.pipeline_parallel} x "
            f"{estimate.context_parallel} x {estimate.data_parallel}",
        ),
        ("step (s)", estimate.step_s),
        ("  compute (s)", estimate.compute_s),
        ("  pipeline bubble (s)", estimate.bubble_s),
        ("  tensor/expert parallel (s)", estimate.tensor_parallel_s),
        ("  context parallel (s)", estimate.context_parallel_s),
        ("  pipeline transfers (s)", estimate.pipeline_comm_s),
        ("  data parallel, exposed (s)", estimate.data_parallel_exposed_s),
        ("goodput (failures and checkpoints)", goodput),
        ("hours with failures", result["hours_with_failures"]),
    ]
    print_table(
        [{"quantity": q, "value": v} for q, v in rows],
        {"quantity": "quantity", "value": "value"},
        title=f"{language_model.params:.3g} parameters on {chips:,} x {system} at {precision.upper()}",
    )
