"""Charts and tables of a results Dataset (and its inputs); plain functions, no streamlit.

Every function takes Datasets and returns a plotly figure or a DataFrame, so
the pages only place them. Times are the Dataset's ``time`` coordinate (UTC).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
import xarray as xr

from geomodel.batch.store import PARAM
from geomodel.results.breakdown import MEASURES
from geomodel.results.dci_traffic import link_capacity, required_by_job
from geomodel.ui.format import denoised, human, kpi_label
from geomodel.ui.timeline import Timeline

#: breakdown column -> shown name with units
MEASURE_LABELS = {name: shown for name, (_, shown) in MEASURES.items()}
#: y-axis numbers: decimal, grouped, trailing zeros trimmed; never SI prefixes (a tiny
#: value would read "2f", femto) or exponents
AXIS_FORMAT = ",~r"
GRID = "grid import"
EXTENSIONS = "extensions (e.g. battery)"
#: colour of each power-source kind (catalogue ``kind``), grid and extensions
KIND_COLOURS = {
    "grid": "#8c8c8c",
    "solar": "#f2b705",
    "wind": "#2a9d8f",
    "hydro": "#1f6fb2",
    "nuclear": "#7b4fa0",
    "gas": "#b5651d",
    "geothermal": "#c0392b",
    "biomass": "#6a8d2f",
    "extensions": "#264653",
}


def layout(figure: go.Figure, height: int | None = None) -> go.Figure:
    figure.update_layout(margin={"l": 10, "r": 10, "t": 40, "b": 10}, legend_title_text="")
    if height:
        figure.update_layout(height=height)
    return figure


def source_colours(results: xr.Dataset) -> dict[str, str]:
    """A colour per source name, by its kind (grid grey, solar yellow, wind teal, ...)."""
    colours = {GRID: KIND_COLOURS["grid"], EXTENSIONS: KIND_COLOURS["extensions"]}
    if results.sizes.get("source"):
        for name, kind in zip(results["source"].values, results["source_kind"].values, strict=True):
            colours[str(name)] = KIND_COLOURS.get(str(kind), "#999999")
    return colours


def workloads(results: xr.Dataset) -> list[tuple[str, str]]:
    """Every (kind, name) of a training job or inference service."""
    found = [("job", str(j)) for j in results["job"].values] if results.sizes.get("job") else []
    if results.sizes.get("service"):
        found += [("service", str(s)) for s in results["service"].values]
    return found


def step_lines(series: dict[str, np.ndarray], steps: Timeline, units: str) -> go.Figure:
    """One step line per named series over the result's steps (typical days by block)."""
    figure = go.Figure()
    for name, values in series.items():
        xs, ys = steps.line(denoised(values))
        figure.add_scatter(x=xs, y=ys, mode="lines", name=human(name))
    figure.update_xaxes(**steps.axis())
    figure.update_yaxes(title_text=units, tickformat=AXIS_FORMAT, rangemode="tozero")
    return layout(figure, height=360)


def placement_heatmap(results: xr.Dataset, steps: Timeline, kind: str, name: str) -> go.Figure:
    """Chips of one job or service at each site and step (summed over systems), the
    steps in order (typical days by the first day each stands for, named with weights)."""
    variable = "training_chips" if kind == "job" else "inference_chips"
    chips = results[variable].sel({kind: name}).sum("system")
    order = steps.steps_in_order()
    labels = [steps.step_label(s) for s in order]
    figure = go.Figure(
        go.Heatmap(
            z=denoised(chips.values[:, order]),
            x=labels if steps.typical else chips["time"].values,
            y=[human(s) for s in chips["site"].values],
            colorscale="Viridis",
            colorbar={"title": "chips", "tickformat": AXIS_FORMAT},
            hovertemplate="%{y}<br>%{x}<br>%{z:,.0f} chips<extra></extra>",
        )
    )
    axis = {"title_text": "typical days and their segments"} if steps.typical else steps.axis()
    figure.update_layout(title=f"{kind} {human(name)}: chips by site")
    figure.update_xaxes(**axis)
    return layout(figure, height=160 + 40 * chips.sizes["site"])


def latency_frame(results: xr.Dataset) -> pd.DataFrame:
    """Served demand by round-trip latency: service, region, site, latency, token-hours/s."""
    if not results.sizes.get("service") or "latency_ms" not in results:
        return pd.DataFrame(columns=["service", "region", "site", "latency_ms", "tokens"])
    served = results["served_tokens_per_s"].sum("time")
    frame = served.to_dataframe(name="tokens").reset_index()
    latency = results["latency_ms"].to_dataframe(name="latency_ms").reset_index()
    frame = frame.merge(latency[["region", "site", "latency_ms"]], on=["region", "site"])
    return frame[frame["tokens"] > 0][["service", "region", "site", "latency_ms", "tokens"]]


def latency_distribution(results: xr.Dataset, inputs: xr.Dataset) -> go.Figure:
    """Share of served tokens by round-trip latency, with each service's SLA."""
    frame = latency_frame(results)
    if frame.empty:
        figure = go.Figure()
        figure.update_layout(title="no inference demand was served")
        return layout(figure, height=200)
    total = frame.groupby("service")["tokens"].transform("sum")
    frame = frame.assign(share=frame["tokens"] / total * 100.0)
    figure = px.histogram(
        frame,
        x="latency_ms",
        y="share",
        color="service",
        histfunc="sum",
        nbins=30,
        barmode="overlay",
        labels={"latency_ms": "round trip (ms)", "share": "share of served tokens (%)"},
    )
    for service in frame["service"].unique():
        sla = float(inputs["sla_ms"].sel(service=service))
        figure.add_vline(
            x=sla, line_dash="dash", line_color="crimson", annotation_text=f"SLA {service} {sla:g} ms"
        )
    figure.update_layout(yaxis_title="share of served tokens (%)")
    return layout(figure, height=360)


