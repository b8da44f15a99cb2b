"""Training jobs one by one, as a planner follows a trace (no streamlit): where each job
ran, when against its arrival and deadline, the data it moved and what it cost, and the
class the model solved it in.

The model solves interchangeable jobs as one class (``job0001+3``: job0001 and 3 more,
docs/model.md, "Job classes"); the results split each class back per job
(``member_*`` variables). A job's sites and data are its own; its hours are its class's
steps with chips: a proportional class runs every member in every one of them, a freely
split class's members each take some of them (any split is theirs), so for those the
start is the class's first step, an earliest start.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.ui.format import NAME, human

#: a job's work elsewhere than its origin below this share of its work is round-off
MOVED_SHARE = 1e-6
#: a job started this many hours after it arrived or more has waited
WAITED_H = 1e-6
#: outcome -> what it means
OUTCOMES = {
    "at origin, on arrival": "ran where its data is, as soon as it arrived",
    "at origin, later": "ran where its data is, later than it arrived (temporal shifting)",
    "moved, on arrival": "ran (in part) away from its data, as soon as it arrived",
    "moved and later": "ran (in part) away from its data, and later than it arrived",
    "anywhere": "has no origin: ran where and when it was cheapest",
}
CLASS_NOTE = (
    "A name like job0001+3 is a class: job0001 and 3 more jobs the model cannot tell apart "
    "(the same window, origin, sites, chips and rates), solved as one job and split back here "
    'job by job (docs/model.md, "Job classes"). Search for any job by its own name.'
)


def has_members(inputs: xr.Dataset) -> bool:
    return "member_class" in inputs and inputs.sizes.get("job_member", 0) > 0


def job_outcomes(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """One row per training job: its class (and the class's size), origin, the sites it ran
    at with their shares, its outcome, arrival, start, wait, finish and deadline (hours
    after the horizon's start; NaN on typical days, which have no calendar), data moved,
    transfer cost, energy, energy cost and emissions."""
    member_class = inputs["member_class"].values.astype(int)
    class_names = [str(n) for n in inputs["job"].values]
    sites = [str(s) for s in inputs["site"].values]
    origin = inputs["job_origin"].values.astype(int)[member_class] if "job_origin" in inputs else None
    work = results["member_work_eflop"].values  # (member, site)
    total = work.sum(axis=1)
    shares = work / np.where(total > 0, total, 1.0)[:, None]
    first_h, last_h = _class_hours(results, inputs)
    arrival = inputs["member_start_h"].values
    deadline = inputs["member_end_h"].values
    sizes = np.bincount(member_class)
    rows = []
    for k, name in enumerate(inputs["job_member"].values):
        j = member_class[k]
        home = int(origin[k]) if origin is not None else -1
        moved = home >= 0 and shares[k].sum() - shares[k, home] > MOVED_SHARE
        started = first_h[j]
        waited = max(started - arrival[k], 0.0) if np.isfinite(started) else np.nan
        later = bool(np.isfinite(waited) and waited > WAITED_H)
        outcome = (
            "anywhere"
            if home < 0
            else ("moved and later" if later else "moved, on arrival")
            if moved
            else ("at origin, later" if later else "at origin, on arrival")
        )
        ran = [(shares[k, s], sites[s]) for s in np.flatnonzero(shares[k] > MOVED_SHARE)]
        rows.append(
            {
                "job": str(name),
                "class": class_names[j],
                "class_size": int(sizes[j]),
                "origin": sites[home] if home >= 0 else "",
                "ran_at": ", ".join(f"{human(s)} {v * 100:.0f} %" for v, s in sorted(ran, reverse=True)),
                "outcome": outcome,
                "arrival_h": float(arrival[k]),
                "start_h": float(started),
                "waited_h": float(waited),
                "finish_h": float(last_h[j]),
                "deadline_h": float(deadline[k]),
                "work_eflop": float(total[k]),
                "moved_gb": float(results["member_moved_gb"].values[k]),
                "transfer_usd": float(results["member_transfer_cost_usd"].values[k]),
                "energy_mwh": float(results["member_energy_mwh"].values[k]),
                "cost_usd": float(results["member_cost_usd"].values[k]),
                "emissions_tco2": float(results["member_emissions_tco2"].values[k]),
            }
        )
    return pd.DataFrame(rows)


def _class_hours(results: xr.Dataset, inputs: xr.Dataset) -> tuple[np.ndarray, np.ndarray]:
    """Per class: the start of its first step with chips and the end of its last (hours
    after the horizon's start); NaN for typical days or a class that never ran."""
    n = inputs.sizes["job"]
    if "typical_day_of" in inputs:
        return np.full(n, np.nan), np.full(n, np.nan)
    chips = results["training_chips"].sum(("site", "system")).transpose("job", "time").values
    scale = max(float(np.abs(chips).max(initial=0.0)), 1.0)
    active = chips > 1e-9 * scale
    starts = (inputs["time"].values - inputs["time"].values[0]) / np.timedelta64(1, "h")
    ends = starts + inputs["dt_hours"].values
    first = np.where(active.any(axis=1), starts[np.argmax(active, axis=1)], np.nan)
    last_step = active.shape[1] - 1 - np.argmax(active[:, ::-1], axis=1)
    last = np.where(active.any(axis=1), ends[last_step], np.nan)
    return first.astype(float), last.astype(float)


def outcome_summary(jobs: pd.DataFrame) -> pd.DataFrame:
    """Jobs, work, data moved and energy cost by outcome, in :data:`OUTCOMES` order."""
    grouped = jobs.groupby("outcome").agg(
        jobs=("job", "count"),
        work_eflop=("work_eflop", "sum"),
        moved_gb=("moved_gb", "sum"),
        transfer_usd=("transfer_usd", "sum"),
        cost_usd=("cost_usd", "sum"),
        waited_h=("waited_h", "mean"),
    )
    order = [o for o in OUTCOMES if o in grouped.index]
    frame = grouped.loc[order].reset_index()
    frame["meaning"] = [OUTCOMES[o] for o in frame["outcome"]]
    return frame


def matching(jobs: pd.DataFrame, text: str, outcome: str | None = None) -> pd.DataFrame:
    """The jobs whose own name or class name holds ``text`` (any case), of one outcome."""
    found = jobs
    if outcome:
        found = found[found["outcome"] == outcome]
    text = text.strip().lower()
    if text:
        own = found["job"].str.lower().str.contains(text, regex=False)
        found = found[own | found["class"].str.lower().str.contains(text, regex=False)]
    return found


def clock(hours: float, start: np.datetime64) -> str:
    """Hours after the horizon's start as ``Apr 03 14:04`` (UTC); a dash for none."""
    if not np.isfinite(hours):
        return "-"
    moment = pd.Timestamp(start) + pd.Timedelta(hours=float(hours))
    return f"{moment:%b %d %H:%M}"


def with_clock(jobs: pd.DataFrame, start: np.datetime64) -> pd.DataFrame:
    """The jobs with their arrival, start, finish and deadline as UTC date-times."""
    timed = jobs.copy()
    for column in ("arrival_h", "start_h", "finish_h", "deadline_h"):
        timed[column.replace("_h", "")] = [clock(h, start) for h in jobs[column]]
    return timed


JOB_TABLE = {
    "job": ("Job", None),
    "class": ("Class (solved as)", None),
    "origin": ("Origin", NAME),
    "ran_at": ("Ran at", None),
    "outcome": ("Outcome", None),
    "arrival": ("Arrived (UTC)", None),
    "start": ("Started (UTC)", None),
    "waited_h": ("Waited (h)", 1),
    "finish": ("Done by (UTC)", None),
    "deadline": ("Deadline (UTC)", None),
    "moved_gb": ("Data moved (GB)", 1),
    "transfer_usd": ("Transfer (USD)", 2),
    "cost_usd": ("Energy cost (USD)", 2),
    "emissions_tco2": ("Emissions (tCO2e)", 3),
}
SUMMARY_TABLE = {
    "outcome": ("Outcome", None),
    "meaning": ("What it means", None),
    "jobs": ("Jobs", 0),
    "work_eflop": ("Work (EFLOP)", 0),
    "waited_h": ("Mean wait (h)", 1),
    "moved_gb": ("Data moved (GB)", 0),
    "transfer_usd": ("Transfer (USD)", 0),
    "cost_usd": ("Energy cost (USD)", 0),
}
