"""Map results on typical days back to the calendar, for reporting hour by hour.

Each calendar day takes the values of the typical day it belongs to
(``typical_day_of``). Variables that hold totals per step including the step's
weight (``weighted`` attribute) are divided by it, so a calendar hour shows what
one occurrence of its typical hour amounts to; job progress, which has no
calendar meaning on typical days, is left out.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

HOURS_PER_DAY = 24


def to_calendar(results: xr.Dataset, inputs: xr.Dataset) -> xr.Dataset:
    """Results on every hour of the horizon; plain (non-aggregated) results come back as they are."""
    if "typical_day_of" not in inputs:
        return results
    typical = inputs["typical_day_of"].values
    positions = (typical[:, None] * HOURS_PER_DAY + np.arange(HOURS_PER_DAY)[None, :]).ravel()
    weight = inputs["weight"].values
    hours = (
        inputs["calendar_day"].values[:, None] + np.arange(HOURS_PER_DAY) * np.timedelta64(1, "h")
    ).ravel()
    calendar = {}
    for name, data in results.data_vars.items():
        if "time" not in data.dims or data.attrs.get("weighted") == "job":
            continue
        if data.attrs.get("weighted") == "time":
            data = data / xr.DataArray(weight, dims="time")
            data.attrs = {**results[name].attrs, "weighted": "no"}
        calendar[name] = data.isel(time=positions).assign_coords(time=hours)
    timeless = {n: d for n, d in results.data_vars.items() if "time" not in d.dims}
    mapped = xr.Dataset({**timeless, **calendar}, attrs=results.attrs)
    mapped["time"].attrs["description"] = "every hour of the horizon (UTC), from its typical day"
    return mapped
