"""The energy side of a result as energy modellers read it (no streamlit): power by source
at a site per step (typical days drawn per day and segment, with their weights), the energy
balance and generation by source of every site, curtailment and capacity factors, and
duration curves.

Every energy is power x the hours a step stands for (``weight x dt_hours``), so the sums
are the horizon's (a year's, for typical days of a year); a site's balance closes:
grid import + generation + battery discharge + extensions = facility energy + battery
charging. Solver round-off (|x| below 1e-9 of a chart's largest value) is drawn as 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import xarray as xr

from geomodel.ui.components.charts import (
    AXIS_FORMAT,
    EXTENSIONS,
    GRID,
    KIND_COLOURS,
    layout,
    source_colours,
)
from geomodel.ui.format import NAME, denoised, human
from geomodel.ui.timeline import Timeline

DISCHARGE, CHARGE, LOAD = "battery discharge", "battery charging", "facility load"


def supply_series(results: xr.Dataset, site: str) -> dict[str, np.ndarray]:
    """Supply at ``site`` by source per step (MW, >= 0) and battery charging (MW, <= 0)."""
    here = results.sel(site=site)
    series = {GRID: here["grid_import_mw"].values}
    if results.sizes.get("source"):
        for source in results["source"].values:
            values = here["generation_mw"].sel(source=source).values
            if np.abs(values).max(initial=0.0) > 0:
                series[str(source)] = values
    if "storage_discharge_mw" in results:
        series[DISCHARGE] = here["storage_discharge_mw"].values
        series[CHARGE] = -here["storage_charge_mw"].values
    if "extension_supply_mw" in results:
        series[EXTENSIONS] = here["extension_supply_mw"].values
    scale = float(here["facility_power_mw"].max())
    return {k: denoised(v, scale) for k, v in series.items() if np.abs(denoised(v, scale)).max() > 0}


def colours(results: xr.Dataset) -> dict[str, str]:
    return {
        **source_colours(results),
        DISCHARGE: KIND_COLOURS["extensions"],
        CHARGE: "#84a59d",
    }


def power_figure(results: xr.Dataset, steps: Timeline, site: str) -> go.Figure:
    """Supply by source at one site, stacked, with the facility load; typical days as one
    block of 24 hours per typical day (bars as long as their segments), calendar steps
    against time."""
    series = supply_series(results, site)
    load = denoised(results["facility_power_mw"].sel(site=site).values)
    palette = colours(results)
    figure = go.Figure()
    if steps.typical:
        order = steps.steps_in_order()
        x = np.array([steps.block_x(s) + steps.dt_hours[s] / 2 for s in order])
        width = steps.dt_hours[order]
        labels = [steps.step_label(s) for s in order]
        for name, values in series.items():
            figure.add_bar(
                x=x,
                y=values[order],
                width=width,
                name=human(name),
                marker_color=palette.get(name, "#999999"),
                customdata=labels,
                hovertemplate="%{customdata}<br>%{y:,.1f} MW<extra>" + human(name) + "</extra>",
            )
        figure.update_layout(barmode="relative", bargap=0)
    else:
        for name, values in series.items():
            figure.add_scatter(
                x=steps.start,
                y=values,
                name=human(name),
                mode="lines",
                line={"width": 0.5, "shape": "hv", "color": palette.get(name, "#999999")},
                stackgroup="charge" if name == CHARGE else "supply",
            )
    line_x, line_y = steps.line(load)
    figure.add_scatter(x=line_x, y=line_y, mode="lines", name=LOAD, line=_LOAD_LINE)
    figure.update_xaxes(**steps.axis())
    figure.update_yaxes(title_text="MW", tickformat=AXIS_FORMAT)
    figure.update_layout(title=f"{human(site)}: power by source", legend_orientation="h")
    return layout(figure, height=380)


_LOAD_LINE = {"color": "black", "dash": "dot", "width": 1.5}


def year_figure(calendar: xr.Dataset, site: str) -> go.Figure:
    """Supply by source at one site on every hour of the horizon, each day as its
    typical day (``Result.calendar()``)."""
    steps = Timeline(
        calendar["time"].values, np.ones(calendar.sizes["time"]), np.ones(calendar.sizes["time"])
    )
    figure = power_figure(calendar, steps, site)
    figure.update_layout(title=f"{human(site)}: power by source, the year rebuilt from its typical days")
    return figure


def energy_balance(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """Per site, MWh over the horizon: facility energy, and what supplied it (grid, each
    source, battery discharge less charging, extensions), curtailed energy and the share
    of renewables; the rows' supply adds up to their facility energy."""
    hours = xr.DataArray(inputs["weight"].values * inputs["dt_hours"].values, dims="time")
    rows = []
    kinds = (
        dict(zip(results["source"].values, results["source_kind"].values, strict=True))
        if (results.sizes.get("source"))
        else {}
    )
    for site in results["site"].values:
        here = results.sel(site=site)
        row = {
            "site": str(site),
            "facility_mwh": float((here["facility_power_mw"] * hours).sum()),
            "grid_mwh": float((here["grid_import_mw"] * hours).sum()),
        }
        renewable = 0.0
        for source, kind in kinds.items():
            energy = float((here["generation_mw"].sel(source=source) * hours).sum())
            row[f"{source}_mwh"] = energy
            renewable += energy if str(kind) in _RENEWABLE else 0.0
        battery = 0.0
        if "storage_discharge_mw" in results:
            battery = float(((here["storage_discharge_mw"] - here["storage_charge_mw"]) * hours).sum())
        row["battery_net_mwh"] = battery
        extension = here["extension_supply_mw"] if "extension_supply_mw" in results else 0.0 * hours
        row["extensions_mwh"] = float((extension * hours).sum())
        row["curtailed_mwh"] = (
            float((here["curtailment_mw"].sum("source") * hours).sum()) if kinds else 0.0
        )
        supplied = row["grid_mwh"] + sum(row[f"{s}_mwh"] for s in kinds)
        row["renewable_pct"] = renewable / supplied * 100.0 if supplied > 0 else 0.0
        rows.append(row)
    frame = pd.DataFrame(rows)
    numbers = [c for c in frame.columns if c.endswith("_mwh")]
    frame[numbers] = frame[numbers].apply(lambda c: denoised(c.to_numpy(), frame["facility_mwh"].max()))
    return frame


