"""The world under the app's maps: Natural Earth land and country outlines, offline.

The GeoJSON files ship inside the package (``geomodel/ui/data``, Natural Earth
1:110m, public domain), so the maps need no tile server: the map style is a
MapLibre style with only a background (the sea), given inline as a ``data:``
URL, and the land and the borders are deck.gl layers under everything else.
"""

from __future__ import annotations

import json
import urllib.parse
from functools import lru_cache
from pathlib import Path

import numpy as np
import pydeck as pdk

from geomodel.ui.components.map_view import View, world_xy

DATA = Path(__file__).resolve().parents[1] / "data"
LAND, COUNTRIES = "ne_110m_land.geojson", "ne_110m_admin_0_countries.geojson"
#: the credit Natural Earth asks for, shown under every map
CREDIT = "Outlines: Natural Earth (public domain)"
SEA, LAND_FILL, COAST, BORDER = (
    "#dfe8ef",
    [244, 242, 236, 255],
    [150, 160, 170, 255],
    [196, 196, 188, 255],
)

#: a MapLibre style with only a background layer: the sea
SEA_STYLE = "data:application/json;charset=utf-8," + urllib.parse.quote(
    json.dumps(
        {
            "version": 8,
            "sources": {},
            "layers": [{"id": "background", "type": "background", "paint": {"background-color": SEA}}],
        }
    )
)


#: decimals of a degree kept (0.01 degree is about 1 km: finer than 1:110m outlines are)
DECIMALS = 2
#: what a map's outlines keep around its first view, in view widths (heights) on each
#: side: a pan of up to half a view still shows the land; outlines wholly beyond are left out
MARGIN_VIEWS = 0.5
#: vertices closer than this (pixels at the first view's zoom) to the line through their
#: neighbours are left out (Douglas-Peucker): invisible at that zoom, a pixel after
#: zooming in one step; and beyond the first view, where only a pan shows them
TOLERANCE_PX, BEYOND_PX = 0.5, 3.0


def _rounded(coordinates: list) -> list:
    if coordinates and isinstance(coordinates[0], int | float):
        return [round(coordinates[0], DECIMALS), round(coordinates[1], DECIMALS)]
    return [_rounded(part) for part in coordinates]


@lru_cache(maxsize=2)
def _polygons(name: str) -> list[list[tuple[np.ndarray, np.ndarray]]]:
    """Every polygon of a bundled file (a MultiPolygon's one by one) as its rings, the
    outer one first, each as (lon/lat, world pixels) arrays."""
    collection = json.loads((DATA / name).read_text(encoding="utf-8"))
    polygons = []
    for feature in collection["features"]:
        geometry = feature["geometry"]
        parts = geometry["coordinates"]
        for polygon in [parts] if geometry["type"] == "Polygon" else parts:
            rings = [np.asarray(ring, dtype=float) for ring in polygon]
            # world pixels through map_view's own projection, once per process (cached)
            polygons.append([(ring, np.array([world_xy(*p) for p in ring])) for ring in rings])
    return polygons


def _kept(xy: np.ndarray, tolerance: np.ndarray) -> np.ndarray:
    """Douglas-Peucker: which points of a line (world pixels) to keep, each left-out point
    within its ``tolerance`` of the kept line; the ends are kept."""
    keep = np.zeros(len(xy), dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(xy) - 1)]
    while stack:
        first, last = stack.pop()
        if last - first < 2:
            continue
        a, b = xy[first], xy[last]
        inner = xy[first + 1 : last]
        chord = b - a
        length = float(np.hypot(*chord))
        if length == 0.0:  # a closed ring's ends: the distance to that point
            distance = np.hypot(*(inner - a).T)
        else:
            distance = np.abs(chord[0] * (inner[:, 1] - a[1]) - chord[1] * (inner[:, 0] - a[0])) / length
        excess = distance - tolerance[first + 1 : last]
        farthest = int(np.argmax(excess))
        if excess[farthest] > 0.0:
            middle = first + 1 + farthest
            keep[middle] = True
            stack += [(first, middle), (middle, last)]
    return keep


def _frame(view: View) -> tuple[np.ndarray, np.ndarray, float]:
    """The corners (world pixels: left-top, right-bottom) of ``view`` and of what a map
    around it keeps, and world pixels per pixel of ``view``."""
    scale = 2.0**view.zoom
    centre = np.asarray(world_xy(view.lon, view.lat))
    half = np.asarray([view.width, view.height]) / 2 / scale
    seen = np.stack([centre - half, centre + half])
    kept = np.stack([centre - half * (1 + 2 * MARGIN_VIEWS), centre + half * (1 + 2 * MARGIN_VIEWS)])
    return seen, kept, 1.0 / scale


def _tolerances(xy: np.ndarray, seen: np.ndarray, pixel: float) -> np.ndarray:
    """Each point's simplification tolerance (world pixels): :data:`TOLERANCE_PX` in the
    first view, :data:`BEYOND_PX` outside it."""
    inside = np.all((xy >= seen[0]) & (xy <= seen[1]), axis=1)
    return np.where(inside, TOLERANCE_PX, BEYOND_PX) * pixel


@lru_cache(maxsize=32)
def outlines(name: str, view: View | None = None) -> dict:
    """A bundled file's outlines as a FeatureCollection of Polygons (a MultiPolygon's one
    by one) with geometry only, rounded to :data:`DECIMALS`: every polygon that comes
    within :data:`MARGIN_VIEWS` of ``view``, simplified for its zoom (:data:`TOLERANCE_PX`,
    :data:`BEYOND_PX`; holes that shrink below three points are left out); all of them,
    as they are, without a view."""
    features = []
    if view is not None:
        seen, kept, pixel = _frame(view)
    for polygon in _polygons(name):
        rings = [points for points, _ in polygon]
        if view is not None:
            outer = polygon[0][1]
            if np.any(outer.max(axis=0) < kept[0]) or np.any(outer.min(axis=0) > kept[1]):
                continue
            rings = [points[_kept(xy, _tolerances(xy, seen, pixel))] for points, xy in polygon]
            if len(rings[0]) < 4:  # smaller than the tolerance: not seen at this zoom
                continue
            rings = [rings[0], *(ring for ring in rings[1:] if len(ring) >= 4)]
        features.append(
            {
                "type": "Feature",
                "properties": {},
                "geometry": {"type": "Polygon", "coordinates": [_rounded(r.tolist()) for r in rings]},
            }
        )
    return {"type": "FeatureCollection", "features": features}


def _outline_layer(
    name: str, layer_id: str, fill: list[int] | None, line: list[int], width: float, view: View | None
):
    return pdk.Layer(
        "GeoJsonLayer",
        data=outlines(name, view),
        id=layer_id,
        filled=fill is not None,
        stroked=True,
        get_fill_color=fill or [0, 0, 0, 0],
        get_line_color=line,
        line_width_units="'pixels'",
        get_line_width=width,
        pickable=False,
    )


def base_layers(view: View | None = None) -> list[pdk.Layer]:
    """Land (filled, with its coastline) and the borders between countries, around
    ``view`` (:func:`outlines`)."""
    return [
        _outline_layer(LAND, "land", LAND_FILL, COAST, 1.0, view),
        _outline_layer(COUNTRIES, "borders", None, BORDER, 0.8, view),
    ]
