"""A training job's shape and MFU on a system, as the inputs and the checks need them.

The job's shape comes from its catalogue model, or its parameters, or, when it gives
only its compute, the compute-optimal size for that compute: ``D = 20 N`` (Hoffmann
et al. 2022, "Training Compute-Optimal Large Language Models", their Table 3), so
``C = 6 N D = 120 N^2`` and ``N = sqrt(C / 120)``.
"""

from __future__ import annotations

import math

from geomodel.catalog.entries import HardwareSystem
from geomodel.catalog.language_models import LanguageModel
from geomodel.performance.training import TrainingEstimate, TrainingShape, training_estimate

#: Training tokens per parameter of a compute-optimal model (Hoffmann et al. 2022).
TOKENS_PER_PARAM = 20.0


def compute_optimal_params(compute_flop: float) -> float:
    """Parameters of the compute-optimal model for ``compute_flop``: sqrt(C / 120)."""
    return math.sqrt(compute_flop / (6.0 * TOKENS_PER_PARAM))


def job_shape(
    model: LanguageModel | None,
    params: float,
    work_flop: float,
    sequence_tokens: int,
    batch_tokens: float,
    active_params: float = math.nan,
) -> TrainingShape | None:
    """The shape of a job from what it gives (NaN: not given); None when nothing tells it."""
    batch = None if math.isnan(batch_tokens) else float(batch_tokens)
    extra = {"sequence_tokens": int(sequence_tokens), "batch_tokens": batch}
    if model is not None:
        return TrainingShape.from_model(model, **extra)
    if math.isnan(params):
        if not work_flop > 0:
            return None
        params = compute_optimal_params(work_flop)
    active = None if math.isnan(active_params) else float(active_params)
    return TrainingShape.from_params(float(params), active, **extra)


class JobEstimates:
    """Step estimates of jobs on systems, each distinct case computed once."""

    def __init__(self) -> None:
        self._known: dict[tuple, TrainingEstimate] = {}

    def estimate(
        self,
        shape: TrainingShape,
        system: HardwareSystem,
        chips: int,
        precision: str,
        active_params: float,
        degrees: tuple[int, int, int],
    ) -> TrainingEstimate:
        """The estimate at ``chips``; ``degrees`` (TP, PP, EP), a TP or PP of 1 searched."""
        key = (shape, system.name, int(chips), precision, float(active_params), degrees)
        if key not in self._known:
            tp, pp, ep = degrees
            self._known[key] = training_estimate(
                shape,
                system,
                int(chips),
                precision,
                active_params=active_params,
                tensor_parallel=tp if tp > 1 else None,
                pipeline_parallel=pp if pp > 1 else None,
                expert_parallel=ep,
            )
        return self._known[key]
