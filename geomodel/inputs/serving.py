"""Inference services in the inputs Dataset: output tokens per second per chip of each
system (:mod:`geomodel.scenario.serving_rates`) and how each instance is set up."""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.inputs.dataset import variable
from geomodel.scenario.schema import Scenario
from geomodel.scenario.serving_rates import ServiceRates, token_means


def service_variables(
    scenario: Scenario, rates: ServiceRates, systems: list[str]
) -> dict[str, xr.Variable]:
    """The inputs Dataset's service variables."""
    names = list(scenario.inference)
    shape = (len(names), len(systems))

    def figure(attribute: str) -> np.ndarray:
        values = np.full(shape, np.nan)
        for i, name in enumerate(names):
            for k, system in enumerate(systems):
                estimate = rates.estimates.get((name, system))
                if estimate is not None and estimate.feasible:
                    values[i, k] = getattr(estimate, attribute)
        return values

    means = [token_means(scenario, name) or (np.nan, np.nan) for name in names]
    pair = ("service", "system")
    return {
        "sla_ms": variable(
            "service", [scenario.inference[n].sla for n in names], "ms", "round-trip latency limit"
        ),
        "service_system_allowed": variable(
            pair, rates.allowed, "1", "service may run on the system (and meets its TTFT/TPOT there)"
        ),
        "service_tokens_per_s_per_chip": variable(
            pair,
            rates.tokens_per_s_per_chip,
            "token/s",
            "output tokens per second one chip serves: the serving roofline's at the service's "
            "tokens per request and limits, or the flat efficiency's (docs/compute.md)",
        ),
        "service_prompt_tokens": variable(
            "service", [m[0] for m in means], "token", "mean prompt tokens per request (NaN: flat)"
        ),
        "service_output_tokens": variable(
            "service", [m[1] for m in means], "token", "mean output tokens per request (NaN: flat)"
        ),
        "service_tensor_parallel": variable(
            pair, figure("tensor_parallel"), "chips", "chips per model instance (NaN: flat or none)"
        ),
        "service_batch": variable(
            pair, figure("batch"), "sequences", "sequences one instance serves at once"
        ),
        "service_ttft_ms": variable(pair, figure("ttft_ms"), "ms", "time to first token at that batch"),
        "service_tpot_ms": variable(
            pair, figure("step_ms"), "ms", "time per output token at that batch"
        ),
    }
