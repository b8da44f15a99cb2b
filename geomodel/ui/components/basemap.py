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

import pydeck as pdk

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


def _rounded(coordinates: list) -> list:
    if coordinates and isinstance(coordinates[0], int | float):
        return [round(coordinates[0], DECIMALS), round(coordinates[1], DECIMALS)]
    return [_rounded(part) for part in coordinates]


@lru_cache(maxsize=2)
def outlines(name: str) -> dict:
    """A bundled FeatureCollection with geometry only, rounded to :data:`DECIMALS`
    (what every page run sends to the browser: about 80 kB of land, 160 kB of countries)."""
    collection = json.loads((DATA / name).read_text(encoding="utf-8"))
    return {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {},
                "geometry": {
                    "type": feature["geometry"]["type"],
                    "coordinates": _rounded(feature["geometry"]["coordinates"]),
                },
            }
            for feature in collection["features"]
        ],
    }


def _outline_layer(name: str, layer_id: str, fill: list[int] | None, line: list[int], width: float):
    return pdk.Layer(
        "GeoJsonLayer",
        data=outlines(name),
        id=layer_id,
        filled=fill is not None,
        stroked=True,
        get_fill_color=fill or [0, 0, 0, 0],
        get_line_color=line,
        line_width_units="'pixels'",
        get_line_width=width,
        pickable=False,
    )


def base_layers() -> list[pdk.Layer]:
    """Land (filled, with its coastline) and the borders between countries."""
    return [
        _outline_layer(LAND, "land", LAND_FILL, COAST, 1.0),
        _outline_layer(COUNTRIES, "borders", None, BORDER, 0.8),
    ]
