"""Fit the performance model's constants on published MLPerf results, and check the rest.

    python bench/mlperf_fit.py                 # fit, then predicted vs measured tables
    python bench/mlperf_fit.py --write         # also write geomodel/performance/data/...
    python bench/mlperf_fit.py --markdown      # the tables as docs/fidelity.md has them

Serving: the two shares of each vendor family (``serving_flops_share``, ``hbm_share``)
are fitted on the per-chip output tokens/s of the closed-division results of H100-SXM,
H200-SXM and MI300X only (Offline, Server and Interactive, every LLM benchmark of the
table); every other chip is predicted with its family's constants and reported as
predicted vs measured. Training: NVIDIA's ``training_flops_share`` is fitted on the
H100-SXM and H200-SXM time-to-train results only; B200, GB200 and GB300 (and TPU, on the
default constants) are predicted. The data: ``bench/data/mlperf`` (MLCommons, Apache 2.0;
its README gives rounds, files and commits).
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from scipy.optimize import least_squares

from geomodel.catalog import build_catalog
from geomodel.performance.constants import DEFAULT_FAMILY, FamilyConstants, fitted_constants
from geomodel.performance.serving import serving_estimate
from geomodel.performance.training import TrainingShape, training_estimate

DATA = Path(__file__).parent / "data" / "mlperf"
CONSTANTS = Path(__file__).parents[1] / "geomodel" / "performance" / "data" / "fitted_constants.csv"

#: MLPerf accelerator family -> catalogue system (others are not in the catalogue).
SYSTEM_OF = {
    "H100-SXM": "hgx_h100_8",
    "H200-SXM": "hgx_h200_8",
    "B200": "hgx_b200_8",
    "B300": "hgx_b300_8",
    "GB200": "gb200_nvl72",
    "GB300": "gb300_nvl72",
    "MI300X": "mi300x_8",
    "MI325X": "mi325x_8",
    "MI355X": "mi355x_8",
    "TPU-v5p": "tpu_v5p_slice",
    "TPU-v6e": "tpu_v6e_pod",
}
#: The chips the constants are fitted on; every other one is held out.
FITTED_ON = {"nvidia": ("H100-SXM", "H200-SXM"), "amd": ("MI300X",)}
TRAINING_FITTED_ON = {"nvidia": ("H100-SXM", "H200-SXM")}

#: MLPerf benchmark -> catalogue language model.
MODEL_OF = {
    "llama2-70b-99": "llama2-70b",
    "llama2-70b-99.9": "llama2-70b",
    "llama3.1-405b": "llama3.1-405b",
    "mixtral-8x7b": "mixtral-8x7b",
    "deepseek-r1": "deepseek-r1",
    "gpt-oss-120b": "gpt-oss-120b",
    "gpt3": "gpt3-175b",
    "llama31_405b": "llama3.1-405b",
}

#: Mean prompt tokens per sample of each benchmark's dataset (docs/fidelity.md gives the
#: sources in full). Output tokens come from each result's own accuracy log. Mixtral
#: 8x7B's dataset has no published mean input length: its results are left out.
PROMPT_TOKENS: dict[str, float] = {
    # 218,743 input tokens in the 1,000-sample calibration set processorca.py draws at random
    # from the 24,576 samples (AI-Hypercomputer/JetStream experimental/jax/README.md @ a3bb30e),
    # + 1 token MLPerf's tokeniser appends: derived, not stated by MLCommons
    "llama2-70b": 219.7,
    # "mean input/output context lengths of 9,400 and 680 tokens"
    # (mlcommons.org/2025/04/llm-inference-v5)
    "llama3.1-405b": 9400.0,
    # "mean input 800, output 3,880" (mlcommons.org/2025/09/deepseek-inference-5-1, as quoted
    # second-hand; the output figure matches the reference README's 3,886)
    "deepseek-r1": 800.0,
    # "Mean input sequence length: 5,000 tokens" (mlcommons.org/2026/03/mlperf-inference-gpt-oss)
    "gpt-oss-120b": 5000.0,
}


@dataclass(frozen=True)
class ServingCase:
    """One published serving result: what ran, under which limits, and what it did."""

    round: str
    submitter: str
    accelerator: str
    system: str
    benchmark: str
    model: str
    scenario: str
    precision: str  #: of the matrix work
    weight_precision: str
    prompt_tokens: float
    output_tokens: float
    ttft_ms: float | None
    tpot_ms: float | None
    measured: float  #: output tokens/s per chip
    source: str


@dataclass(frozen=True)
class TrainingCase:
    round: str
    submitter: str
    accelerator: str
    system: str
    benchmark: str
    model: str
    chips: int
    precision: str
    batch_sequences: int
    sequence_tokens: int
    tokens: float
    eval_tokens: float  #: forward-only tokens of all evaluations inside the timed run
    measured_minutes: float
    source: str


def weight_format(weight_types: str) -> str:
    """The number format a serving submission keeps its weights in: FP4 formats, else FP8.

    NVIDIA's H100/H200 rows state "fp16" with "quantization": their code quantises the
    weights and KV cache to FP8 (bench/data/mlperf/README.md), as every other row does.
    """
    return "fp4" if "fp4" in weight_types.lower() else "fp8"


def work_format(weights: str, system) -> str:
    """The format the matrix work runs in: the weights', or FP8 on a chip without FP4
    (weight-only quantisation, as gpt-oss's MXFP4 weights on H200)."""
    return weights if system.supports(weights) else "fp8"


def reference_output_tokens() -> dict[str, float]:
    """Each benchmark model's mean output tokens of the reference run (benchmarks.csv),
    for results whose accuracy log gives none."""
    with open(DATA / "benchmarks.csv", encoding="utf-8") as handle:
        return {
            MODEL_OF.get(row["benchmark"], row["benchmark"]): float(row["value"])
            for row in csv.DictReader(handle)
            if row["quantity"] == "reference_output_tokens_per_sample_mean"
        }


def serving_cases(prompt_tokens: dict[str, float]) -> list[ServingCase]:
    """Every usable serving row: a catalogue system, no duplicate, no mixed cluster."""
    reference = reference_output_tokens()
    catalog = build_catalog()
    cases = []
    with open(DATA / "inference.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            family = row["accelerator_family"]
            if row["duplicate_of"] or row["heterogeneous"] == "True" or family not in SYSTEM_OF:
                continue
            model = MODEL_OF[row["benchmark"]]
            if model not in prompt_tokens:
                continue
            limited = row["scenario"] != "Offline"
            weights = weight_format(row["weight_data_types"])
            cases.append(
                ServingCase(
                    round=row["round"],
                    submitter=row["submitter"],
                    accelerator=family,
                    system=SYSTEM_OF[family],
                    benchmark=row["benchmark"],
                    model=model,
                    scenario=row["scenario"],
                    precision=work_format(weights, catalog.hardware_system(SYSTEM_OF[family])),
                    weight_precision=weights,
                    prompt_tokens=prompt_tokens[model],
                    output_tokens=float(row["accuracy_tokens_per_sample"] or reference[model]),
                    ttft_ms=float(row["ttft_limit_ms"]) if limited else None,
                    tpot_ms=float(row["tpot_limit_ms"]) if limited else None,
                    measured=float(row["result_tokens_per_s"]) / int(row["total_accelerators"]),
                    source=row["source_path"],
                )
            )
    return cases


def training_cases() -> list[TrainingCase]:
    cases = []
    with open(DATA / "training.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            family = row["accelerator_family"]
            if row["duplicate_of"] or family not in SYSTEM_OF:
                continue
            evals = float(row["evals_per_run"] or 0)
            logged = float(row["eval_samples_logged"] or 0)
            # GPT-3 logs evaluation tokens (NVIDIA) or sequences (MaxText); Llama sequences
            per_eval = logged if logged > 1e6 else logged * int(row["sequence_length"])
            cases.append(
                TrainingCase(
                    round=row["round"],
                    submitter=row["submitter"],
                    accelerator=family,
                    system=SYSTEM_OF[family],
                    benchmark=row["benchmark"],
                    model=MODEL_OF[row["benchmark"]],
                    chips=int(row["total_accelerators"]),
                    precision=row["precision"] or _unstated_training_precision(family),
                    batch_sequences=int(row["global_batch_size"]),
                    sequence_tokens=int(row["sequence_length"]),
                    tokens=float(row["tokens_per_run"]),
                    eval_tokens=evals * per_eval,
                    measured_minutes=float(row["olympic_mean_minutes"]),
                    source=row["source_path"],
                )
            )
    return cases


def _unstated_training_precision(family: str) -> str:
    """The format of a training result whose submission states none: Google's GPT-3 recipe
    trains in INT8 (Accurate Quantized Training, since MLPerf Training 3.1: Google Cloud
    blog, "Announcing Cloud TPU v5e GA", 2023-11-08); NVIDIA systems in FP8 as every
    NVIDIA submission that states it."""
    return "int8" if family.startswith("TPU") else "fp8"


def predict_serving(case: ServingCase, catalog, constants: FamilyConstants) -> float:
    estimate = serving_estimate(
        catalog.language_model(case.model),
        catalog.hardware_system(case.system),
        case.prompt_tokens,
        case.output_tokens,
        precision=case.precision,
        weight_precision=case.weight_precision,
        kv_precision="fp8",
        ttft_ms=case.ttft_ms,
        tpot_ms=case.tpot_ms,
        constants=constants,
    )
    return estimate.output_tokens_per_s_per_chip


def predict_minutes(case: TrainingCase, catalog, constants: FamilyConstants) -> float:
    """Minutes of the timed run: the training tokens, plus the evaluations' forward passes
    (a third of a training step's work per token)."""
    model = catalog.language_model(case.model)
    shape = TrainingShape.from_model(
        model,
        sequence_tokens=case.sequence_tokens,
        batch_tokens=case.batch_sequences * case.sequence_tokens,
    )
    estimate = training_estimate(
        shape, catalog.hardware_system(case.system), case.chips, case.precision, constants
    )
    if not estimate.feasible:
        return math.nan
    seconds = case.tokens / estimate.tokens_per_s + case.eval_tokens / (3.0 * estimate.tokens_per_s)
    return seconds / 60.0


def family_of_accelerator(catalog, accelerator: str) -> str:
    return catalog.hardware_system(SYSTEM_OF[accelerator]).vendor.strip().lower()


def fit_serving(cases, catalog, table) -> dict[str, FamilyConstants]:
    """Least squares on log(predicted / measured) of each family's fitted chips."""
    fitted = dict(table)
    for family, chips in FITTED_ON.items():
        rows = [c for c in cases if c.accelerator in chips]
        start = replace(table[family], serving_flops_share=0.5, hbm_share=0.5)

        def residuals(x, rows=rows, start=start):
            constants = replace(start, serving_flops_share=x[0], hbm_share=x[1])
            return [_log_error(predict_serving(c, catalog, constants), c.measured) for c in rows]

        result = least_squares(
            residuals,
            [start.serving_flops_share, start.hbm_share],
            bounds=([0.05, 0.05], [1, 1]),
            loss="soft_l1",
            f_scale=0.2,
        )
        fitted[family] = replace(
            start,
            serving_flops_share=round(float(result.x[0]), 3),
            hbm_share=round(float(result.x[1]), 3),
            fitted_on=" ".join(chips),
        )
    return fitted


def _log_error(predicted: float, measured: float) -> float:
    """log(predicted / measured); a result the model finds no way to run counts as a
    factor-of-ten miss (bounded, so the fit is not led by it)."""
    return math.log(predicted / measured) if predicted > 0 else math.log(0.1)


def fit_training(cases, catalog, table) -> dict[str, FamilyConstants]:
    fitted = dict(table)
    for family, chips in TRAINING_FITTED_ON.items():
        rows = [c for c in cases if c.accelerator in chips]
        start = replace(table[family], training_flops_share=0.5)

        def residuals(x, rows=rows, start=start):
            constants = replace(start, training_flops_share=x[0])
            predicted = [predict_minutes(c, catalog, constants) / c.measured_minutes for c in rows]
            return [math.log(r) for r in predicted if math.isfinite(r)]

        result = least_squares(residuals, [start.training_flops_share], bounds=([0.05], [1]))
        fitted[family] = replace(fitted[family], training_flops_share=round(float(result.x[0]), 3))
    return fitted


def with_default(table: dict[str, FamilyConstants]) -> dict[str, FamilyConstants]:
    """The default row: the mean of the fitted families' shares; a family without training
    results to fit on takes the default training share."""
    families = [v for k, v in table.items() if k != DEFAULT_FAMILY]
    training = round(
        statistics.mean(f.training_flops_share for f in families if f.family in TRAINING_FITTED_ON), 3
    )
    table = {
        k: v if k in TRAINING_FITTED_ON else replace(v, training_flops_share=training)
        for k, v in table.items()
    }
    table[DEFAULT_FAMILY] = FamilyConstants(
        family=DEFAULT_FAMILY,
        serving_flops_share=round(statistics.mean(f.serving_flops_share for f in families), 3),
        hbm_share=round(statistics.mean(f.hbm_share for f in families), 3),
        training_flops_share=training,
        fitted_on="mean of the fitted families",
    )
    return table


def write_constants(table: dict[str, FamilyConstants]) -> None:
    with open(CONSTANTS, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(
            ["family", "serving_flops_share", "hbm_share", "training_flops_share", "fitted_on", "source"]
        )
        for constants in table.values():
            training = TRAINING_FITTED_ON.get(constants.family)
            source = (
                "bench/mlperf_fit.py on bench/data/mlperf (MLPerf Inference v4.1-v6.0, Training "
                "v4.0-v5.1 closed division; MLCommons, Apache 2.0); serving fitted on "
                f"{constants.fitted_on}"
                + (f"; training on {' '.join(training)}" if training else "; training: the default")
            )
            writer.writerow(
                [
                    constants.family,
                    constants.serving_flops_share,
                    constants.hbm_share,
                    constants.training_flops_share,
                    constants.fitted_on,
                    source,
                ]
            )


def _errors(pairs):
    """Median and worst absolute relative error of (predicted, measured) pairs (a result
    the model cannot run at all counts as a 100 % miss)."""
    errors = [abs(p / m - 1) if p > 0 else 1.0 for p, m in pairs if m > 0]
    return (statistics.median(errors), max(errors)) if errors else (math.nan, math.nan)


#: The issue's target set: Llama 2 70B, Llama 3.1 405B and one mixture of experts,
#: Offline and with Server latency limits.
TARGET_MODELS = ("llama2-70b", "llama3.1-405b", "gpt-oss-120b")
TARGET_SCENARIOS = ("Offline", "Server")
FITTED_CHIPS = sum(FITTED_ON.values(), ())


def serving_predictions(cases, catalog, table) -> dict[tuple[str, str, str], list[tuple[float, float]]]:
    """(chip, model, scenario) -> [(predicted, measured)] output tokens/s per chip."""
    groups = defaultdict(list)
    for case in cases:
        family = family_of_accelerator(catalog, case.accelerator)
        predicted = predict_serving(case, catalog, table.get(family, table[DEFAULT_FAMILY]))
        groups[case.accelerator, case.model, case.scenario].append((predicted, case.measured))
    return groups


def ranking_misses(groups) -> tuple[int, list[str]]:
    """Pairs of chips whose measured medians differ by more than 15 % on one model and
    scenario, and those of them the model ranks the other way."""
    pairs, misses = 0, []
    keys = sorted(groups)
    for chip_a, model, scenario in keys:
        for chip_b, model_b, scenario_b in keys:
            if (model_b, scenario_b) != (model, scenario) or chip_b <= chip_a:
                continue
            measured_a = statistics.median(m for _, m in groups[chip_a, model, scenario])
            measured_b = statistics.median(m for _, m in groups[chip_b, model, scenario])
            if max(measured_a, measured_b) / min(measured_a, measured_b) <= 1.15:
                continue
            pairs += 1
            predicted_a = statistics.median(p for p, _ in groups[chip_a, model, scenario])
            predicted_b = statistics.median(p for p, _ in groups[chip_b, model, scenario])
            if (predicted_a > predicted_b) != (measured_a > measured_b):
                misses.append(f"{model} {scenario}: {chip_a} vs {chip_b}")
    return pairs, misses


def serving_report(groups) -> list[str]:
    lines = [
        "| chip | model | scenario | results | measured (tok/s/chip, median) | predicted | "
        "median error | worst |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for (chip, model, scenario), pairs in sorted(groups.items()):
        median, worst = _errors(pairs)
        fit = " (fit)" if chip in FITTED_CHIPS else ""
        lines.append(
            f"| {chip}{fit} | {model} | {scenario} | {len(pairs)} | "
            f"{statistics.median(m for _, m in pairs):,.0f} | "
            f"{statistics.median(p for p, _ in pairs):,.0f} | {median:.0%} | {worst:.0%} |"
        )
    return lines


def target_summary(groups) -> list[str]:
    """Median and worst error by held-out chip on the target set, and over all of it."""
    by_chip = defaultdict(list)
    for (chip, model, scenario), pairs in groups.items():
        if chip not in FITTED_CHIPS and model in TARGET_MODELS and scenario in TARGET_SCENARIOS:
            by_chip[chip].extend(pairs)
    lines = ["| held-out chip | results | median error | worst |", "|---|---:|---:|---:|"]
    for chip, pairs in sorted(by_chip.items()):
        median, worst = _errors(pairs)
        lines.append(f"| {chip} | {len(pairs)} | {median:.0%} | {worst:.0%} |")
    median, worst = _errors([pair for pairs in by_chip.values() for pair in pairs])
    total = sum(len(p) for p in by_chip.values())
    lines.append(f"| all held-out | {total} | {median:.1%} | {worst:.0%} |")
    return lines


def training_report(cases, catalog, table) -> list[str]:
    lines = [
        "| chip | benchmark | chips | precision | measured (min) | predicted (min) | error |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    pairs = []
    for case in sorted(cases, key=lambda c: (c.accelerator, c.benchmark, c.chips, c.precision)):
        family = family_of_accelerator(catalog, case.accelerator)
        predicted = predict_minutes(case, catalog, table.get(family, table[DEFAULT_FAMILY]))
        pairs.append((predicted if math.isfinite(predicted) else 0.0, case.measured_minutes))
        fit = " (fit)" if case.accelerator in sum(TRAINING_FITTED_ON.values(), ()) else ""
        error = (
            f"{predicted / case.measured_minutes - 1:+.0%}" if math.isfinite(predicted) else "no layout"
        )
        shown = f"{predicted:,.1f}" if math.isfinite(predicted) else "-"
        lines.append(
            f"| {case.accelerator}{fit} | {case.benchmark} | {case.chips:,} | {case.precision} | "
            f"{case.measured_minutes:,.1f} | {shown} | {error} |"
        )
    median, worst = _errors(pairs)
    held = [
        pair
        for pair, case in zip(
            pairs,
            sorted(cases, key=lambda c: (c.accelerator, c.benchmark, c.chips, c.precision)),
            strict=True,
        )
        if case.accelerator not in sum(TRAINING_FITTED_ON.values(), ())
    ]
    held_median, held_worst = _errors(held)
    lines.append("")
    lines.append(
        f"All {len(pairs)} results: median error {median:.1%}, worst {worst:.0%}; the "
        f"{len(held)} not fitted on: median {held_median:.1%}, worst {held_worst:.0%}."
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the fitted constants")
    args = parser.parse_args(argv)
    catalog = build_catalog()
    table = fitted_constants()
    serving = serving_cases(PROMPT_TOKENS)
    training = training_cases()
    table = with_default(fit_training(training, catalog, fit_serving(serving, catalog, table)))
    print("## Constants\n")
    for constants in table.values():
        print(
            f"* {constants.family}: serving {constants.serving_flops_share:.3f} of peak FLOPS, "
            f"{constants.hbm_share:.3f} of HBM bandwidth; training "
            f"{constants.training_flops_share:.3f} ({constants.fitted_on})"
        )
    groups = serving_predictions(serving, catalog, table)
    print("\n## Serving: target set by held-out chip\n")
    print("\n".join(target_summary(groups)))
    pairs, misses = ranking_misses(
        {k: v for k, v in groups.items() if k[1] in TARGET_MODELS and k[2] in TARGET_SCENARIOS}
    )
    print(
        f"\nRanking: {pairs} pairs of chips differ by more than 15 %; ranked the other way: "
        f"{len(misses)}{': ' + '; '.join(misses) if misses else ''}"
    )
    print("\n## Serving: every chip, model and scenario\n")
    print("\n".join(serving_report(groups)))
    print("\n## Training: time to train\n")
    print("\n".join(training_report(training, catalog, table)))
    if args.write:
        write_constants(table)
        print(f"\nwrote {CONSTANTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
