"""Map results back to the calendar, for reporting hour by hour.

Each hour of the horizon takes the values of the step it lies in: the step
itself for hourly steps, the step holding it for longer ones, and for typical
days the hour, or the segment holding it, of its day's typical day
(``step_of_hour`` in the inputs). Variables that hold totals per step
including the step's weight (``weighted: time``) are divided by the hours the
step stands for, so every hour shows its own share, whatever the steps were.
Job variables (``weighted: job``: progress, work per step) are left out: on
typical days they have no calendar meaning, and they stay in the results.
"""

from __future__ import annotations

import numpy as np
import xarray as xr


def to_calendar(results: xr.Dataset, inputs: xr.Dataset) -> xr.Dataset:
    """Results on every hour of the horizon, with per-hour totals."""
    positions, hours = step_of_each_hour(inputs)
    hours_per_step = inputs["weight"] * inputs["dt_hours"]
    calendar = {}
    for name, data in results.data_vars.items():
        if "time" not in data.dims or data.attrs.get("weighted") == "job":
            continue
        if data.attrs.get("weighted") == "time":
            description = data.attrs.get("description", "")
            data = data / hours_per_step.variable
            data.attrs = {
                **results[name].attrs,
                "weighted": "no",
                "description": f"one hour's share of: {description}",
            }
        calendar[name] = data.isel(time=positions).assign_coords(time=hours)
    timeless = {n: d for n, d in results.data_vars.items() if "time" not in d.dims}
    mapped = xr.Dataset({**timeless, **calendar}, attrs=results.attrs)
    mapped["time"].attrs["description"] = "every hour of the horizon (UTC), from the step it lies in"
    return mapped


def step_of_each_hour(inputs: xr.Dataset) -> tuple[np.ndarray, np.ndarray]:
    """The model step of every hour of the horizon, and the hours' start times (UTC)."""
    if "step_of_hour" in inputs:
        return inputs["step_of_hour"].values, inputs["hour"].values
    dt_hours = inputs["dt_hours"].values.astype(int)
    positions = np.repeat(np.arange(len(dt_hours)), dt_hours)
    hour_in_step = np.arange(len(positions)) - np.repeat(np.cumsum(dt_hours) - dt_hours, dt_hours)
    hours = inputs["time"].values[positions] + hour_in_step * np.timedelta64(1, "h")
    return positions, hours
