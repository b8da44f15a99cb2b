"""The scenario map: sites, user regions and DCI links of an inputs Dataset, on the world.

Sites are sized by chips installed or power envelope and coloured by mean grid
carbon, user regions are blue rings sized by demand, links are coloured by
latency or technology; every site and region is labelled, labels placed apart
(:mod:`map_view`), the view fitted to all of them, the world drawn from bundled
outlines (:mod:`basemap`), and a legend says what colours and sizes mean.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pydeck as pdk
import xarray as xr
from pydeck.bindings.json_tools import default_serialize

from geomodel.ui.components import legend as key
from geomodel.ui.components.basemap import CREDIT, SEA_STYLE, base_layers
from geomodel.ui.components.map_marks import icon_layer, line_icon
from geomodel.ui.components.map_view import Label, Placement, View, fit_and_place, panel_widths, split
from geomodel.ui.format import format_number, human

SIZE_BY = {"chips": "chips installed", "mw": "power envelope (MW)"}
LINK_COLOUR_BY = {"latency": "one-way latency", "technology": "link technology"}

#: the map's height, and its width at a 1280 px window: the scenario page's right column
#: and the results page's full width (a wider map only has more room to spare)
HEIGHT, NARROW, WIDE = 460, 460, 820

#: grid carbon (kgCO2e/MWh) at the clean and the dirty end of the colour scale
CARBON_RANGE = (0.0, 800.0)
_CLEAN, _DIRTY = (34, 150, 80), (150, 50, 30)
_LOW_LATENCY, _HIGH_LATENCY = (120, 190, 230), (80, 30, 140)
REGION = (40, 110, 220)
SITE_TEXT, REGION_TEXT = [25, 25, 25, 255], [20, 70, 170, 255]
_PALETTE = [(230, 120, 20), (90, 60, 200), (0, 150, 150), (200, 40, 120), (120, 120, 0), (60, 60, 60)]
SITE_RADIUS = (5.0, 16.0)  #: pixels: smallest, and what the largest site adds
REGION_RADIUS = (4.0, 10.0)


def blend(low: tuple[int, ...], high: tuple[int, ...], t: float) -> list[int]:
    t = min(max(float(t), 0.0), 1.0)
    return [round(a + (b - a) * t) for a, b in zip(low, high, strict=True)]


def radius(value: float, largest: float, sizes: tuple[float, float] = SITE_RADIUS) -> float:
    """Marker radius (pixels) with area growing with ``value``; the largest gets the most."""
    share = value / largest if largest > 0 else 0.0
    return sizes[0] + sizes[1] * float(np.sqrt(max(share, 0.0)))


#: pixels between two panels of one map (Streamlit's small column gap, 1 rem)
PANEL_GAP = 16.0


def map_panels(
    points: dict[str, tuple[float, float]], width: float
) -> list[tuple[frozenset[str], float]]:
    """The panels a map of these points (name -> lon, lat) is drawn in, each with the names
    it is framed on and its width: one, or two when an ocean lies between the points."""
    names = list(points)
    lons = [points[n][0] for n in names]
    groups = split(lons)
    if len(groups) == 1:
        return [(frozenset(names), width)]
    widths = panel_widths(groups, lons, width - PANEL_GAP * (len(groups) - 1))
    return [(frozenset(names[i] for i in group), w) for group, w in zip(groups, widths, strict=True)]


def frame_on(frame: pd.DataFrame, column: str, names: frozenset[str] | None) -> pd.DataFrame:
    """Mark the rows whose ``column`` is in ``names`` as framed (all when None)."""
    frame["framed"] = True if names is None else frame[column].isin(names)
    return frame


@dataclass
class MapDrawing:
    """A deck, its legend (HTML), its first view, and where its labels went."""

    deck: pdk.Deck
    legend: str
    view: View
    labels: list[Label] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)


def site_frame(inputs: xr.Dataset) -> pd.DataFrame:
    """One row per site: location, chips installed, power envelope, mean grid carbon, and
    in planning mode the chips and facility MW that may be added."""
    chips = inputs["chips_installed"].sum("system") if "system" in inputs.dims else 0
    carbon = inputs["grid_carbon_kg_per_mwh"].mean("time")
    more_chips = more_mw = np.zeros(inputs.sizes["site"])  # planning: room to build
    if "build_max_systems" in inputs:
        more_chips = (inputs["build_max_systems"] * inputs["chips_per_system"]).sum("system").values
        more_mw = inputs["build_max_envelope_mw"].values
    return pd.DataFrame(
        {
            "site": inputs["site"].values.astype(str),
            "lat": inputs["site_lat"].values,
            "lon": inputs["site_lon"].values,
            "chips": np.asarray(chips, dtype=float),
            "power_envelope_mw": inputs["power_envelope_mw"].values,
            "grid_carbon_kg_per_mwh": carbon.values,
            "pue": inputs["pue"].weighted(inputs["weight"] * inputs["dt_hours"]).mean("time").values,
            "may_add_chips": more_chips,
            "may_add_mw": more_mw,
        }
    )


def region_frame(inputs: xr.Dataset) -> pd.DataFrame:
    """One row per user region: location and mean demand over all services (token/s)."""
    if not inputs.sizes.get("region"):
        return pd.DataFrame(columns=["region", "lat", "lon", "demand_tokens_per_s"])
    demand = inputs["demand_tokens_per_s"].sum("service").mean("time")
    return pd.DataFrame(
        {
            "region": inputs["region"].values.astype(str),
            "lat": inputs["region_lat"].values,
            "lon": inputs["region_lon"].values,
            "demand_tokens_per_s": demand.values,
        }
    )


def link_frame(inputs: xr.Dataset) -> pd.DataFrame:
    """One row per DCI link: end points, technology, length, latency and capacity."""
    columns = ["link", "site_a", "site_b", "technology", "length_km", "latency_ms", "capacity_gbit_s"]
    if not inputs.sizes.get("link"):
        return pd.DataFrame(columns=columns)
    return pd.DataFrame(
        {
            "link": inputs["link"].values.astype(str),
            "site_a": inputs["link_site_a"].values.astype(str),
            "site_b": inputs["link_site_b"].values.astype(str),
            "technology": inputs["link_technology"].values.astype(str),
            "length_km": inputs["link_length_km"].values,
            "latency_ms": inputs["link_latency_ms"].values,
            "capacity_gbit_s": inputs["link_capacity_gbit_s"].values,
        }
    )


def technology_colours(technologies: list[str]) -> dict[str, list[int]]:
    """A fixed colour per technology name, in sorted order."""
    return {name: list(_PALETTE[i % len(_PALETTE)]) for i, name in enumerate(sorted(set(technologies)))}


def label_layer(labels: list[Label], placements: list[Placement], colours: list[list[int]]) -> pdk.Layer:
    """Every shown label, offset as placed, on a light backing so outlines do not cross
    the text."""
    shown = [
        (label, placed, colour)
        for label, placed, colour in zip(labels, placements, colours, strict=True)
        if placed.shown
    ]
    frame = pd.DataFrame(
        {
            "lon": [label.lon for label, _, _ in shown],
            "lat": [label.lat for label, _, _ in shown],
            "text": [label.text for label, _, _ in shown],
            "size": [label.font for label, _, _ in shown],
            "offset": [list(p.offset) for _, p, _ in shown],
            "anchor": [p.anchor for _, p, _ in shown],
            "baseline": [p.baseline for _, p, _ in shown],
            "colour": [colour for _, _, colour in shown],
        }
    )
    return pdk.Layer(
        "TextLayer",
        data=frame,
        id="labels",
        get_position=["lon", "lat"],
        get_text="text",
        get_size="size",
        get_color="colour",
        get_pixel_offset="offset",
        get_text_anchor="anchor",
        get_alignment_baseline="baseline",
        background=True,
        get_background_color=[255, 255, 255, 190],
        background_padding=[2, 1],
    )


def labelled(
    sites: pd.DataFrame, regions: pd.DataFrame, width: float, height: float
) -> tuple[View, list[Label], list[Placement], list[list[int]]]:
    """The view framed on what the map shows (the sites and regions whose ``framed``
    column is true; all when there is no such column) with their labels, and the labels:
    sites (largest first) then user regions, placed apart."""
    order = sites.sort_values("radius", ascending=False)

    def framed(frame: pd.DataFrame) -> list[bool]:
        return frame["framed"].astype(bool).tolist() if "framed" in frame else [True] * len(frame)

    labels = [
        Label(r.lon, r.lat, human(r.site), r.radius, 13.0, f)
        for r, f in zip(order.itertuples(), framed(order), strict=True)
    ]
    labels += [
        Label(r.lon, r.lat, human(r.region), r.radius + 2.0, 12.0, f)
        for r, f in zip(regions.itertuples(), framed(regions), strict=True)
    ]
    colours = [SITE_TEXT] * len(order) + [REGION_TEXT] * len(regions)
    view, placements = fit_and_place(labels, width, height)
    return view, labels, placements, colours


def leader_layer(labels: list[Label], placements: list[Placement]) -> pdk.Layer:
    """A thin line from each marker to its label where the label had to move away."""
    rows = []
    for label, placed in zip(labels, placements, strict=True):
        if placed.shown and placed.leader:
            start, length, angle = placed.leader_line(label.radius)
            turn = math.radians(angle)
            rows.append(
                {
                    "lon": label.lon,
                    "lat": label.lat,
                    "icon": line_icon(length),
                    "angle": angle,
                    "offset": [start * math.cos(turn), -start * math.sin(turn)],
                }
            )
    frame = pd.DataFrame(rows, columns=["lon", "lat", "icon", "angle", "offset"])
    return icon_layer(
        frame, "leaders", 4, get_angle="angle", get_pixel_offset="offset", get_color=[60, 60, 60, 220]
    )


def label_layers(labels: list[Label], placements: list[Placement], colours: list[list[int]]) -> list:
    """The leader lines and the labels, drawn over everything else."""
    return [leader_layer(labels, placements), label_layer(labels, placements, colours)]


def markers(
    data: pd.DataFrame, layer_id: str, radius: str, fill, line, line_px: float = 1.0
) -> pdk.Layer:
    """Circles of ``radius`` pixels (a column) at each row's lon/lat, with hover text."""
    return pdk.Layer(
        "ScatterplotLayer",
        data=data,
        id=layer_id,
        get_position=["lon", "lat"],
        get_radius=radius,
        radius_units="'pixels'",
        get_fill_color=fill,
        get_line_color=line,
        stroked=True,
        line_width_min_pixels=line_px,
        pickable=True,
    )


