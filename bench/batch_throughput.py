"""Batch throughput: scenarios per minute with 1 and 2 Dask workers on one sweep.

Run by hand (not part of the test suite):

    python bench/batch_throughput.py                 # 60 scenarios of 24 hours, 1 and 2 workers
    python bench/batch_throughput.py --repeat 3      # best of 3 rounds
    python bench/batch_throughput.py --scenarios 200 --hours 48 --workers 1 2 4 --json

The sweep: the quickstart (3 sites, 3 user regions, one training job, one chat
service) cut to ``--hours`` hourly steps, with a training job of ``--flop``
that fits in them, and ``--scenarios`` carbon prices 0, 5, 10, ... USD/tCO2,
so every case is a distinct scenario (its own hash, its own solve). Each worker
count runs the same sweep into a fresh output folder with a fresh LocalCluster
(one thread per worker; HiGHS gets cores // workers threads).

Three rates are printed for each worker count (with ``--repeat R``, the best of
R rounds, every other round in reverse order):

* end to end: cases / wall time of ``run_batch``, including starting and
  stopping the cluster, checking every case on the driver, the workers' first
  imports, and writing manifest.csv and combined.nc;
* steady: the cases finished after every worker has finished its first one /
  the time from then to the last, i.e. the rate once every worker is warm (has
  imported geomodel, built its catalogue and solved a case); finish times are
  the write times of the cases' records. The goal (at least 1.8x with 2
  workers on 2 cores) is about this one;
* no Dask: the same cases solved by the same function (``solve_case``, which
  writes each result and record) in W plain processes started together, warm,
  with no scheduler, no driver and no progress. It is what this machine gives
  for this work at this moment: on a machine shared with other work, two
  processes may not get two cores, and the steady rate should be compared
  with this rather than with 2x.

The load average before each run and the CPU seconds of the driver (which
hosts the LocalCluster's scheduler) and of the workers are printed too.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICKSTART = ROOT / "scenarios" / "quickstart.yaml"


def write_sweep(folder: Path, scenarios: int, hours: int, flop: str) -> Path:
    """A grid of ``scenarios`` carbon prices over the shortened quickstart (JSON is YAML)."""
    sweep = {
        "name": "throughput",
        "description": f"{scenarios} carbon prices on the quickstart cut to {hours} h",
        "base": str(QUICKSTART),
        "set": {"time.hours": hours, "solver.threads": 1, "training.pretrain.compute": flop},
        "grid": {"objective.carbon_price": [5 * i for i in range(scenarios)]},
    }
    path = folder / "throughput.yaml"
    path.write_text(json.dumps(sweep, indent=1), encoding="utf-8")
    return path


def _cores() -> int:
    return len(os.sched_getaffinity(0))


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measure(sweep: Path, outdir: Path, workers: int) -> dict:
    """One run of the sweep through run_batch on a fresh LocalCluster."""
    from geomodel.batch.engine import run_batch

    own, children = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    summary = run_batch(sweep, outdir, workers=workers)
    wall = time.perf_counter() - started
    # CPU seconds, which other work on the machine does not inflate: the driver (with the
    # LocalCluster's scheduler, in-process) and the workers (reaped with their nannies)
    driver_cpu = _cpu(resource.RUSAGE_SELF) - own
    workers_cpu = _cpu(resource.RUSAGE_CHILDREN) - children
    # when each case finished, and on which worker: its record's write time and field
    finished = sorted(
        (p.stat().st_mtime_ns / 1e9, json.loads(p.read_text())["worker"])
        for p in (outdir / "results").glob("*.json")
    )
    first: dict[str, float] = {}
    for when, worker in finished:
        first.setdefault(worker, when)
    warm = max(first.values())  # every worker has finished a case: all are warm
    after = [when for when, _ in finished if when > warm]
    steady = after[-1] - warm if after else float("nan")
    return {
        "workers": workers,
        "workers_used": len(first),
        "cases": len(summary.rows),
        "failed": len(summary.failed),
        "wall_s": wall,
        "steady_cases": len(after),
        "steady_s": steady,
        "end_to_end_per_min": 60 * len(summary.rows) / wall,
        "steady_per_min": 60 * len(after) / steady if after else float("nan"),
        "driver_cpu_s": driver_cpu,
        "workers_cpu_s": workers_cpu,
    }


def _plain_process(base: str, tasks: list[dict], outdir: str, threads: int, ready, results):
    """Warm up, wait for the others, then solve ``tasks`` one after another."""
    from geomodel.batch.engine import _worker_catalog, solve_case

    _worker_catalog()
    solve_case(base, {**tasks[0], "hash": f"warm-{os.getpid()}"}, outdir, threads)
    ready.wait()
    started = time.time()
    for task in tasks:
        solve_case(base, task, outdir, threads)
    results.put((started, time.time()))


def measure_without_dask(sweep: Path, outdir: Path, workers: int) -> dict:
    """The sweep's cases split over ``workers`` plain processes solving in parallel."""
    from geomodel.batch.sweep import load_sweep

    loaded, base = load_sweep(sweep)
    tasks = [{"hash": f"plain-{c.name}", "case": c.model_dump()} for c in loaded.expand()]
    (outdir / "results").mkdir(parents=True)
    context = multiprocessing.get_context("spawn")
    ready, results = context.Barrier(workers), context.Queue()
    threads = max(1, _cores() // workers)  # the engine's rule for a LocalCluster
    processes = [
        context.Process(
            target=_plain_process,
            args=(str(base), tasks[index::workers], str(outdir), threads, ready, results),
        )
        for index in range(workers)
    ]
    for process in processes:
        process.start()
    spans = [results.get(timeout=3600) for _ in processes]
    for process in processes:
        process.join()
    seconds = max(end for _, end in spans) - min(start for start, _ in spans)
    return {"workers": workers, "cases": len(tasks), "seconds": seconds,
            "per_min": 60 * len(tasks) / seconds}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", type=int, default=60, help="cases in the sweep (60)")
    parser.add_argument("--hours", type=int, default=24, help="hourly steps per scenario (24)")
    parser.add_argument("--flop", default="1e23 FLOP", help="training compute (1e23 FLOP)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="counts (1 2)")
    parser.add_argument(
        "--repeat", type=int, default=1, help="rounds, every other one in reverse order; best kept"
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip the no-Dask runs")
    parser.add_argument("--keep", type=Path, help="keep the output folders here")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    runs, plain = [], []
    with tempfile.TemporaryDirectory(prefix="geomodel-bench-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        sweep = write_sweep(folder, args.scenarios, args.hours, args.flop)
        for round_ in range(args.repeat):
            order = args.workers if round_ % 2 == 0 else args.workers[::-1]
            for workers in order:
                stamp = f"{workers}w-{round_}-{time.strftime('%H%M%S')}"  # fresh folders
                load = os.getloadavg()[0]
                run = measure(sweep, folder / f"dask-{stamp}", workers)
                runs.append(run | {"round": round_, "load_before": load})
                say(
                    f"dask, {workers} worker(s): {run['cases']} cases ({run['failed']} failed) "
                    f"in {run['wall_s']:.1f} s; end to end {run['end_to_end_per_min']:.1f}/min, "
                    f"steady {run['steady_per_min']:.1f}/min; CPU s: driver "
                    f"{run['driver_cpu_s']:.1f}, workers {run['workers_cpu_s']:.1f}; "
                    f"load average {load:.2f} before"
                )
                if not args.no_baseline:
                    load = os.getloadavg()[0]
                    base = measure_without_dask(sweep, folder / f"plain-{stamp}", workers)
                    plain.append(base | {"round": round_, "load_before": load})
                    say(
                        f"no dask, {workers} process(es): {base['per_min']:.1f}/min; "
                        f"load average {load:.2f} before"
                    )
    best: dict[int, dict] = {}
    for workers in args.workers:
        mine = [r for r in runs if r["workers"] == workers]
        best[workers] = {
            "end_to_end_per_min": max(r["end_to_end_per_min"] for r in mine),
            "steady_per_min": max(r["steady_per_min"] for r in mine),
            "no_dask_per_min": max(
                (r["per_min"] for r in plain if r["workers"] == workers), default=float("nan")
            ),
        }
    first = best[args.workers[0]]
    for rates in best.values():
        for key in ("end_to_end", "steady", "no_dask"):
            rates[f"{key}_ratio"] = rates[f"{key}_per_min"] / first[f"{key}_per_min"]
    machine = {"cores": _cores(), "python": sys.version.split()[0]}
    loads = [r["load_before"] for r in runs + plain]
    if args.json:
        parameters = vars(args) | {"keep": str(args.keep) if args.keep else None}
        print(json.dumps({"machine": machine, "parameters": parameters, "runs": runs,
                          "no_dask": plain, "best": best}, indent=2))  # fmt: skip
        return 0
    print(
        f"\n{args.scenarios} scenarios: quickstart, {args.hours} h, {args.flop}; "
        f"{machine['cores']} cores; best of {args.repeat}; "
        f"load average {min(loads):.2f} to {max(loads):.2f}"
    )
    print(f"{'workers':>7} {'end-to-end/min':>15} {'ratio':>6} {'steady/min':>11} {'ratio':>6} "
          f"{'no-dask/min':>12} {'ratio':>6}")  # fmt: skip
    for workers, r in best.items():
        print(
            f"{workers:>7} {r['end_to_end_per_min']:>15.1f} {r['end_to_end_ratio']:>6.2f} "
            f"{r['steady_per_min']:>11.1f} {r['steady_ratio']:>6.2f} "
            f"{r['no_dask_per_min']:>12.1f} {r['no_dask_ratio']:>6.2f}"
        )
    return 0


if __name__ == "__main__":  # the workers are spawned: this guard is required
    sys.exit(main())