def usable_chips(results: xr.Dataset, inputs: xr.Dataset) -> xr.DataArray:
    """(site) chips installed, plus those built in planning mode."""
    chips = inputs["chips_installed"]
    if "built_chips" in results:
        chips = chips + results["built_chips"]
    return chips.sum("system")


UTILISATION = ("chips in use (%)", "power of envelope (%)")


def utilisation_data(results: xr.Dataset, inputs: xr.Dataset, measure: str) -> xr.DataArray:
    """(site, time) chips in use / usable chips, or facility power / envelope (after
    building), in %."""
    if measure == UTILISATION[0]:
        used = results["training_chips"].sum(("job", "system")) + results["inference_chips"].sum(
            ("service", "system")
        )
        usable = usable_chips(results, inputs) * inputs["availability"]
        return (used / usable.where(usable > 0)).fillna(0.0) * 100.0
    envelope = inputs["power_envelope_mw"]
    if "built_envelope_mw" in results:
        envelope = envelope + results["built_envelope_mw"]
    return (results["facility_power_mw"] / envelope.where(envelope > 0)).fillna(0.0) * 100.0


def utilisation(
    results: xr.Dataset, inputs: xr.Dataset, steps: Timeline, measure: str = UTILISATION[0]
) -> go.Figure:
    """Utilisation of each site over the steps (chips or power)."""
    data = utilisation_data(results, inputs, measure).transpose("site", "time")
    series = {str(s): data.sel(site=s).values for s in data["site"].values}
    return step_lines(series, steps, measure)


def required_link_traffic(results: xr.Dataset, inputs: xr.Dataset) -> xr.DataArray:
    """(link, time) Gb/s the placement requires; computed from the chips for results
    saved before ``link_required_gbit_s`` was part of the Dataset."""
    if "link_required_gbit_s" in results:
        return results["link_required_gbit_s"]
    return required_by_job(results, inputs).sum("job")


def link_traffic(
    results: xr.Dataset, inputs: xr.Dataset, steps: Timeline, measure: str = "traffic"
) -> go.Figure:
    """DCI traffic each link must carry for the placement (Gb/s), or as a share of its
    capacity (%), over time."""
    if not results.sizes.get("link"):
        figure = go.Figure()
        figure.update_layout(title="the scenario has no DCI links")
        return layout(figure, height=200)
    data = required_link_traffic(results, inputs)
    if measure == "traffic":
        label = "required traffic (Gb/s)"
    else:
        capacity = link_capacity(results, inputs)
        data = data / capacity.where(capacity > 0) * 100.0
        label = "required traffic / capacity (%)"
    data = data.transpose("link", "time")
    figure = step_lines({str(k): data.sel(link=k).values for k in data["link"].values}, steps, label)
    if measure != "traffic":
        figure.add_hline(y=100.0, line_dash="dash", line_color="crimson", annotation_text="capacity")
    return figure


def undercharged_steps(results: xr.Dataset, inputs: xr.Dataset) -> int:
    """Link-steps where the LP charged the capacity rows less than the placement requires."""
    if not results.sizes.get("link") or "link_traffic_gbit_s" not in results:
        return 0
    required = required_link_traffic(results, inputs)
    return int((required - results["link_traffic_gbit_s"] > 1e-6 * (1.0 + required)).sum())


def workload_bars(table: pd.DataFrame) -> go.Figure:
    """Energy, emissions and cost by job, service and overhead, one panel per measure."""
    shown = table.rename(columns=dict(MEASURE_LABELS))
    long = shown.melt(id_vars=["kind", "name"], var_name="measure", value_name="value")
    figure = px.bar(long, x="name", y="value", color="kind", facet_col="measure")
    figure.update_yaxes(matches=None, showticklabels=True, title_text="")
    figure.update_xaxes(title_text="")
    figure.for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
    return layout(figure, height=320)


def pareto_mask(
    x: np.ndarray, y: np.ndarray, maximise_x: bool = False, maximise_y: bool = False
) -> np.ndarray:
    """True for the points no other point beats in both x and y (NaN points are never on it)."""
    x = np.asarray(x, dtype=float) * (-1 if maximise_x else 1)
    y = np.asarray(y, dtype=float) * (-1 if maximise_y else 1)
    valid = ~(np.isnan(x) | np.isnan(y))
    mask = np.zeros(len(x), dtype=bool)
    for i in np.flatnonzero(valid):
        others = valid & (x <= x[i]) & (y <= y[i]) & ((x < x[i]) | (y < y[i]))
        mask[i] = not others.any()
    return mask


def batch_scatter(
    table: pd.DataFrame, x: str, y: str, colour: str | None, front: np.ndarray
) -> go.Figure:
    """Two KPIs of every case, coloured by a swept parameter, with the Pareto front drawn."""
    hover = [c for c in ("case", "status") if c in table.columns]
    colour_values = table[colour].astype(str) if colour and table[colour].nunique() <= 12 else None
    figure = px.scatter(
        table,
        x=x,
        y=y,
        color=colour_values if colour_values is not None else (table[colour] if colour else None),
        hover_data=hover,
        labels={"color": (colour or "").removeprefix(PARAM), x: kpi_label(x), y: kpi_label(y)},
    )
    figure.update_traces(marker={"size": 11})
    on_front = table[front].sort_values(x)
    figure.add_trace(
        go.Scatter(
            x=on_front[x],
            y=on_front[y],
            mode="lines",
            line={"color": "black", "dash": "dash"},
            name="Pareto front",
        )
    )
    return layout(figure, height=420)
