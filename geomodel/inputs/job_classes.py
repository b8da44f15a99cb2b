"""Exact aggregation: training jobs the model cannot tell apart become one class.

Two jobs are interchangeable when they have the same window (the same steps
with the same weights), the same usable sites and systems at the same per-chip
rates (peak, MFU, goodput), the same origin of their data (none without data) and
per-site earliest steps, and neither may span sites joined by a link. A class has
the members' summed work, chips (most and least) and data, and the model sees one job. Merging stays
exact (docs/model.md, "Job classes") under one of two conditions:

* **free** members: a member's work fits one step of its window at its most
  chips on its slowest system, and it keeps no chips in every step. Then its
  chip cap can never bind, nor can the one-group rule (its chips are at most a
  site's), and any split of the class's plan among the members is theirs: each
  takes its work, and the members moved away from their data are the cheapest
  to move (the model holds one variable per member and destination for that).
* **proportional** members: the same ratio of work to chips (the same run time
  at full width), of least to most chips and of data to work. Scaling the class's
  plan by each member's share of the work then gives every member a plan within
  its own caps, and every term of the objective is the same.

Jobs that may span linked sites, jobs with more chips than a usable site holds,
and every job under the integer option ``dp_replicas`` stay on their own. A class of
several jobs is a pool of independent runs (``job_synchronous`` false in the inputs):
binary site use (``solver.participation``) applies to each job alone, not to the class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from geomodel.scenario.job_columns import JobColumns, SystemRates

#: The shown name of a class of several jobs: its first member and how many more.
CLASS_NAME = "{first}+{more}"


@dataclass
class JobClasses:
    """Which class each job belongs to, and what each class is."""

    member_class: np.ndarray  #: (job,) class index of each job
    representative: np.ndarray  #: (class,) the first member, whose shared figures the class takes
    size: np.ndarray  #: (class,) number of members
    free: np.ndarray  #: (class,) members may split the class's plan any way (see module doc)
    #: (class,) its chip cap can never bind: every member's work fits one step at its most chips
    cap_redundant: np.ndarray
    names: np.ndarray  #: (class,) a lone job's own name, else ``first+more``

    def total(self, values: np.ndarray) -> np.ndarray:
        """Per-class sums of a per-job array."""
        return np.bincount(self.member_class, weights=values, minlength=len(self.size))


def merge_classes(
    columns: JobColumns,
    rates: SystemRates,
    window_id: np.ndarray,
    window_hours: np.ndarray,
    chips_at: np.ndarray,
    spans: np.ndarray,
    first_step: np.ndarray,
    enabled: bool,
) -> JobClasses:
    """Group the jobs into classes (every job its own class when ``enabled`` is false).

    ``window_hours`` is (window, step): the hours each step counts for a job with
    that window (0 outside it); ``chips_at`` is (job, site, system), the chips a
    job could use there; ``spans`` marks jobs that may span linked sites;
    ``first_step`` is (job, site), the first step a job may use there.
    """
    n = len(columns)
    rate = rates.eflop_per_chip_hour()
    usable_system = (chips_at > 0).any(axis=1)
    slowest = np.where(usable_system, rate, np.inf).min(axis=1, initial=np.inf)
    site_chips = chips_at.sum(axis=2)
    shortest = _shortest_step(window_hours)[window_id]
    cap = columns.max_chips
    smallest_site = np.where(site_chips > 0, site_chips, np.inf).min(axis=1)
    mergeable = enabled & ~spans & np.isfinite(cap) & (cap <= smallest_site)
    with np.errstate(invalid="ignore", divide="ignore"):
        fits_a_step = (columns.min_chips == 0) & (columns.work_eflop <= cap * slowest * shortest)
        free = mergeable & fits_a_step
        ratios = np.stack(
            [
                columns.work_eflop / cap,
                columns.data_gb / columns.work_eflop,
                columns.min_chips / columns.work_eflop,
            ],
            axis=1,
        )
    ratios[free | ~mergeable] = 0.0
    keys = pd.DataFrame(
        {
            "lone": np.where(mergeable, -1, np.arange(n)),
            "free": free,
            "window": window_id,
            # an origin matters only with data to move from it (a site restriction to the
            # origin, stay_at_origin, is in the allowed sites below)
            "origin": np.where(columns.data_gb > 0, columns.origin, -1),
            "uniform": columns.uniform_rate,
            "tp": columns.tp,
            "ep": columns.ep,
            "pp": columns.pp,
        }
    )
    blocks = {
        "allowed": columns.allowed,
        "eligible": rates.eligible,
        "pflops": rates.pflops,
        "goodput": rates.goodput,
        "mfu": rates.mfu,
        "first": first_step,
        "ratio": ratios,
    }
    for prefix, block in blocks.items():
        for k in range(block.shape[1]):
            keys[f"{prefix}{k}"] = block[:, k]
    member_class = keys.groupby(list(keys.columns), sort=False, dropna=False).ngroup().to_numpy()
    size = np.bincount(member_class)
    representative = np.full(len(size), n, dtype=np.int64)
    np.minimum.at(representative, member_class, np.arange(n))
    first_names = columns.name[representative]
    names = np.array(
        [
            name if k == 1 else CLASS_NAME.format(first=name, more=k - 1)
            for name, k in zip(first_names, size, strict=True)
        ],
        dtype=object,
    )
    return JobClasses(
        member_class=member_class,
        representative=representative,
        size=size,
        free=free[representative] & (size > 1),
        cap_redundant=fits_a_step[representative],
        names=names,
    )


def _shortest_step(window_hours: np.ndarray) -> np.ndarray:
    """Per window, the fewest hours a step inside it counts for (inf for an empty window)."""
    inside = np.where(window_hours > 0, window_hours, np.inf)
    return inside.min(axis=1, initial=np.inf)
