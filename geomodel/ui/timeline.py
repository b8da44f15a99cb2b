"""How a result's steps lie in time, for charts, the map's time slider and step labels
(no streamlit).

A result's steps are either on the calendar (hourly or longer steps, one after another)
or typical days: each step is a segment of one typical day (``dt_hours`` long, from an
hour of the day) that stands for ``weight`` days of the horizon. Typical days have no
place on a calendar: drawn against the ``time`` coordinate (the first day each stands
for) their segments would run across months in file order. So a typical-day result is
drawn per typical day, in the order of the first day each stands for, each day a block of
24 hours with its weight in days; the hours of the year, where asked for, come from
``Result.calendar()`` (each day of the horizon as its typical day).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

HOURS_PER_DAY = 24
#: hours left between two typical days' blocks on a chart's x axis
DAY_GAP_H = 2.0


@dataclass(frozen=True)
class Timeline:
    """Each step's start, length and weight; for typical days, each step's day and hour."""

    start: np.ndarray  #: datetime64: step start (typical days: in the first day it stands for)
    dt_hours: np.ndarray
    weight: np.ndarray
    day: np.ndarray | None = None  #: typical day of each step (None: calendar steps)
    hour: np.ndarray | None = None  #: hour of the day each step starts at
    days: np.ndarray | None = None  #: days each typical day stands for
    order: np.ndarray | None = None  #: typical days in the order of the first day they stand for

    @property
    def typical(self) -> bool:
        return self.day is not None

    @property
    def hours(self) -> np.ndarray:
        """Hours each step stands for: weight x length (the weights of sums and means)."""
        return self.weight * self.dt_hours

    def day_label(self, day: int) -> str:
        """``"like 2 Jan · 55 days"``: a typical day by the first day it stands for."""
        first = pd.Timestamp(self.start[np.flatnonzero(self.day == day)[0]])
        count = float(self.days[day])
        return f"like {first.day} {first:%b} · {count:g} day{'s' * (count != 1)}"

    def step_label(self, step: int) -> str:
        """A step as a planner reads it: ``2025-07-01 06:00`` on the calendar, or
        ``like 2 Jan · 55 days, 08:00-15:00`` for a typical day's segment."""
        if not self.typical:
            return str(self.start[step])[:16].replace("T", " ")
        begin = float(self.hour[step])
        end = begin + float(self.dt_hours[step])
        return f"{self.day_label(int(self.day[step]))}, {_clock(begin)}-{_clock(end)}"

    def steps_in_order(self) -> list[int]:
        """The steps as the charts and the slider go through them: typical days in order
        of the first day each stands for, each day's segments by hour."""
        if not self.typical:
            return list(range(len(self.start)))
        rank = {int(d): k for k, d in enumerate(self.order)}
        return sorted(range(len(self.start)), key=lambda s: (rank[int(self.day[s])], self.hour[s]))

    def block_x(self, step: int) -> float:
        """A typical-day step's start on a chart's x axis: its day's block plus its hour."""
        rank = int(np.flatnonzero(self.order == self.day[step])[0])
        return rank * (HOURS_PER_DAY + DAY_GAP_H) + float(self.hour[step])

    def block_ticks(self) -> tuple[list[float], list[str]]:
        """Where each typical day's block is centred on the x axis, and its label."""
        positions = [k * (HOURS_PER_DAY + DAY_GAP_H) + HOURS_PER_DAY / 2 for k in range(len(self.order))]
        return positions, [self.day_label(int(d)).replace(" · ", "<br>") for d in self.order]

    def line(self, values: np.ndarray) -> tuple[list, list]:
        """A per-step series as a step line: flat over each step; typical days each their
        own block, the line broken between them (``None``)."""
        xs: list = []
        ys: list = []
        previous = None
        for step in self.steps_in_order():
            if self.typical:
                if previous is not None and self.day[step] != self.day[previous]:
                    xs.append(None)
                    ys.append(None)
                begin = self.block_x(step)
                xs += [begin, begin + float(self.dt_hours[step])]
            else:
                begin = self.start[step]
                xs += [begin, begin + np.timedelta64(round(float(self.dt_hours[step]) * 3600), "s")]
            ys += [float(values[step])] * 2
            previous = step
        return xs, ys

    def axis(self) -> dict:
        """The x axis of a per-step chart: typical days by block, else time (UTC)."""
        if not self.typical:
            return {"title_text": "time (UTC)"}
        ticks, texts = self.block_ticks()
        return {"tickvals": ticks, "ticktext": texts, "title_text": "typical days (hours 0-24 of each)"}


def _clock(hours: float) -> str:
    return f"{int(hours):02d}:{round((hours % 1) * 60):02d}"


def timeline(inputs: xr.Dataset) -> Timeline:
    """The steps of an inputs Dataset: on the calendar, or segments of typical days."""
    start = inputs["time"].values
    dt_hours = inputs["dt_hours"].values.astype(float)
    weight = inputs["weight"].values.astype(float)
    if "typical_day_of" not in inputs or "step_of_hour" not in inputs:
        return Timeline(start, dt_hours, weight)
    of_day = inputs["typical_day_of"].values.astype(int)  # (calendar day,)
    step_of_hour = inputs["step_of_hour"].values.astype(int)  # (hour,)
    n_steps = len(start)
    day = np.full(n_steps, -1)
    hour = np.full(n_steps, np.nan)
    for calendar_day, typical in enumerate(of_day):
        steps = step_of_hour[calendar_day * HOURS_PER_DAY : (calendar_day + 1) * HOURS_PER_DAY]
        for h, step in enumerate(steps):
            if day[step] < 0:
                day[step] = typical
            if np.isnan(hour[step]) or h < hour[step]:
                hour[step] = h
    days = np.bincount(of_day, minlength=int(of_day.max()) + 1).astype(float)
    first_day = np.array([np.flatnonzero(of_day == d)[0] for d in range(len(days))])
    return Timeline(start, dt_hours, weight, day, hour, days, np.argsort(first_day, kind="stable"))