_RENEWABLE = frozenset({"solar", "wind", "hydro", "geothermal", "biomass"})


def balance_spec(frame: pd.DataFrame) -> dict[str, tuple[str, int | None]]:
    """The energy balance's headings (sources by name), for ``show_table``."""
    sources = [c for c in frame.columns if c.endswith("_mwh") and c not in _FIXED]
    spec = {
        "site": ("Site", NAME),
        "facility_mwh": ("Facility energy (MWh)", 0),
        "grid_mwh": ("Grid import (MWh)", 0),
        **{c: (f"{human(c.removesuffix('_mwh'))} (MWh)", 0) for c in sources},
        "battery_net_mwh": ("Battery, net (MWh)", 0),
        "extensions_mwh": ("Extensions (MWh)", 0),
        "curtailed_mwh": ("Curtailed (MWh)", 0),
        "renewable_pct": ("Renewable (%)", 1),
    }
    optional = [*sources, "battery_net_mwh", "extensions_mwh", "curtailed_mwh"]
    return {c: v for c, v in spec.items() if c not in optional or frame[c].abs().max() > 0}


_FIXED = {"facility_mwh", "grid_mwh", "battery_net_mwh", "extensions_mwh", "curtailed_mwh"}


def generation_figure(balance: pd.DataFrame, results: xr.Dataset) -> go.Figure:
    """What supplied each site over the horizon, stacked by source (MWh)."""
    palette = colours(results)
    figure = go.Figure()
    columns = [
        c for c in balance.columns if c.endswith("_mwh") and c not in ("facility_mwh", "curtailed_mwh")
    ]
    for column in columns:
        name = {"grid_mwh": GRID, "battery_net_mwh": DISCHARGE, "extensions_mwh": EXTENSIONS}.get(
            column, column.removesuffix("_mwh")
        )
        if not balance[column].abs().max() > 0:
            continue
        figure.add_bar(
            x=[human(s) for s in balance["site"]],
            y=balance[column],
            name=human(name),
            marker_color=palette.get(name, "#999999"),
            hovertemplate="%{x}: %{y:,.0f} MWh<extra>" + human(name) + "</extra>",
        )
    figure.update_layout(barmode="relative", title="Generation by source at each site")
    figure.update_yaxes(title_text="MWh", tickformat=AXIS_FORMAT)
    return layout(figure, height=360)


