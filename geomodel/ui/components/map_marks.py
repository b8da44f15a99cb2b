"""Marks drawn as icons on the result map (no streamlit): arrows for training work and its
data moved away from their origin, and each site's technology mix as a pie.

deck.gl draws an icon at a fixed size in pixels, rotated on screen and offset in pixels,
so an arrowhead stays at its target's edge and a pie stays a pie at every zoom. Icons are
SVG as ``data:`` URLs: nothing is fetched.
"""

from __future__ import annotations

import math
import urllib.parse

import numpy as np
import pandas as pd
import pydeck as pdk
import xarray as xr

from geomodel.ui.components.map_view import world_xy
from geomodel.ui.format import format_number, human

MOVED = (120, 40, 170)  #: the colour of moved work and data
PIE_RADIUS = (7.0, 15.0)  #: pixels: the smallest pie, and what the largest adds


def moved_frame(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """One row per (origin, site) that training work moved to: EFLOP of work done there
    by jobs whose data lies at the origin, and the GB of data moved for it."""
    columns = ["origin", "site", "work_eflop", "moved_gb", "jobs"]
    if "member_class" not in inputs or "job_origin" not in inputs or "member_work_eflop" not in results:
        return pd.DataFrame(columns=columns)
    origin = inputs["job_origin"].values.astype(int)[inputs["member_class"].values.astype(int)]
    work = results["member_work_eflop"].values  # (member, site)
    own = inputs["member_work_eflop"].values
    per_work = inputs["member_data_gb"].values / np.where(own > 0, own, np.inf)
    sites = [str(s) for s in inputs["site"].values]
    rows = []
    for o in sorted(set(origin[origin >= 0].tolist())):
        mine = origin == o
        for s, site in enumerate(sites):
            if s == o:
                continue
            done = work[mine, s]
            moved = done > 1e-9 * max(float(own[mine].max(initial=0.0)), 1e-12)
            if moved.any():
                rows.append(
                    {
                        "origin": sites[o],
                        "site": site,
                        "work_eflop": float(done.sum()),
                        "moved_gb": float((done * per_work[mine]).sum()),
                        "jobs": int(moved.sum()),
                    }
                )
    return pd.DataFrame(rows, columns=columns)


def icon_layer(data: pd.DataFrame, layer_id: str, size, **options) -> pdk.Layer:
    """Icons (each row's ``icon``) at each row's lon/lat, ``size`` pixels high."""
    return pdk.Layer(
        "IconLayer",
        data=data,
        id=layer_id,
        get_position=["lon", "lat"],
        get_icon="icon",
        get_size=size,
        size_units="'pixels'",
        **options,
    )


def _svg_url(svg: str) -> str:
    return "data:image/svg+xml;charset=utf-8," + urllib.parse.quote(svg)


def line_icon(length: float) -> dict:
    """A leader line as an icon: ``length`` pixels long, 1.5 px thick, anchored at its start
    (an icon keeps its pixel size at every zoom, as a label's offset does)."""
    width = max(round(length), 1)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="4">'
        f'<rect x="0" y="1.25" width="{width}" height="1.5" fill="white"/></svg>'
    )
    return {"url": _svg_url(svg), "width": width, "height": 4, "anchorX": 0, "anchorY": 2,
            "mask": True, "id": f"leader-{width}"}  # fmt: skip


def _arrowhead(size: int = 12) -> dict:
    """A triangle pointing east, anchored at its tip."""
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
        f'<polygon points="0,0 {size},{size / 2} 0,{size}" fill="white"/></svg>'
    )
    return {
        "url": _svg_url(svg),
        "width": size,
        "height": size,
        "anchorX": size,
        "anchorY": size / 2,
        "mask": True,
        "id": f"arrow-{size}",
    }


def screen_angle(start: tuple[float, float], end: tuple[float, float]) -> float:
    """The direction from ``start`` to ``end`` (lon, lat) on a Web Mercator map, degrees
    anticlockwise from east (the same at every zoom: Mercator is conformal)."""
    x0, y0 = world_xy(*start)
    x1, y1 = world_xy(*end)
    return math.degrees(math.atan2(-(y1 - y0), x1 - x0))


def moved_layers(moved: pd.DataFrame, where: pd.DataFrame, radius_of: dict[str, float]) -> list:
    """Lines from each origin to where its work ran, as wide as the data moved, and an
    arrowhead at the target's edge."""
    if moved.empty:
        return []
    widest = float(moved["moved_gb"].max()) or 1.0
    rows = []
    for r in moved.itertuples():
        start, end = where.loc[r.origin].tolist(), where.loc[r.site].tolist()
        angle = screen_angle(tuple(start), tuple(end))
        back = radius_of.get(r.site, 6.0) + 1.0
        turn = math.radians(angle)
        rows.append(
            {
                "source": start,
                "target": end,
                "lon": end[0],
                "lat": end[1],
                "width": 1.5 + 6.0 * r.moved_gb / widest,
                "angle": angle,
                "icon": _arrowhead(),
                "offset": [-back * math.cos(turn), back * math.sin(turn)],
                "tooltip": f"work moved from {human(r.origin)} to {human(r.site)}\n"
                f"{format_number(r.work_eflop)} EFLOP of {r.jobs} job{'s' * (r.jobs != 1)}, "
                f"{format_number(r.moved_gb)} GB of data moved",
            }
        )
    frame = pd.DataFrame(rows)
    colour = [*MOVED, 210]
    return [
        pdk.Layer(
            "LineLayer",
            data=frame,
            id="moved",
            get_source_position="source",
            get_target_position="target",
            get_color=colour,
            get_width="width",
            width_units="'pixels'",
            pickable=True,
        ),
        icon_layer(
            frame, "moved-heads", 12, get_angle="angle", get_pixel_offset="offset", get_color=colour
        ),
    ]


def pie_icon(parts: list[tuple[str, float]], radius: float) -> dict:
    """A pie of ``parts`` (colour, share; shares add up to 1) of ``radius`` pixels."""
    size = math.ceil(2 * radius + 2)
    c = size / 2
    slices, angle = [], -math.pi / 2
    for colour, share in parts:
        if share <= 0:
            continue
        if share >= 1 - 1e-9:
            slices.append(f'<circle cx="{c}" cy="{c}" r="{radius}" fill="{colour}"/>')
            break
        end = angle + 2 * math.pi * share
        x0, y0 = c + radius * math.cos(angle), c + radius * math.sin(angle)
        x1, y1 = c + radius * math.cos(end), c + radius * math.sin(end)
        large = 1 if share > 0.5 else 0
        arc = f"A{radius},{radius} 0 {large} 1 {x1:.2f},{y1:.2f}"
        slices.append(f'<path d="M{c},{c} L{x0:.2f},{y0:.2f} {arc} Z" fill="{colour}"/>')
        angle = end
    outline = f'<circle cx="{c}" cy="{c}" r="{radius}" fill="none" stroke="#333" stroke-width="1"/>'
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">'
    svg = head + "".join(slices) + outline + "</svg>"
    key = "-".join(f"{col}{share:.3f}" for col, share in parts)
    return {
        "url": _svg_url(svg),
        "width": size,
        "height": size,
        "anchorX": c,
        "anchorY": c,
        "id": f"pie-{size}-{key}",
    }


def mix_layer(sites: pd.DataFrame) -> pdk.Layer:
    """Each site's technology mix as a pie (``icon`` and ``pie_size`` columns)."""
    return icon_layer(sites, "mix", "pie_size", pickable=True)
