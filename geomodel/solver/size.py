"""How big a scenario's model will be, counted from the inputs before anything is built,
and a warning with what to do when it will take minutes and gigabytes."""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.model.capacity import most_chips, most_source_mw
from geomodel.model.sets import training_columns

#: Above this many columns, warn before building (docs/performance.md: HiGHS takes
#: minutes per million columns; 10^6 columns took 219 s on 2 cores, 10^5 about 15 s).
LARGE_MODEL_COLUMNS = 500_000
#: Peak memory, GB = base + per million columns x columns / 10^6, as a range: the low
#: end fits bench/year.py's typical-day years (5 sizes, 0.26-1.56 million columns,
#: within 6 %), the high end the hour-by-hour years, whose year-long inputs and denser
#: serving rows take more per column (docs/performance.md, "Memory": quickstart and
#: east-data-west-compute over 8,760 hours).
MEMORY_LOW_GB = (0.43, 2.4)
MEMORY_HIGH_GB = (0.25, 4.4)


def estimate_columns(inputs: xr.Dataset) -> int:
    """Columns of the LP the inputs give, without building the model: train, span, DCI
    flow and site group from the training index sets (geomodel/model/sets.py, the
    rows that cannot bind left out), serve, unserved, infer, generator and grid
    counted with numpy. Integer options add a few more (switched-on systems, replicas,
    the spans binary ``site_participation`` keeps), and planning its build decisions:
    not counted."""
    n_time = inputs.sizes["time"]
    installed = most_chips(inputs) > 0  # (s, h): installed, or may be built (as the sets)
    columns = training_columns(inputs)  # train, span, flow, group
    if inputs.sizes.get("service", 0) and inputs.sizes.get("region", 0):
        demand = inputs["demand_tokens_per_s"].values > 0  # (i, r, t)
        reachable = inputs["latency_ms"].values[None, :, :] <= inputs["sla_ms"].values[:, None, None]
        allowed = inputs["service_system_allowed"].values.astype(bool)  # (i, h)
        systems = (allowed[:, None, :] & installed[None, :, :]).sum(axis=2)  # (i, s)
        reachable &= systems[:, None, :] > 0
        columns += int(demand.sum())  # unserved
        columns += int((demand.sum(axis=2) * reachable.sum(axis=2)).sum())  # serve
        served_sites = reachable.any(axis=1)  # (i, s)
        busy_steps = demand.any(axis=1).sum(axis=1)  # (i)
        columns += int(((served_sites * systems).sum(axis=1) * busy_steps).sum())  # infer
    if inputs.sizes.get("source", 0):
        columns += int((most_source_mw(inputs) > 0).sum()) * n_time  # gen
    columns += int((inputs["grid_import_limit_mw"].values > 0).sum()) * n_time  # grid
    return columns


def size_warning(inputs: xr.Dataset) -> str:
    """A warning with a hint to aggregate when the model will be large; "" otherwise."""
    columns = estimate_columns(inputs)
    if columns < LARGE_MODEL_COLUMNS:
        return ""
    hours = float(np.sum(inputs["weight"].values * inputs["dt_hours"].values))
    low, high = (
        base + per_million * columns / 1e6 for base, per_million in (MEMORY_LOW_GB, MEMORY_HIGH_GB)
    )
    aggregated = int(inputs.attrs.get("typical_days", 0) or 0) > 0
    hint = (
        "use fewer typical days or segments (time.aggregation)"
        if aggregated
        else "cut the horizon into typical days (time.aggregation.typical_days, and .segments "
        "for fewer steps a day) or shorten it; --check-aggregation shows what that costs in accuracy"
    )
    return (
        f"the model will have about {columns:,} columns ({inputs.sizes['time']:,} time steps for "
        f"{hours:,.0f} h): expect minutes of solving and {low:,.1f}-{high:,.1f} GB of memory "
        f'(docs/performance.md, "Memory"); {hint}'
    )
