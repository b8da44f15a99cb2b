"""The flagship plan and its variants: what each builds, where, and what it costs.

Run by hand (not part of the test suite; about a minute per variant on 2 cores):

    python bench/plan_variants.py                        # every LP variant, a plain table
    python bench/plan_variants.py --variants integer     # the MIP variant (whole racks)
    python bench/plan_variants.py --markdown             # the tables of docs/planning.md
    python bench/plan_variants.py --variants base carbon_200
    python bench/plan_variants.py --set time.aggregation.typical_days=4 --json out.json

Each variant of ``scenarios/plan-100k-gpu.yaml`` (``base`` is the file as it
stands) is solved in a fresh process, one after the other. The first table gives
each plan's build in total (facility MW, GB200 racks and chips, solar, wind, firm
plants, battery power and energy, fibre pairs, the new sites opened, counted as
the LP's opening share) and its KPIs (capex a year, fixed O&M a year, opex a
year, total a year, USD per EFLOP of training, USD per Mtoken served, emissions);
the second where each plan built (facility MW and chips per site); the third
where the work ran (training and serving chip-hours per site, in millions).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import answer_if_child, run_fresh  # noqa: E402

SCENARIO = HERE.parent / "scenarios" / "plan-100k-gpu.yaml"
VARIANTS = (
    "base",
    "carbon_100",
    "carbon_200",
    "hollow_core",
    "cap_300mw",
    "cap_30mw_added",
    "no_new_sites_in_europe",
)
#: an opening share below this is reported as not opened (LP noise)
OPENED = 1e-6


def summarise(result) -> dict[str, Any]:
    """Build totals, per-site builds and work, and KPIs of one solved plan."""
    import numpy as np

    ds, inputs = result.dataset, result.inputs
    sites = [str(s) for s in inputs["site"].values]
    kinds = [str(k) for k in inputs["source_kind"].values]
    built_source = ds["built_source_mw"].values

    def by_kind(*wanted: str) -> float:
        return float(sum(built_source[:, k].sum() for k, kind in enumerate(kinds) if kind in wanted))

    job_hours = (inputs["job_weight"] * inputs["dt_hours"]).values  # (job, time)
    step_hours = (inputs["weight"] * inputs["dt_hours"]).values
    training = np.einsum("jsht,jt->s", ds["training_chips"].values, job_hours)
    serving = np.einsum("isht,t->s", ds["inference_chips"].values, step_hours)
    chips = inputs["chips_installed"].values.sum(axis=1) + ds["built_chips"].values.sum(axis=1)
    opened = ds["site_opened"].values * inputs["site_new"].values
    peak = ds["facility_power_mw"].values.max(axis=1)
    rack = "gb200_nvl72"
    systems = [str(h) for h in inputs["system"].values]
    racks = float(ds["built_systems"].values[:, systems.index(rack)].sum()) if rack in systems else 0.0
    kpis = {k: v for k, v in result.kpis.items() if isinstance(v, int | float | str)}
    return {
        "kpis": kpis,
        "years": float(inputs.attrs["horizon_years"]),
        "build": {
            "facility_mw": float(ds["built_envelope_mw"].sum()),
            "racks": racks,
            "chips_built": float(ds["built_chips"].sum()),
            "chips_total": float(chips.sum()),
            "solar_mw": by_kind("solar"),
            "wind_mw": by_kind("wind"),
            "firm_mw": by_kind("gas", "nuclear"),
            "battery_mw": float(ds["built_battery_mw"].sum()),
            "battery_mwh": float(ds["built_battery_mwh"].sum()),
            "fibre_pairs": float(ds["built_fibre_pairs"].sum()),
            "new_sites": {s: float(o) for s, o in zip(sites, opened, strict=True) if o > OPENED},
        },
        "sites": {
            s: {
                "facility_mw_built": float(ds["built_envelope_mw"].values[i]),
                "peak_facility_mw": float(peak[i]),
                "chips": float(chips[i]),
                "chips_built": float(ds["built_chips"].values[i].sum()),
                "sources_mw_built": {
                    str(k): float(built_source[i, n])
                    for n, k in enumerate(inputs["source"].values)
                    if built_source[i, n] > 1e-6
                },
                "battery_mw_built": float(ds["built_battery_mw"].values[i]),
                "training_mchip_h": float(training[i]) / 1e6,
                "serving_mchip_h": float(serving[i]) / 1e6,
            }
            for i, s in enumerate(sites)
        },
    }


def solve_and_summarise(label: str, path: Path, catalog, **load_options: Any) -> dict[str, Any]:
    """Load ``path`` with ``load_options``, solve it with ``catalog`` and summarise it."""
    import time

    from geomodel.api import solve
    from geomodel.scenario import load_scenario

    started = time.perf_counter()
    scenario = load_scenario(path, catalog=catalog, **load_options)
    result = solve(scenario, catalog=catalog)
    if not result.has_solution:
        return {"variant": label, "status": result.status, "messages": result.messages}
    return {
        "variant": label,
        "status": result.status,
        "seconds": time.perf_counter() - started,
        **summarise(result),
    }


def child(variant: str, overrides: list[str]) -> dict[str, Any]:
    """Solve one variant of the flagship in this process."""
    from geomodel.catalog import build_catalog

    variants = [] if variant == "base" else [variant]
    return solve_and_summarise(
        variant, SCENARIO, build_catalog(), variants=variants, overrides=overrides
    )


def _money(value: float) -> str:
    return f"{value / 1e6:,.1f}"


BUILD_COLUMNS = (
    ("variant", lambda r: r["variant"]),
    ("facility MW", lambda r: f"{r['build']['facility_mw']:,.0f}"),
    ("GB200 racks (chips)", lambda r: f"{r['build']['racks']:,.0f} ({r['build']['chips_built']:,.0f})"),
    ("solar MW", lambda r: f"{r['build']['solar_mw']:,.0f}"),
    ("wind MW", lambda r: f"{r['build']['wind_mw']:,.0f}"),
    ("firm MW", lambda r: f"{r['build']['firm_mw']:,.0f}"),
    (
        "battery MW / MWh",
        lambda r: f"{r['build']['battery_mw']:,.0f} / {r['build']['battery_mwh']:,.0f}",
    ),
    ("fibre pairs", lambda r: f"{r['build']['fibre_pairs']:,.2f}"),
    (
        "new sites (opening share)",
        lambda r: ", ".join(f"{s} {o:.2f}" for s, o in r["build"]["new_sites"].items()) or "none",
    ),
)
KPI_COLUMNS = (
    ("variant", lambda r: r["variant"]),
    ("capex M USD/yr", lambda r: _money(r["kpis"]["capex_usd_per_year"])),
    ("fixed O&M M USD/yr", lambda r: _money(r["kpis"]["fixed_om_usd_per_year"])),
    ("opex M USD/yr", lambda r: _money(r["kpis"]["opex_usd"] / r["years"])),
    ("total M USD/yr", lambda r: _money(r["kpis"]["total_cost_usd_per_year"])),
    ("USD/EFLOP", lambda r: f"{r['kpis']['usd_per_eflop']:.3f}"),
    ("USD/Mtoken", lambda r: f"{r['kpis']['usd_per_mtoken']:.4f}"),
    ("emissions kt", lambda r: f"{r['kpis']['emissions_tco2'] / 1e3:,.0f}"),
    ("renewable share", lambda r: f"{r['kpis']['renewable_share']:.1%}"),
    ("solve s", lambda r: f"{r['kpis']['solve_seconds']:.1f}"),
)


def table(rows: list[dict[str, Any]], columns, markdown: bool) -> str:
    head = [name for name, _ in columns]
    body = [[cell(r) for _, cell in columns] for r in rows]
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(h), *(len(row[i]) for row in body)) for i, h in enumerate(head)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in body]
    return "\n".join(lines)


#: the per-site tables: title, field of a row's ``sites``, number format
SITE_TABLES = (
    ("facility MW at peak", "peak_facility_mw", ",.0f"),
    ("chips installed and built", "chips", ",.0f"),
    ("training, million chip-hours", "training_mchip_h", ",.1f"),
    ("serving, million chip-hours", "serving_mchip_h", ",.1f"),
)


def _tidy(value: float) -> float:
    """The solver's -1e-9 shown as 0 rather than -0 (a sign below the tables' precision)."""
    return value if abs(value) >= 0.05 else 0.0


def site_table(rows: list[dict[str, Any]], field: str, fmt: str, markdown: bool) -> str:
    """One row per variant, one column per site that has anything in ``field``."""
    sites = [s for s in rows[0]["sites"] if any(abs(r["sites"][s][field]) > 0.05 for r in rows)]
    columns = [("variant", lambda r: r["variant"])]
    columns += [(s, lambda r, s=s: format(_tidy(r["sites"][s][field]), fmt)) for s in sites]
    return table(rows, columns, markdown)


def solve_each(
    script: str, labels: list[str], overrides: list[str], json_path: Path | None, note=None
) -> list[dict[str, Any]]:
    """Each label's ``_child`` run of ``script`` in a fresh process, as it finishes: its
    status printed (and ``note(row)``), the rows so far written to ``json_path``."""
    rows = []
    for label in labels:
        row = run_fresh(script, label, json.dumps(overrides), single_threaded=False)
        if "kpis" not in row:
            print(f"{label}: {row['status']}: {row.get('messages')}", flush=True)
            continue
        rows.append(row)
        print(f"{label}: {row['status']} in {row['seconds']:.1f} s", flush=True)
        if note is not None:
            print(f"  {note(row)}", flush=True)
        if json_path:
            json_path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return rows


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if answer_if_child(argv, child):
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument(
        "--set", nargs="*", default=[], metavar="PATH=VALUE", help="overrides for every run"
    )
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    rows = solve_each(__file__, options.variants, options.set, options.json)
    if not rows:
        return 1
    print()
    print(table(rows, BUILD_COLUMNS, options.markdown))
    print()
    print(table(rows, KPI_COLUMNS, options.markdown))
    print()
    for title, field, fmt in SITE_TABLES:
        print(f"{title}, per site:")
        print(site_table(rows, field, fmt, options.markdown))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
