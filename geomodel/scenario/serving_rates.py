"""Inference services as rates: output tokens per second per chip of each system.

A service that names its model gets its rate from the serving roofline
(:mod:`geomodel.performance.serving`) at its tokens per request, precisions and
TTFT/TPOT limits; one with a flat ``efficiency`` keeps the old rule, peak x efficiency
/ (2 x active parameters) per output token, prompts free. A system the service may
not use, or on which no instance meets its limits, gets rate 0 and is not allowed.
The checks and the inputs Dataset read the same rates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geomodel.catalog import Catalog, LanguageModel
from geomodel.performance.serving import ServingEstimate, serving_estimate
from geomodel.scenario.schema import InferenceService, Scenario


@dataclass
class ServiceRates:
    """What each service gets from each system, arrays shaped (service, system)."""

    tokens_per_s_per_chip: np.ndarray
    allowed: np.ndarray  #: the service may run there and some instance meets its limits
    estimates: dict[tuple[str, str], ServingEstimate]  #: roofline estimates (modelled services)


def service_model(name: str, service: InferenceService, catalog: Catalog) -> LanguageModel | None:
    """The language model a service names (inline or from the catalogue; None if unknown)."""
    if service.model is None:
        return None
    if isinstance(service.model, str):
        return catalog.language_models.get(service.model)
    return service.model.language_model(name)


def token_means(scenario: Scenario, name: str) -> tuple[float, float] | None:
    """(prompt, output) tokens per request of a service: as given, or its table's means."""
    service = scenario.inference[name]
    if service.prompt_tokens is not None:
        return service.prompt_tokens, service.output_tokens
    tables = getattr(scenario.origin, "token_lengths", {}) if scenario.origin else {}
    return tables.get(name)


def service_rates(scenario: Scenario, catalog: Catalog, systems: list[str]) -> ServiceRates:
    """Output tokens/s per chip of every service on every system (0 where not allowed)."""
    names = list(scenario.inference)
    rate = np.zeros((len(names), len(systems)))
    allowed = np.zeros((len(names), len(systems)), dtype=bool)
    estimates: dict[tuple[str, str], ServingEstimate] = {}
    for i, name in enumerate(names):
        service = scenario.inference[name]
        model = service_model(name, service, catalog)
        means = token_means(scenario, name)
        for k, system_name in enumerate(systems):
            if service.systems is not None and system_name not in service.systems:
                continue
            system = catalog.hardware_system(system_name)
            if not service.modelled:
                flop_per_token = 2.0 * model.active_params if model else service.flop_per_token_value
                peak = (
                    system.dense_pflops_per_chip(service.precision)
                    if system.supports(service.precision)
                    else 0.0
                )
                rate[i, k] = peak * 1e15 * service.efficiency / flop_per_token
            elif model is not None and means is not None:
                estimate = serving_estimate(
                    model,
                    system,
                    *means,
                    precision=service.precision,
                    kv_precision=service.kv_precision,
                    ttft_ms=service.ttft,
                    tpot_ms=service.tpot,
                )
                estimates[name, system_name] = estimate
                rate[i, k] = estimate.output_tokens_per_s_per_chip
            allowed[i, k] = rate[i, k] > 0
    return ServiceRates(tokens_per_s_per_chip=rate, allowed=allowed, estimates=estimates)