def lines(data: pd.DataFrame, layer_id: str, colour, width: str | float) -> pdk.Layer:
    """Straight lines from each row's ``source`` to its ``target``, ``width`` pixels."""
    return pdk.Layer(
        "LineLayer",
        data=data,
        id=layer_id,
        get_source_position="source",
        get_target_position="target",
        get_color=colour,
        get_width=width,
        width_units="'pixels'",
        pickable=True,
    )


def link_layer(links: pd.DataFrame, width: str | float = 4) -> pdk.Layer:
    return lines(links, "links", "color", width)


def region_layer(regions: pd.DataFrame) -> pdk.Layer:
    return markers(regions, "regions", "radius", [*REGION, 40], [*REGION, 255], line_px=2)


class CompactDeck(pdk.Deck):
    """A Deck whose JSON has no indentation (pydeck indents by 2: the outlines alone
    would be 1.6 MB instead of 0.25 MB on every page run)."""

    def to_json(self) -> str:
        return json.dumps(self, sort_keys=True, default=default_serialize, separators=(",", ":"))


def deck(layers: list[pdk.Layer], view: View) -> pdk.Deck:
    """A deck on the bundled world outlines, with hover text from each row's ``tooltip``."""
    return CompactDeck(
        layers=[*base_layers(view), *layers],
        initial_view_state=view.deck_view(),
        map_provider=None,
        map_style=SEA_STYLE,
        tooltip={"text": "{tooltip}"},
    )


