"""How big a scenario's model will be, counted from the inputs before anything is built,
and a warning with what to do when it will take minutes and gigabytes."""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.model.capacity import most_chips, most_source_mw

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
    """Columns of the LP the inputs give, counted with numpy as the model's sets define
    them (geomodel/model/sets.py), without building them: train, span, DCI flow, site
    group, serve, unserved, infer, generator and grid columns. Integer options add a
    few more (switched-on systems, replicas), and planning its build decisions: not
    counted."""
    n_time = inputs.sizes["time"]
    installed = most_chips(inputs) > 0  # (s, h): installed, or may be built (as the sets)
    columns = 0
    if inputs.sizes.get("job", 0):
        allowed = inputs["job_site_allowed"].values.astype(bool)
        eligible = inputs["job_system_eligible"].values.astype(bool)
        usable = allowed[:, :, None] & eligible[:, None, :] & installed[None, :, :]
        steps = (inputs["job_weight"].values > 0).sum(axis=1)  # (j)
        columns += int((usable.sum(axis=(1, 2)) * steps).sum())  # train
        columns += int((usable.any(axis=2).sum(axis=1) * steps).sum())  # span
        columns += _flow_and_group_columns(inputs, usable.any(axis=2), steps)
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


def _flow_and_group_columns(inputs: xr.Dataset, used: np.ndarray, steps: np.ndarray) -> int:
    """Per job and step in its window: a flow per link between two of its sites that is
    fast enough for its pipeline, and a group per linked-site group when it has several."""
    from geomodel.model.sets import maximal_cliques

    sites = [str(s) for s in inputs["site"].values]
    ends = [
        (sites.index(str(a)), sites.index(str(b)))
        for a, b in zip(inputs["link_site_a"].values, inputs["link_site_b"].values, strict=True)
    ]
    latency = inputs["link_latency_ms"].values
    budget = inputs["pipeline_budget_ms"].values
    columns = 0
    for j in range(used.shape[0]):
        fast = ~(np.isfinite(budget[j]) & (latency > budget[j])) if len(ends) else np.zeros(0, bool)
        pairs = {
            (min(a, b), max(a, b))
            for (a, b), ok in zip(ends, fast, strict=True)
            if ok and used[j, a] and used[j, b]
        }
        groups = maximal_cliques(np.flatnonzero(used[j]).tolist(), pairs)
        shared = sum(len(g) > 1 for g in groups) if len(groups) > 1 else 0
        columns += (len(pairs) + shared) * int(steps[j])
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
