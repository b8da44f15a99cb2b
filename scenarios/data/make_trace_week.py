"""Generate the job table of scenarios/trace-week.yaml from published trace statistics.

2,500 training jobs over the week from 2023-04-03 00:00 UTC, each submitted at one of
five sites, drawn with a fixed seed from statistics of the SenseTime Helios trace
(Saturn cluster, Hu et al. SC '21; ``helios_saturn_statistics.csv``, digitised by
``digitise_helios.py``):

* **arrivals**: each job's site is drawn by the site shares below [assumption];
  its hour of the week follows Helios's mean GPU-job submissions by hour of the day,
  read in the site's own local time (the trace's clock is the cluster's), and its
  minute is uniform within the hour;
* **durations**: Helios's CDF of GPU-job run times at 2**i s, inverted with
  log-linear interpolation between its points (7.2 % of jobs end within a second;
  they stay, as in the trace). A job running past the end of the week is cut at
  the end (the week is an excerpt of a longer trace);
* **GPUs**: Helios's CDF of GPUs per job; each job takes the upper end of its
  bucket (1, 2, 4, 8, 12, ...); the 0.27 % above 64 GPUs are drawn as 64-GPU jobs,
  the most one server group of the example's sites is sized for [assumption];
* **data**: the trace records none: lognormal with a median of 50 GB and a log
  standard deviation of 1.5 (90 % of jobs below 340 GB) [assumption].

The sites are sized so that every job can run where it was submitted, when it was
submitted (the local-only variant): each site gets the HGX H100 servers for the
most GPUs its own jobs hold in any hour (windows widened to whole hours), over its
availability (0.97), rounded up. ``python scenarios/data/make_trace_week.py`` rewrites
the table and prints those servers; tests/test_example_scenarios.py checks both
against the scenario.
"""

from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
STATISTICS = HERE / "helios_saturn_statistics.csv"
TABLE = HERE / "trace-week-jobs.csv"
SEED = 20230403
JOBS = 2500
START = pd.Timestamp("2023-04-03T00:00:00Z")
HOURS = 168
#: site -> (share of the jobs submitted there [assumption], time zone)
SITES = {
    "ashburn": (0.25, "America/New_York"),
    "abilene": (0.15, "America/Chicago"),
    "santa_clara": (0.25, "America/Los_Angeles"),
    "frankfurt": (0.20, "Europe/Berlin"),
    "lulea": (0.15, "Europe/Stockholm"),
}
MOST_GPUS = 64
DATA_MEDIAN_GB = 50.0
DATA_SIGMA = 1.5
AVAILABILITY = 0.97
GPUS_PER_SERVER = 8


def statistics() -> dict[str, pd.DataFrame]:
    frame = pd.read_csv(STATISTICS)
    return {name: part[["x", "value"]].astype(float) for name, part in frame.groupby("statistic")}


def draw_jobs(seed: int = SEED, n: int = JOBS) -> pd.DataFrame:
    """The week's jobs, one row each, in arrival order."""
    rng = np.random.default_rng(seed)
    stats = statistics()
    names = list(SITES)
    shares = np.array([SITES[s][0] for s in names])
    origin = rng.choice(len(names), size=n, p=shares / shares.sum())
    submissions = stats["submissions"]["value"].to_numpy()  # by hour of day 0..23
    hours = pd.date_range(START, periods=HOURS, freq="h")
    arrival_h = np.empty(n)
    for k, site in enumerate(names):
        local_hour = hours.tz_convert(ZoneInfo(SITES[site][1])).hour.to_numpy()
        weight = submissions[local_hour]
        mine = np.flatnonzero(origin == k)
        picked = rng.choice(HOURS, size=len(mine), p=weight / weight.sum())
        arrival_h[mine] = picked + rng.random(len(mine))
    arrival_h = np.round(arrival_h * 3600) / 3600  # whole seconds
    duration_s = _inverse_log_cdf(stats["duration_cdf"], rng.random(n))
    # cut at the end of the week; microhours rounded down, so no job ends after it
    duration_h = np.floor(np.minimum(duration_s / 3600.0, HOURS - arrival_h) * 1e6) / 1e6
    gpus = _buckets(stats["gpus_cdf"], rng.random(n))
    data_gb = DATA_MEDIAN_GB * np.exp(DATA_SIGMA * rng.standard_normal(n))
    order = np.argsort(arrival_h, kind="stable")
    arrival = START + pd.to_timedelta(np.round(arrival_h[order] * 3600), unit="s")
    return pd.DataFrame(
        {
            "name": [f"job{i:04d}" for i in range(1, n + 1)],
            "arrival": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in arrival],
            "duration_h": duration_h[order],
            "chips": gpus[order],
            "origin": [names[k] for k in origin[order]],
            "data_gb": np.round(data_gb[order], 3),
        }
    )


def _inverse_log_cdf(cdf: pd.DataFrame, u: np.ndarray) -> np.ndarray:
    """Values for quantiles ``u`` of a CDF given at points x (log-linear between them;
    below the first point, the first point)."""
    x = np.log(cdf["x"].to_numpy())
    p = cdf["value"].to_numpy() / 100.0
    p[-1] = 1.0
    return np.exp(np.interp(u, p, x, left=x[0]))


def _buckets(cdf: pd.DataFrame, u: np.ndarray) -> np.ndarray:
    """Each draw takes the upper end of its bucket of a discrete CDF, at most MOST_GPUS."""
    upper = cdf["x"].to_numpy()
    p = cdf["value"].to_numpy() / 100.0
    p[-1] = 1.0
    return np.minimum(upper[np.searchsorted(p, u, side="left")], MOST_GPUS).astype(int)


def servers_per_site(jobs: pd.DataFrame) -> dict[str, int]:
    """Servers each site needs to run its own jobs at arrival: the most GPUs whose
    (hour-widened) windows overlap any hour, over the availability, in 8-GPU servers."""
    arrival_h = (pd.to_datetime(jobs["arrival"]) - START).dt.total_seconds().to_numpy() / 3600.0
    first = np.floor(arrival_h + 1e-9).astype(int)
    last = np.ceil(arrival_h + jobs["duration_h"].to_numpy() - 1e-9).astype(int)
    servers = {}
    for site in SITES:
        busy = np.zeros(HOURS)
        mine = (jobs["origin"] == site).to_numpy()
        for a, b, g in zip(first[mine], last[mine], jobs["chips"].to_numpy()[mine], strict=True):
            busy[a : max(b, a + 1)] += g
        servers[site] = math.ceil(busy.max() / AVAILABILITY / GPUS_PER_SERVER)
    return servers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=TABLE)
    args = parser.parse_args()
    jobs = draw_jobs()
    jobs.to_csv(args.out, index=False, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
    gpu_hours = float((jobs["duration_h"] * jobs["chips"]).sum())
    print(f"{len(jobs)} jobs, {gpu_hours:,.0f} GPU-hours -> {args.out}")
    for site, count in servers_per_site(jobs).items():
        print(f"  {site}: {count} hgx_h100_8 servers")


if __name__ == "__main__":
    main()
