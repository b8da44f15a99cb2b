"""What ``geomodel run`` and ``geomodel report`` print for a pathway: the build timeline
(decided, online, retired, by site and asset), the periods' costs and fleet, and the net
present cost (docs/planning.md, "Pathways")."""

from __future__ import annotations

from typing import Any

from geomodel.cli.output import console, print_table
from geomodel.cli.planning_output import BUILD_COLUMNS

TIMELINE_COLUMNS = {
    "decided": "decided",
    "online": "online",
    "retires": "retires",
    **{key: BUILD_COLUMNS[key] for key in ("asset", "what", "where", "amount", "units", "capex_usd")},
    "cost_usd_per_year": "cost (USD/year)",
}
PERIOD_COLUMNS = {
    "period": "period",
    "cost_usd_per_year": "cost (USD/year)",
    "present_cost_usd": "present cost (USD)",
    "energy_mwh": "energy (MWh/year)",
    "emissions_tco2": "emissions (tCO2e/year)",
    "unserved_fraction": "unserved (1)",
}


def print_pathway(dataset: Any, messages: list[str], title: str) -> None:
    """The timeline, the period table with chips online by system, and the net present cost."""
    from geomodel.results.pathway import period_table, timeline_frame

    for line in messages:
        console().print(line, markup=False)
    if "period" not in dataset.coords:
        return
    rows = timeline_frame(dataset).to_dict(orient="records")
    for row in rows:  # years, not amounts: no thousands separator
        row.update({k: f"{row[k]:.0f}" for k in ("decided", "online", "retires")})
    if rows:
        print_table(rows, TIMELINE_COLUMNS, title=f"{title}: build timeline")
    else:
        console().print("nothing is built in any period")
    table = period_table(dataset)
    table["period"] = table["period"].astype(str)
    chips = {c: c.removeprefix("chips_") + " (chips)" for c in table.columns if c.startswith("chips_")}
    print_table(table.to_dict(orient="records"), {**PERIOD_COLUMNS, **chips}, title=f"{title}: periods")
    npc = float(dataset.attrs.get("net_present_cost_usd", float("nan")))
    foresight = dataset.attrs.get("foresight", "perfect")
    console().print(f"net present cost {npc:,.0f} USD ({foresight} foresight)")