def size_legend(
    title: str,
    largest: float,
    unit: str,
    sizes=SITE_RADIUS,
    fill=(150, 150, 150, 200),
    shown_as: Callable[[float], str] = format_number,
    figures: int | None = None,
) -> str:
    """Three markers of the map's sizes: the largest value, a quarter and a twentieth of it,
    each rounded to ``figures`` significant figures if given (82,000 rather than 82,105),
    its marker drawn for the rounded value."""
    if largest <= 0:
        return ""
    values = [largest, largest / 4, largest / 20]
    if figures:
        values = [float(f"{v:.{figures}g}") for v in values]
    shown = [(radius(v, largest, sizes), f"{shown_as(v)} {unit}") for v in values]
    return key.circles(title, shown, fill)


#: the fill of a site's ring (its capacity) under the disc of what is used or built
RING_FILL = (255, 255, 255, 150)


def ring_and_disc(sites: pd.DataFrame, ring_id: str, disc_id: str) -> list[pdk.Layer]:
    """Each site as a pale ring of radius ``radius`` (a capacity) with a disc of radius
    ``disc`` and colour ``color`` inside (what of it is used, or built)."""
    return [
        markers(sites, ring_id, "radius", list(RING_FILL), [70, 70, 70, 255], line_px=1.5),
        markers(sites, disc_id, "disc", "color", [40, 40, 40, 255], line_px=0.5),
    ]


