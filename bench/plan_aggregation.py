"""How many typical days and segments the flagship plan needs: each against a finer one.

Run by hand (not part of the test suite; the reference solve takes several minutes):

    python bench/plan_aggregation.py                       # the grid below against 36 x 24
    python bench/plan_aggregation.py --days 8 12 --segments 4 6 --reference 36x24
    python bench/plan_aggregation.py --variant carbon_200 --json agg.json

``scenarios/plan-100k-gpu.yaml`` is a year of typical days cut into segments
(``time.aggregation``). A full-resolution year of its 13 sites is about 4.4 million
columns, beyond this machine, so the reference is a finer aggregation:
``--reference`` (default 36 hourly typical days, 864 steps, about 410,000 columns,
solved by interior point without crossover: its KPIs are totals, exact to the
solver's tolerance, and crossover would add a third to the time). Every candidate
``D x S`` (D typical days of S segments; S = 24 is hourly) is solved in a fresh
process, and its plan's KPIs and build totals are compared with the reference's: the
yearly costs (total, capex, fixed O&M, opex), the levelised costs of compute,
emissions, energy, renewable share and mean latency, and what is built (chips,
facility MW, solar, wind). The smallest aggregation whose KPIs are all within 2 % of
the reference is named; the build totals are shown beside them (a plan's build can
move between near-equal sites without its cost moving, so they are reported, not
judged).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402
from plan_variants import child as solve_variant  # noqa: E402

GOAL_ERROR = 0.02
HOURS_PER_DAY = 24
#: KPIs judged against the reference (all yearly for a year of typical days)
KPIS = (
    "total_cost_usd_per_year",
    "capex_usd_per_year",
    "fixed_om_usd_per_year",
    "opex_usd",
    "usd_per_eflop",
    "usd_per_mtoken",
    "emissions_tco2",
    "energy_mwh",
    "renewable_share",
    "latency_ms_mean",
)
#: build totals shown beside them
BUILD = ("chips_built", "facility_mw", "solar_mw", "wind_mw")


def parse(text: str) -> tuple[int, int]:
    """``12x4`` -> (12, 4); ``48`` -> (48, 24) (hourly typical days)."""
    days, _, segments = text.partition("x")
    return int(days), int(segments or HOURS_PER_DAY)


def label(aggregation: tuple[int, int]) -> str:
    days, segments = aggregation
    return str(days) if segments == HOURS_PER_DAY else f"{days}x{segments}"


def overrides(aggregation: tuple[int, int]) -> list[str]:
    days, segments = aggregation
    return [
        f"time.aggregation.typical_days={days}",
        f"time.aggregation.segments={'null' if segments == HOURS_PER_DAY else segments}",
    ]


def solve(variant: str, aggregation: tuple[int, int], extra: list[str] = ()) -> dict[str, Any]:
    run = run_fresh(
        __file__, variant, json.dumps([*overrides(aggregation), *extra]), single_threaded=False
    )
    if "kpis" not in run:
        raise SystemExit(f"{label(aggregation)}: {run['status']}: {run.get('messages')}")
    return run


def errors(run: dict[str, Any], reference: dict[str, Any]) -> dict[str, float]:
    from geomodel.aggregation_check import relative_error

    out = {k: relative_error(run["kpis"][k], reference["kpis"][k]) for k in KPIS}
    out.update({k: relative_error(run["build"][k], reference["build"][k]) for k in BUILD})
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_child":
        print(json.dumps(solve_variant(argv[1], json.loads(argv[2])), default=str))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="base")
    parser.add_argument("--days", type=int, nargs="+", default=[4, 8, 12, 16, 24])
    parser.add_argument("--segments", type=int, nargs="+", default=[3, 4, 6, 8])
    parser.add_argument("--reference", type=parse, default=(36, HOURS_PER_DAY))
    parser.add_argument(
        "--reference-set",
        nargs="*",
        default=["solver.method=ipm_no_crossover", "solver.time_limit=10800"],
        metavar="PATH=VALUE",
        help="overrides of the reference solve (default: interior point without crossover, "
        "whose totals are exact to the solver's tolerance, and three hours)",
    )
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    report: dict[str, Any] = {"variant": options.variant, "rows": []}
    reference = solve(options.variant, options.reference, options.reference_set)
    report["reference"] = {"aggregation": label(options.reference), "run": reference}
    print(
        f"reference {label(options.reference)}: {reference['status']} in {reference['seconds']:.0f} s",
        flush=True,
    )
    for aggregation in itertools.product(options.days, options.segments):
        run = solve(options.variant, aggregation)
        row = {"aggregation": label(aggregation), "steps": aggregation[0] * aggregation[1]}
        row.update(run=run, errors=errors(run, reference))
        row["worst"] = max(row["errors"][k] for k in KPIS)
        report["rows"].append(row)
        print(
            f"  {row['aggregation']:>6}: {run['seconds']:.1f} s, worst KPI error {row['worst']:.2%}",
            flush=True,
        )
        if options.json:
            options.json.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    within = [r for r in report["rows"] if r["worst"] <= GOAL_ERROR]
    chosen = min(within, key=lambda r: (r["steps"], r["worst"]), default=None)
    names = [*KPIS, *BUILD]
    short = {
        "total_cost_usd_per_year": "total/yr",
        "capex_usd_per_year": "capex/yr",
        "fixed_om_usd_per_year": "fixed O&M",
        "opex_usd": "opex",
        "usd_per_eflop": "USD/EFLOP",
        "usd_per_mtoken": "USD/Mtoken",
        "emissions_tco2": "emissions",
        "energy_mwh": "energy",
        "renewable_share": "renewables",
        "latency_ms_mean": "latency",
        "chips_built": "chips built",
        "facility_mw": "facility MW",
        "solar_mw": "solar MW",
        "wind_mw": "wind MW",
    }
    print()
    print(f"errors against {label(options.reference)} ({options.variant}); build totals after the bar")
    head = ["aggregation", "steps", "solve s", *(short[n] for n in names), "worst KPI"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in report["rows"]:
        cells = [r["aggregation"], str(r["steps"]), f"{r['run']['kpis']['solve_seconds']:.1f}"]
        cells += [f"{r['errors'][n]:.2%}" for n in names]
        cells.append(f"{r['worst']:.2%}")
        print("| " + " | ".join(cells) + " |")
    print()
    print(
        f"fewest steps with every KPI within {GOAL_ERROR:.0%}: "
        + (f"{chosen['aggregation']} ({chosen['steps']} steps)" if chosen else "none")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
