"""Derive philly-job-sizes.csv: the job-size distribution of the Philly multi-GPU trace.

    python scenarios/data/make_philly_sizes.py PATH/TO/philly_multigpu_jobs.csv.gz

One row per job size (GPUs of the job's first attempt): how many jobs had it and their
GPU-hours (GPUs x runtime). The input is the multi-GPU subset of Microsoft's Philly trace
(jobs of at least 4 GPUs, status Pass, at least 10 minutes; see philly-job-sizes.md for
its source and licence). Standard library only; the output is deterministic.
"""

from __future__ import annotations

import csv
import gzip
import sys
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).with_name("philly-job-sizes.csv")


def main(source: str) -> None:
    jobs: dict[int, int] = defaultdict(int)
    hours: dict[int, float] = defaultdict(float)
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            gpus = int(row["num_gpus"])
            jobs[gpus] += 1
            hours[gpus] += gpus * float(row["runtime"]) / 60.0
    with open(OUT, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["chips", "jobs", "gpu_hours"])
        for gpus in sorted(jobs):
            writer.writerow([gpus, jobs[gpus], f"{hours[gpus]:.1f}"])


if __name__ == "__main__":
    main(sys.argv[1])