def curtailment_table(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """Per site and source with capacity: capacity (installed + built), energy available,
    generated and curtailed (MWh), capacity factor of what was generated and of what was
    available, and the curtailed share (%)."""
    columns = ["site", "source", "capacity_mw", "available_mwh", "generated_mwh", "curtailed_mwh",
               "capacity_factor_pct", "available_factor_pct", "curtailed_pct"]  # fmt: skip
    if not results.sizes.get("source"):
        return pd.DataFrame(columns=columns)
    capacity = inputs["source_capacity_mw"]
    if "built_source_mw" in results:
        capacity = capacity + results["built_source_mw"]
    hours = xr.DataArray(inputs["weight"].values * inputs["dt_hours"].values, dims="time")
    total_hours = float(hours.sum())
    available = (capacity * inputs["source_capacity_factor"] * hours).sum("time")
    generated = (results["generation_mw"] * hours).sum("time")
    rows = []
    for site in results["site"].values:
        for source in results["source"].values:
            mw = float(capacity.sel(site=site, source=source))
            if mw <= 1e-9:
                continue
            made = float(generated.sel(site=site, source=source))
            could = float(available.sel(site=site, source=source))
            rows.append(
                {
                    "site": str(site),
                    "source": str(source),
                    "capacity_mw": mw,
                    "available_mwh": could,
                    "generated_mwh": made,
                    "curtailed_mwh": max(could - made, 0.0),
                    "capacity_factor_pct": made / (mw * total_hours) * 100.0,
                    "available_factor_pct": could / (mw * total_hours) * 100.0,
                    "curtailed_pct": (could - made) / could * 100.0 if could > 0 else 0.0,
                }
            )
    return pd.DataFrame(rows, columns=columns)


CURTAILMENT_TABLE = {
    "site": ("Site", NAME),
    "source": ("Source", NAME),
    "capacity_mw": ("Capacity (MW)", 1),
    "available_mwh": ("Available (MWh)", 0),
    "generated_mwh": ("Generated (MWh)", 0),
    "curtailed_mwh": ("Curtailed (MWh)", 0),
    "capacity_factor_pct": ("Capacity factor (%)", 1),
    "available_factor_pct": ("Available factor (%)", 1),
    "curtailed_pct": ("Curtailed (%)", 1),
}
#: what a duration curve can show: key -> (results variable, words)
DURATION = {
    "facility": ("facility_power_mw", "facility load"),
    "grid": ("grid_import_mw", "grid import"),
}


def duration_figure(results: xr.Dataset, steps: Timeline, what: str = "facility") -> go.Figure:
    """Each site's load (or grid import) sorted from highest to lowest against the hours of
    the horizon it lasts (each step counts the hours it stands for)."""
    variable, words = DURATION[what]
    figure = go.Figure()
    hours = steps.hours
    for site in results["site"].values:
        values = denoised(results[variable].sel(site=site).values)
        order = np.argsort(-values, kind="stable")
        x = np.concatenate([[0.0], np.cumsum(hours[order])])
        y = np.concatenate([values[order], values[order][-1:]])
        figure.add_scatter(x=x, y=y, mode="lines", name=human(site), line={"shape": "hv"})
    figure.update_xaxes(title_text="hours of the horizon at or above", tickformat=AXIS_FORMAT)
    figure.update_yaxes(title_text="MW", tickformat=AXIS_FORMAT, rangemode="tozero")
    figure.update_layout(title=f"Duration curves: {words} at each site")
    return layout(figure, height=360)
