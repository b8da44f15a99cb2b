"""Map results on typical days back to the calendar, for reporting hour by hour.

Each hour of the horizon takes the values of the step it maps to
(``step_of_hour``: the hour, or the segment holding it, of its day's typical
day). Variables that hold totals per step including the step's weight
(``weighted`` attribute) are divided by the hours the step stands for, so a
calendar hour shows one hour's share of its typical step; job progress, which
has no calendar meaning on typical days, is left out.
"""

from __future__ import annotations

import xarray as xr


def to_calendar(results: xr.Dataset, inputs: xr.Dataset) -> xr.Dataset:
    """Results on every hour of the horizon; plain (non-aggregated) results come back as they are."""
    if "step_of_hour" not in inputs:
        return results
    positions = inputs["step_of_hour"].values
    hours_per_step = inputs["weight"] * inputs["dt_hours"]
    calendar = {}
    for name, data in results.data_vars.items():
        if "time" not in data.dims or data.attrs.get("weighted") == "job":
            continue
        if data.attrs.get("weighted") == "time":
            data = data / hours_per_step.variable
            data.attrs = {**results[name].attrs, "weighted": "no"}
        calendar[name] = data.isel(time=positions).assign_coords(time=inputs["hour"].values)
    timeless = {n: d for n, d in results.data_vars.items() if "time" not in d.dims}
    mapped = xr.Dataset({**timeless, **calendar}, attrs=results.attrs)
    mapped["time"].attrs["description"] = "every hour of the horizon (UTC), from its typical day"
    return mapped
