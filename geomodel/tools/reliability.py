"""Reliability: cluster MTBF, the checkpoint interval and the goodput factor.

Failures of the chips in a job are taken as independent and exponential, so a
job on ``n`` chips fails at ``n`` times the rate of one chip:
``M = mtbf_hours_per_chip / n``.

Checkpoint interval (``C`` = time to write a checkpoint, ``M`` = cluster MTBF):

* Young (1974), "A first order approximation to the optimum checkpoint
  interval", CACM 17(9): ``tau = sqrt(2 C M)``.
* Daly (2006), "A higher order estimate of the optimum checkpoint interval for
  restart dumps", FGCS 22(3): ``tau = sqrt(2 C M) [1 + sqrt(C / 2M) / 3 +
  (C / 2M) / 9] - C`` for ``C < 2M``, and ``tau = M`` otherwise.

Goodput, the one formula used everywhere (the reliability tool, the optimiser's
``g_j`` through :func:`goodput_factor`, and the docs): the useful fraction of wall-clock
time under exponential failures, exactly, at Daly's interval (Daly 2006: total
wall time ``T_w = M exp(R/M) (exp((tau + C)/M) - 1) T_s / tau`` for solve time
``T_s``, ``R`` = restart time), ``g = tau / (M exp(R/M) (exp((tau + C)/M) - 1))``. Its
first-order expansion, the waste ``C/tau + (tau/2 + R)/M``, is pessimistic when ``M``
is only a few times ``C + R`` (100,000 GB200: 0.454 against 0.571) and is no longer
used. ``g`` is 0, with a reason, when the
cluster fails more often than it can write a checkpoint and restart (``M <= C + R``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from geomodel.catalog.entries import HardwareSystem
from geomodel.tools.checks import non_negative, positive, positive_int

MINUTES_PER_HOUR = 60.0

#: Default checkpoint write stall: seconds to minutes for a 405B model with
#: fast storage or asynchronous checkpoints (Llama 3's ~2 TB/s sustained storage,
#: Grattafiori et al. 2024) -> 1 minute [estimate].
DEFAULT_CHECKPOINT_MINUTES = 1.0

#: Default restart: reschedule, reload the checkpoint, warm up [estimate].
DEFAULT_RESTART_MINUTES = 5.0


def cluster_mtbf_hours(mtbf_hours_per_chip: float, chips: int) -> float:
    """Mean time between job-interrupting failures of ``chips`` chips together."""
    return positive(mtbf_hours_per_chip, "mtbf_hours_per_chip") / positive_int(chips, "chips")


def expected_interruptions(mtbf_hours_per_chip: float, chips: int, hours: float) -> float:
    """Expected failures of a job on ``chips`` chips running for ``hours``."""
    return non_negative(hours, "hours") / cluster_mtbf_hours(mtbf_hours_per_chip, chips)


def young_interval_hours(checkpoint_hours: float, mtbf_hours: float) -> float:
    """Young's first-order optimum compute time between checkpoints, sqrt(2 C M)."""
    checkpoint_hours = non_negative(checkpoint_hours, "checkpoint_hours")
    return math.sqrt(2.0 * checkpoint_hours * positive(mtbf_hours, "mtbf_hours"))


def daly_interval_hours(checkpoint_hours: float, mtbf_hours: float) -> float:
    """Daly's higher-order optimum interval; ``M`` itself when ``C >= 2M``."""
    c = non_negative(checkpoint_hours, "checkpoint_hours")
    m = positive(mtbf_hours, "mtbf_hours")
    if c >= 2.0 * m:
        return m
    ratio = c / (2.0 * m)
    return math.sqrt(2.0 * c * m) * (1.0 + math.sqrt(ratio) / 3.0 + ratio / 9.0) - c


