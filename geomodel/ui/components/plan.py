"""A plan's build and what it costs, as tables and charts (no streamlit).

The build table is the library's (:func:`geomodel.results.planning.build_rows`, the
table ``geomodel report`` prints). The cost breakdown splits the yearly total
(``total_cost_usd_per_year``) into its parts: the capex annuity and the fixed O&M of
each asset class (the results' ``build_annuity_usd_per_year`` and
``build_fixed_om_usd_per_year``), and the horizon's energy cost, carbon cost and
battery wear scaled to a year, so that the parts add up to the total.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import xarray as xr

from geomodel.results.planning import build_rows
from geomodel.ui.format import NAME

HOURS_PER_YEAR = 8760.0
#: kinds of cost, in the breakdown's order, and their colours
COST_KINDS = {
    "capex": "#5b3a8c",
    "fixed O&M": "#a48bc9",
    "energy": "#e08a1e",
    "carbon": "#6b6b6b",
    "battery wear": "#2a9d8f",
}
#: the build table's columns (the library's names) -> heading with units, decimals
BUILD_TABLE = {
    "asset": ("Asset", None),
    "what": ("What", NAME),
    "where": ("Where", NAME),
    "amount": ("Amount", 2),
    "units": ("Units", None),
    "capex_usd": ("Capex (USD)", 0),
    "annual_cost_usd_per_year": ("Annual cost (USD/year)", 0),
}
#: the rows that tell one decision from another
DECISION = ["asset", "what", "where", "units"]


def horizon_years(inputs: xr.Dataset) -> float:
    """The share of a year the horizon stands for: sum of weight x step hours / 8760."""
    return float((inputs["weight"] * inputs["dt_hours"]).sum()) / HOURS_PER_YEAR


def cost_breakdown(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """A plan's yearly cost part by part (USD/year): capex annuity and fixed O&M by asset
    class (classes with nothing built left out), energy, carbon and battery wear (the
    horizon's, over :func:`horizon_years`). The parts add up to
    ``total_cost_usd_per_year``."""
    rows = []
    build = {"capex": "build_annuity_usd_per_year", "fixed O&M": "build_fixed_om_usd_per_year"}
    for kind, variable in build.items():
        if variable not in results:
            continue
        for asset, value in zip(results["asset_class"].values, results[variable].values, strict=True):
            if value != 0:
                rows.append({"kind": kind, "asset": str(asset), "usd_per_year": float(value)})
    years = horizon_years(inputs)
    carbon_price = float(inputs.attrs.get("carbon_price_usd_per_tco2", 0.0))
    operation = {
        "energy": float(results["energy_cost_usd"].sum()),
        "carbon": carbon_price * float(results["emissions_tco2"].sum()),
        "battery wear": _battery_wear_usd(results, inputs),
    }
    for kind, usd in operation.items():
        if kind != "battery wear" or usd != 0:
            rows.append({"kind": kind, "asset": "", "usd_per_year": usd / years if years > 0 else 0.0})
    frame = pd.DataFrame(rows, columns=["kind", "asset", "usd_per_year"])
    frame["part"] = [f"{k}: {a}" if a else k for k, a in zip(frame["kind"], frame["asset"], strict=True)]
    total = float(frame["usd_per_year"].sum())
    frame["share"] = frame["usd_per_year"] / total if total else 0.0
    return frame[["part", "kind", "asset", "usd_per_year", "share"]]


def _battery_wear_usd(results: xr.Dataset, inputs: xr.Dataset) -> float:
    """Cycle cost of built batteries over the horizon: MWh discharged x USD/MWh."""
    if "storage_discharge_mw" not in results:
        return 0.0
    hours = inputs["weight"] * inputs["dt_hours"]
    discharged = (results["storage_discharge_mw"] * hours).sum("time")
    return float((discharged * inputs["battery_cycle_cost_usd_per_mwh"]).sum())


def cost_chart(breakdowns: dict[str, pd.DataFrame]) -> go.Figure:
    """Each plan's yearly cost as horizontal bars: one per asset class (capex and fixed O&M
    stacked) and one each for energy, carbon and battery wear. With two plans, their bars
    side by side, one colour per plan, the first on top."""
    frames = [
        frame.assign(plan=name, item=frame["asset"].where(frame["asset"] != "", frame["kind"]))
        for name, frame in breakdowns.items()
    ]
    order = list(dict.fromkeys(item for frame in frames for item in frame["item"]))
    several = len(frames) > 1
    data = pd.concat(frames[::-1], ignore_index=True)  # plotly draws the first trace lowest
    if several:  # one bar per plan and item: capex and fixed O&M together
        data = data.groupby(["plan", "item"], as_index=False, sort=False)["usd_per_year"].sum()
    figure = px.bar(
        data,
        x="usd_per_year",
        y="item",
        orientation="h",
        color="plan" if several else "kind",
        color_discrete_map=None if several else COST_KINDS,
        barmode="group" if several else "relative",
        category_orders={"item": order, "kind": list(COST_KINDS)},
        labels={"usd_per_year": "USD/year", "item": "", "kind": "", "plan": ""},
    )
    figure.update_layout(
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        height=110 + 30 * len(order) * len(frames),
        legend_title_text="",
        legend_traceorder="reversed" if several else "normal",
    )
    return figure


def cost_table(breakdown: pd.DataFrame) -> pd.DataFrame:
    """The breakdown with its shares in percent and a total row."""
    total = {"part": "= total cost a year", "usd_per_year": float(breakdown["usd_per_year"].sum())}
    frame = pd.concat([breakdown, pd.DataFrame([{**total, "share": 1.0}])], ignore_index=True)
    return frame.assign(**{"share (%)": frame["share"] * 100.0})


def cost_comparison(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """Two breakdowns part by part (a part one plan lacks costs 0 there), with the total."""
    both = (
        a.set_index("part")[["usd_per_year"]]
        .join(b.set_index("part")[["usd_per_year"]], how="outer", lsuffix="_a", rsuffix="_b")
        .fillna(0.0)
    )
    order = list(dict.fromkeys([*a["part"], *b["part"]]))
    frame = both.loc[order].reset_index().rename(columns={"usd_per_year_a": "A", "usd_per_year_b": "B"})
    total = {"part": "= total cost a year", "A": float(frame["A"].sum()), "B": float(frame["B"].sum())}
    frame = pd.concat([frame, pd.DataFrame([total])], ignore_index=True)
    return frame.assign(**{"B - A": frame["B"] - frame["A"]})


#: a build below this amount (MW, MWh, systems, pairs) is solver round-off, not a decision
ROUND_OFF = 1e-6


def build_table(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """The build table of ``geomodel report`` (:func:`build_rows`) as a DataFrame, without
    the solver's round-off (3.78e-14 MW of solar is no decision)."""
    rows = [row for row in build_rows(results, inputs) if abs(row["amount"]) >= ROUND_OFF]
    return pd.DataFrame(rows, columns=list(BUILD_TABLE))


def build_comparison(a: list[dict], b: list[dict]) -> pd.DataFrame:
    """Two plans' builds (:func:`build_rows`) side by side, decision by decision: amount
    and annual cost in A and B, the change, and whether the decision differs."""
    columns = ["amount", "annual_cost_usd_per_year"]
    left = pd.DataFrame(a, columns=[*DECISION, *columns]).set_index(DECISION)
    right = pd.DataFrame(b, columns=[*DECISION, *columns]).set_index(DECISION)
    both = left.join(right, how="outer", lsuffix="_a", rsuffix="_b").fillna(0.0).reset_index()
    both["change"] = both["amount_b"] - both["amount_a"]
    scale = np.maximum(np.abs(both["amount_a"]), np.abs(both["amount_b"]))
    both["differs"] = np.abs(both["change"]) > 1e-6 * np.maximum(scale, 1.0)
    return both[
        [
            *DECISION,
            "amount_a",
            "amount_b",
            "change",
            "annual_cost_usd_per_year_a",
            "annual_cost_usd_per_year_b",
            "differs",
        ]
    ]