def sized_regions(regions: pd.DataFrame) -> float:
    """Give each user region (:func:`region_frame`) its radius by mean demand and its hover
    text; returns the largest demand (token/s)."""
    biggest = float(regions["demand_tokens_per_s"].max()) if len(regions) else 0.0
    regions["radius"] = [radius(d, biggest, REGION_RADIUS) for d in regions["demand_tokens_per_s"]]
    regions["tooltip"] = [
        f"user region {r.region}\nmean demand {r.demand_tokens_per_s / 1e6:,.1f} M token/s"
        for r in regions.itertuples()
    ]
    return biggest


def region_legend(biggest: float) -> str:
    """The legend part of user regions sized by demand."""
    return size_legend(
        "User regions (blue rings and names), demand:",
        biggest / 1e6,
        "M token/s",
        REGION_RADIUS,
        (*REGION, 40),
    )


def scenario_deck(
    inputs: xr.Dataset,
    size_by: str = "chips",
    link_colour_by: str = "latency",
    width: float = NARROW,
    height: float = HEIGHT,
) -> MapDrawing:
    """Sites sized by ``size_by`` and coloured by grid carbon, regions, links, labels, legend."""
    sites = site_frame(inputs)
    regions = region_frame(inputs)
    links = link_frame(inputs)

    measure = sites["chips"] if size_by == "chips" else sites["power_envelope_mw"]
    largest = float(measure.max()) if len(measure) else 0.0
    sites["radius"] = [radius(v, largest) for v in measure]
    low, high = CARBON_RANGE
    sites["color"] = [
        [*blend(_CLEAN, _DIRTY, (c - low) / (high - low)), 230] for c in sites["grid_carbon_kg_per_mwh"]
    ]
    sites["tooltip"] = [
        f"site {r.site}\n{r.chips:,.0f} chips installed\n"
        f"power envelope {r.power_envelope_mw:,.0f} MW, PUE {r.pue:.2f}\n"
        f"grid carbon {r.grid_carbon_kg_per_mwh:,.0f} kgCO2e/MWh (mean)"
        + (
            f"\nmay add up to {r.may_add_chips:,.0f} chips and {r.may_add_mw:,.0f} MW"
            if r.may_add_chips > 0 or r.may_add_mw > 0
            else ""
        )
        for r in sites.itertuples()
    ]
    biggest = sized_regions(regions)
    parts = [
        key.gradient(
            "Site colour: grid carbon",
            [_CLEAN, blend(_CLEAN, _DIRTY, 0.5), _DIRTY],
            f"{low:g}",
            f"{high:g} kgCO2e/MWh",
        ),
        size_legend(
            "Site size:",
            largest,
            "chips" if size_by == "chips" else "MW",
        ),
        region_legend(biggest),
    ]
    if len(links):
        parts.append(_colour_links(links, sites, link_colour_by))
    view, labels, placements, colours = labelled(sites, regions, width, height)
    layers = [
        link_layer(links),
        region_layer(regions),
        markers(sites, "sites", "radius", "color", [30, 30, 30, 255]),
        *label_layers(labels, placements, colours),
    ]
    legend = key.legend([p for p in parts if p], CREDIT)
    return MapDrawing(deck(layers, view), legend, view, labels, placements)


def _colour_links(links: pd.DataFrame, sites: pd.DataFrame, colour_by: str) -> str:
    """Give each link its ends, colour and hover text; returns the legend part."""
    where = sites.set_index("site")[["lon", "lat"]]
    links["source"] = [where.loc[a].tolist() for a in links["site_a"]]
    links["target"] = [where.loc[b].tolist() for b in links["site_b"]]
    links["tooltip"] = [
        f"link {r.site_a} - {r.site_b}\n{r.technology}, {r.length_km:,.0f} km route\n"
        f"one-way latency {r.latency_ms:.2f} ms\ncapacity {r.capacity_gbit_s:,.0f} Gb/s"
        for r in links.itertuples()
    ]
    if colour_by == "technology":
        palette = technology_colours(links["technology"].tolist())
        links["color"] = [palette[t] + [220] for t in links["technology"]]
        return key.lines("DCI links:", [(palette[t], 4, t) for t in sorted(palette)])
    worst = float(links["latency_ms"].max()) or 1.0
    links["color"] = [
        [*blend(_LOW_LATENCY, _HIGH_LATENCY, ms / worst), 220] for ms in links["latency_ms"]
    ]
    return key.gradient(
        "DCI links: one-way latency", [_LOW_LATENCY, _HIGH_LATENCY], "0", f"{worst:.2f} ms"
    )
