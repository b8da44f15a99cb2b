"""How `run` and `report` show a result: KPIs, where the work ran, a Pareto front."""

from __future__ import annotations

import math
from typing import Any

from rich.markup import escape

from geomodel.cli.output import console, print_table
from geomodel.inputs.dataset import is_planning
from geomodel.results.extension_results import extension_kpi_specs
from geomodel.results.kpis import KPI_SPECS, PLANNING_ONLY_KPIS


def print_result(result, title: str) -> None:
    """A Pareto front as one table (what each point builds is in --json); otherwise the
    KPI table, the placement summary, what was built and whether the plan can be carried
    out (the gap to its relaxation, the checker's findings). Then the messages in words."""
    from geomodel.cli.executable_output import print_executable
    from geomodel.cli.planning_output import print_build

    front = result.front
    if front is not None:
        print_front(result, title)
    else:
        print_kpi_table(result, title)
        print_placement(result)
        print_build(result, title)
        print_executable(result)
    out = console()
    for message in result.messages:
        out.print(f"[yellow]{escape(message)}[/yellow]", soft_wrap=True)


def print_kpi_table(result, title: str) -> None:
    """The KPI table with units; the planning KPIs only for a scenario that may build
    (``--json`` and the Dataset keep them all)."""
    planning = is_planning(result.inputs)
    rows = [
        {"kpi": name, "value": result.kpis[name], "units": units}
        for name, (units, _) in KPI_SPECS.items()
        if name in result.kpis and (planning or name not in PLANNING_ONLY_KPIS)
    ]
    rows += [  # the model extensions' own KPIs, after the core ones
        {"kpi": name, "value": spec["value"], "units": spec["units"]}
        for name, spec in extension_kpi_specs(result.dataset).items()
    ]
    print_table(rows, {"kpi": "KPI", "value": "value", "units": "units"}, title=title)


#: placement column -> header
_PLACEMENT_HEADERS = {
    "workload": "workload",
    "site": "site",
    "share": "share",
    "work_eflop": "work (EFLOP)",
    "served_mtoken": "served (Mtoken)",
    "latency_ms_mean": "latency (ms)",
    "peak_chips": "peak chips",
    "chip_hours": "chip-hours",
    "energy_mwh": "energy (MWh)",
}


def print_placement(result) -> None:
    """Where each job and service ran (share of its work or demand by site)."""
    table = result.placement
    if table.empty:
        return
    rows = []
    for row in table.to_dict(orient="records"):
        shown = {k: (None if _missing(v) else v) for k, v in row.items()}
        shown["share"] = f"{row['share']:.1%}"
        rows.append(shown)
    print_table(rows, _PLACEMENT_HEADERS, title="Where the work ran")


#: front column -> header (units added from the table's own units)
_FRONT_HEADERS = {
    "point": "point",
    "role": "",
    "bound": "bound",
    "cost_usd": "cost",
    "emissions_tco2": "emissions",
    "latency_ms_mean": "latency mean",
    "latency_ms_p95": "latency p95",
    "unserved_fraction": "unserved",
    "objective": "objective",
    "energy_cost_term_usd": "energy term",
    "carbon_cost_term_usd": "carbon term",
    "latency_cost_term_usd": "latency term",
    "unserved_cost_term_usd": "unserved term",
    "extension_cost_term_usd": "extension term",
    "solver_status": "status",
}


def print_front(result, title: str) -> None:
    """The front, a row per point from the tightest bound to the weighted optimum."""
    from geomodel.results.front import front_units

    units = front_units(result.dataset)
    headers = {
        key: f"{header} ({units[key]})" if units.get(key) and units[key] != "1" else header
        for key, header in _FRONT_HEADERS.items()
    }
    term = result.dataset.attrs.get("pareto_term", "")
    rows = [
        {k: (None if _missing(v) else v) for k, v in row.items()}
        for row in result.front.to_dict(orient="records")
    ]
    print_table(rows, headers, title=f"{title}: Pareto front of cost against {term}")


def front_json(result) -> list[dict[str, Any]]:
    """The front's rows for --json."""
    return result.front.to_dict(orient="records")


def placement_json(result) -> list[dict[str, Any]]:
    """The placement summary's rows for --json (missing values as null)."""
    return [
        {k: (None if _missing(v) else v) for k, v in row.items()}
        for row in result.placement.to_dict(orient="records")
    ]


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
