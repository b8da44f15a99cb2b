"""The flagship and plan-small under the 2024 cost catalogue and under current prices.

Run by hand (not part of the test suite; a few minutes on 2 cores):

    python bench/cost_recheck.py                  # both scenarios, every case, a table
    python bench/cost_recheck.py --json out.json

Each case solves a scenario in a fresh process with the cost catalogue changed in
memory (docs/costs.md, "Decisions re-checked"):

* ``before``: the catalogue before issue 22's re-check: AI hall 12.69 M USD/MW_IT, no
  grid connection, batteries at NREL ATB 2024 (457 USD/kW + 344 USD/kWh), CCGT 1,603
  USD/kW, SMR 10,344, large nuclear 8,164 (ATB 2024);
* ``current``: the catalogue as shipped (each row's ``capex``);
* ``low`` and ``high``: every row with a published range at its low or high end;
* ``ROW=low`` or ``ROW=high`` (e.g. ``gas_ccgt_plant=low``): the shipped catalogue with
  that one row at one end of its range, to see which price moves a decision.

Utilisation and goodput are this tree's in every case, so the cases differ only in
cost. The tables give the build, the yearly costs and the unit costs, marginal and full.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import answer_if_child  # noqa: E402
from plan_variants import BUILD_COLUMNS, _money, solve_and_summarise, solve_each, table  # noqa: E402

SCENARIOS = {
    "plan-100k-gpu": HERE.parent / "scenarios" / "plan-100k-gpu.yaml",
    "plan-small": HERE.parent / "scenarios" / "plan-small.yaml",
}
CASES = ("before", "current", "low", "high")
#: capex (catalogue unit: USD per MW, MWh or MW_IT) of the catalogue before the re-check
BEFORE = {
    "datacentre_facility_ai": 12_694_500.0,
    "battery_power": 457_000.0,
    "battery_energy": 344_000.0,
    "gas_ccgt_plant": 1_603_000.0,
    "nuclear_smr": 10_344_000.0,
    "nuclear_large": 8_164_000.0,
}


def catalogue(case: str):
    """The built-in catalogue with the case's capex in place of each row's default."""
    from geomodel.catalog import build_catalog

    catalog = build_catalog()
    costs = catalog.build_costs
    if "=" in case:
        row, end = case.split("=")
        entry = costs[row]
        costs[row] = entry.model_copy(
            update={"capex_usd_per_unit": getattr(entry, f"capex_{end}_usd_per_unit")}
        )
        return catalog
    for name, entry in list(costs.items()):
        if case == "before" and name in BEFORE:
            costs[name] = entry.model_copy(update={"capex_usd_per_unit": BEFORE[name]})
        elif case in ("low", "high") and entry.capex_low_usd_per_unit is not None:
            field = "capex_low_usd_per_unit" if case == "low" else "capex_high_usd_per_unit"
            costs[name] = entry.model_copy(update={"capex_usd_per_unit": getattr(entry, field)})
    if case == "before":
        costs.pop("grid_connection_substation", None)
    return catalog


def child(label: str, _overrides: list[str]) -> dict[str, Any]:
    """Solve one scenario under one case in this process."""
    name, case = label.split(":", 1)
    return solve_and_summarise(label, SCENARIOS[name], catalogue(case))


#: the flagship table's build columns (variant to battery), then the costs at full cost
COLUMNS = (
    *BUILD_COLUMNS[:7],
    ("total M USD/yr", lambda r: _money(r["kpis"]["total_cost_usd_per_year"])),
    ("installed M USD/yr", lambda r: _money(r["kpis"]["installed_capital_usd_per_year"])),
    (
        "USD/EFLOP (full)",
        lambda r: f"{r['kpis']['usd_per_eflop']:.3f} ({r['kpis']['usd_per_eflop_full']:.3f})",
    ),
    (
        "USD/Mtoken (full)",
        lambda r: f"{r['kpis']['usd_per_mtoken']:.4f} ({r['kpis']['usd_per_mtoken_full']:.4f})",
    ),
    ("emissions kt", lambda r: f"{r['kpis']['emissions_tco2'] / 1e3:,.1f}"),
    ("chip utilisation", lambda r: f"{r['kpis']['chip_utilisation']:.3f}"),
)


def firm_by_site(row: dict[str, Any]) -> str:
    """Where firm plants and batteries were built: 'site source MW' items."""
    items = []
    for site, data in row["sites"].items():
        for source, mw in data["sources_mw_built"].items():
            if source.startswith(("gas", "nuclear")):
                items.append(f"{site} {source} {mw:,.0f}")
        if data["battery_mw_built"] > 1e-3:
            items.append(f"{site} battery {data['battery_mw_built']:,.0f}")
    return "firm and batteries: " + (", ".join(items) or "none")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if answer_if_child(argv, child):
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", nargs="+", default=list(SCENARIOS))
    parser.add_argument("--cases", nargs="+", default=list(CASES))
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", type=Path)
    options = parser.parse_args(argv)
    labels = [f"{name}:{case}" for name in options.scenarios for case in options.cases]
    rows = solve_each(__file__, labels, [], options.json, note=firm_by_site)
    if not rows:
        return 1
    print()
    print(table(rows, COLUMNS, options.markdown))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