def exponential_model_goodput(
    interval_hours: float, checkpoint_hours: float, restart_hours: float, mtbf_hours: float
) -> float:
    """Useful fraction of wall-clock time under exponential failures (the goodput).

    Daly (2006): ``tau / (M exp(R/M) (exp((tau + C)/M) - 1))``. With free checkpoints
    the best interval is 0, where the fraction tends to ``exp(-R/M)``: only restarts,
    and failures during them, are lost.
    """
    tau = non_negative(interval_hours, "interval_hours")
    c = non_negative(checkpoint_hours, "checkpoint_hours")
    r = non_negative(restart_hours, "restart_hours")
    m = positive(mtbf_hours, "mtbf_hours")
    if (tau + c) / m + r / m > 700:  # exp overflows; the job effectively never finishes
        return 0.0
    if tau == 0.0:
        return math.exp(-r / m) if c == 0.0 else 0.0
    # at most 1, as expm1(x) >= x; rounding can put it one ulp above when C is ~0
    return min(1.0, tau / (m * math.exp(r / m) * math.expm1((tau + c) / m)))


@dataclass(frozen=True)
class ReliabilityReport:
    """Cluster MTBF, checkpoint intervals and the goodput factor of one job."""

    system: str
    chips: int
    mtbf_hours_per_chip: float
    cluster_mtbf_hours: float
    interruptions_per_day: float
    checkpoint_minutes: float
    restart_minutes: float
    young_interval_minutes: float
    daly_interval_minutes: float  #: the interval the goodput is computed at
    waste_fraction: float  #: expected fraction of wall-clock time lost, 1 - goodput
    goodput: float  #: g in [0, 1], the exact exponential model; what the optimiser applies
    reason: str = ""  #: why goodput is 0, when it is

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def reliability_report(
    system: HardwareSystem,
    chips: int,
    checkpoint_minutes: float = DEFAULT_CHECKPOINT_MINUTES,
    restart_minutes: float = DEFAULT_RESTART_MINUTES,
    mtbf_hours_per_chip: float | None = None,
) -> ReliabilityReport:
    """Failures, checkpoint interval and goodput of a job on ``chips`` chips.

    ``mtbf_hours_per_chip`` replaces the catalogue's figure, to read a plan at either
    end of the published range (docs/tools.md, "Failure rates against published studies").
    """
    chips = positive_int(chips, "chips")
    per_chip = (
        system.mtbf_hours_per_chip
        if mtbf_hours_per_chip is None
        else positive(mtbf_hours_per_chip, "mtbf_hours_per_chip")
    )
    checkpoint_minutes = non_negative(checkpoint_minutes, "checkpoint_minutes")
    restart_minutes = non_negative(restart_minutes, "restart_minutes")

    m = cluster_mtbf_hours(per_chip, chips)
    c = checkpoint_minutes / MINUTES_PER_HOUR
    r = restart_minutes / MINUTES_PER_HOUR
    young = young_interval_hours(c, m)
    daly = daly_interval_hours(c, m)

    reason = ""
    if m <= c + r:
        goodput = 0.0
        reason = (
            f"the cluster fails every {m * MINUTES_PER_HOUR:.3g} min on average, no longer "
            f"than a checkpoint plus a restart ({checkpoint_minutes + restart_minutes:g} min): "
            "the job cannot make progress"
        )
    else:
        goodput = exponential_model_goodput(daly, c, r, m)
        if goodput == 0.0:
            reason = "the job would effectively never finish: it cannot make progress"

    return ReliabilityReport(
        system=system.name,
        chips=chips,
        mtbf_hours_per_chip=per_chip,
        cluster_mtbf_hours=m,
        interruptions_per_day=24.0 / m,
        checkpoint_minutes=checkpoint_minutes,
        restart_minutes=restart_minutes,
        young_interval_minutes=young * MINUTES_PER_HOUR,
        daly_interval_minutes=daly * MINUTES_PER_HOUR,
        waste_fraction=1.0 - goodput,
        goodput=goodput,
        reason=reason,
    )


def goodput_factor(
    system: HardwareSystem,
    chips: int,
    checkpoint_minutes: float = DEFAULT_CHECKPOINT_MINUTES,
    restart_minutes: float = DEFAULT_RESTART_MINUTES,
) -> float:
    """The goodput factor g in [0, 1] of a job on ``chips`` chips of ``system``.

    This is the ``g_j`` of the training work constraint (docs/model.md, docs/tools.md).
    """
    return reliability_report(system, chips, checkpoint_minutes, restart_minutes).goodput
