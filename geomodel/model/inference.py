"""Inference constraint group (2): demand served or unserved, served compute on chips."""

from __future__ import annotations

from collections import defaultdict

import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import TOKENS_PER_MTOKEN, linear
from geomodel.model.sets import ModelSets


def define_inference(m, sets: ModelSets, inputs: xr.Dataset) -> None:
    """(2) Demand met or unserved; served tokens equal what the chips assigned deliver.

    An equality, not ``<=``: a chip assigned to a service serves, so no chip works (and
    draws active power) for nothing, which a negative price would otherwise reward.
    """
    demand = inputs["demand_tokens_per_s"].values / TOKENS_PER_MTOKEN
    served_from: dict[tuple[int, int, int], list] = defaultdict(list)
    served_at: dict[tuple[int, int, int], list] = defaultdict(list)
    for index in sets.serve:
        i, r, s, t = index
        served_from[i, r, t].append(m.serve[index])
        served_at[i, s, t].append(m.serve[index])
    m.demand = pyo.Constraint(
        sets.unserved,
        rule=lambda _, i, r, t: (
            linear([1.0] * (len(served_from[i, r, t]) + 1), [*served_from[i, r, t], m.unserved[i, r, t]])
            == float(demand[i, r, t])
        ),
        doc="demand balance, Mtoken/s",
    )
    # output tokens/s per chip, in thousands: 1 Mtoken/s served = 1e3 ktoken/s from chips
    ktokens_per_chip = inputs["service_tokens_per_s_per_chip"].values / 1e3
    chips_at: dict[tuple[int, int, int], list] = defaultdict(list)
    for index in sets.infer:
        i, s, h, t = index
        chips_at[i, s, t].append((-float(ktokens_per_chip[i, h]), m.infer[index]))
    m.serving_compute = pyo.Constraint(
        list(served_at),
        rule=lambda _, i, s, t: (
            linear(
                [1e3] * len(served_at[i, s, t]) + [c for c, _ in chips_at[i, s, t]],
                served_at[i, s, t] + [v for _, v in chips_at[i, s, t]],
            )
            == 0.0
        ),
        doc="tokens served are what the chips assigned deliver, ktoken/s",
    )
