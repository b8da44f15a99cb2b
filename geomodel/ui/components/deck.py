"""The map: sites, user regions and DCI links of an inputs Dataset, as a pydeck Deck.

No basemap tiles are fetched: the map style is an inline MapLibre style with
a plain background (given as a ``data:`` URL, so nothing is downloaded, and
Streamlit does not substitute its default Carto basemap). A graticule every 10
degrees and the site names give the bearings, so the map works offline.
"""

from __future__ import annotations

import json
import math
import urllib.parse

import numpy as np
import pandas as pd
import pydeck as pdk
import xarray as xr

SIZE_BY = {"chips": "chips installed", "mw": "power envelope (MW)"}
LINK_COLOUR_BY = {"latency": "one-way latency", "technology": "link technology"}

#: grid carbon (kgCO2e/MWh) at the clean and the dirty end of the colour scale
CARBON_RANGE = (0.0, 800.0)
_CLEAN, _DIRTY = (34, 150, 80), (150, 50, 30)
_LOW_LATENCY, _HIGH_LATENCY = (120, 190, 230), (80, 30, 140)
_REGION = (40, 110, 220)
#: a MapLibre style with only a background layer
PLAIN_STYLE = "data:application/json;charset=utf-8," + urllib.parse.quote(
    json.dumps(
        {
            "version": 8,
            "sources": {},
            "layers": [
                {"id": "background", "type": "background", "paint": {"background-color": "#eef2f5"}}
            ],
        }
    )
)
_PALETTE = [(230, 120, 20), (90, 60, 200), (0, 150, 150), (200, 40, 120), (120, 120, 0), (60, 60, 60)]


def _blend(low: tuple[int, ...], high: tuple[int, ...], t: float) -> list[int]:
    t = min(max(t, 0.0), 1.0)
    return [round(a + (b - a) * t) for a, b in zip(low, high, strict=True)]


def site_frame(inputs: xr.Dataset) -> pd.DataFrame:
    """One row per site: location, chips installed, power envelope, mean grid carbon."""
    chips = inputs["chips_installed"].sum("system") if "system" in inputs.dims else 0
    carbon = inputs["grid_carbon_kg_per_mwh"].mean("time")
    return pd.DataFrame(
        {
            "site": inputs["site"].values.astype(str),
            "lat": inputs["site_lat"].values,
            "lon": inputs["site_lon"].values,
            "chips": np.asarray(chips, dtype=float),
            "power_envelope_mw": inputs["power_envelope_mw"].values,
            "grid_carbon_kg_per_mwh": carbon.values,
            "pue": inputs["pue"].weighted(inputs["weight"] * inputs["dt_hours"]).mean("time").values,
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


def _graticule(step: int = 10) -> pd.DataFrame:
    """Meridians and parallels (straight lines in the Web Mercator view)."""
    paths = [[[lon, -80], [lon, 80]] for lon in range(-180, 181, step)]
    paths += [[[-180, lat], [180, lat]] for lat in range(-80, 81, step)]
    return pd.DataFrame({"path": paths})


def _view(lats: np.ndarray, lons: np.ndarray) -> pdk.ViewState:
    if not len(lats):
        return pdk.ViewState(latitude=20.0, longitude=0.0, zoom=1)
    span = max(
        float(np.ptp(lats)), float(np.ptp(lons)) * math.cos(math.radians(float(np.mean(lats)))), 1.0
    )
    zoom = max(1.0, min(8.0, math.log2(360.0 / span) - 0.6))
    return pdk.ViewState(
        latitude=float((lats.min() + lats.max()) / 2),
        longitude=float((lons.min() + lons.max()) / 2),
        zoom=zoom,
    )


# pydeck reads every string argument as an accessor expression; a quoted string
# (``"'pixels'"``) is the literal string.


def scenario_deck(
    inputs: xr.Dataset, size_by: str = "chips", link_colour_by: str = "latency"
) -> pdk.Deck:
    """Sites sized by ``size_by`` and coloured by grid carbon, regions, links and tooltips."""
    sites = site_frame(inputs)
    regions = region_frame(inputs)
    links = link_frame(inputs)

    measure = sites["chips"] if size_by == "chips" else sites["power_envelope_mw"]
    largest = float(measure.max()) if len(measure) and float(measure.max()) > 0 else 1.0
    sites["radius"] = 6 + 22 * np.sqrt(measure / largest)
    sites["label_offset"] = [[float(r) + 4.0, 0.0] for r in sites["radius"]]  # right of the dot
    low, high = CARBON_RANGE
    sites["color"] = [
        [*_blend(_CLEAN, _DIRTY, (c - low) / (high - low)), 220] for c in sites["grid_carbon_kg_per_mwh"]
    ]
    sites["tooltip"] = [
        f"site {r.site}\n{r.chips:,.0f} chips installed\n"
        f"power envelope {r.power_envelope_mw:,.0f} MW, PUE {r.pue:.2f}\n"
        f"grid carbon {r.grid_carbon_kg_per_mwh:,.0f} kgCO2e/MWh (mean)"
        for r in sites.itertuples()
    ]

    if len(regions):
        biggest = float(regions["demand_tokens_per_s"].max()) or 1.0
        regions["radius"] = 4 + 12 * np.sqrt(regions["demand_tokens_per_s"] / biggest)
        regions["tooltip"] = [
            f"user region {r.region}\nmean demand {r.demand_tokens_per_s / 1e6:,.1f} M token/s"
            for r in regions.itertuples()
        ]

    if len(links):
        where = sites.set_index("site")[["lon", "lat"]]
        links["source"] = [where.loc[a].tolist() for a in links["site_a"]]
        links["target"] = [where.loc[b].tolist() for b in links["site_b"]]
        if link_colour_by == "technology":
            palette = technology_colours(links["technology"].tolist())
            links["color"] = [palette[t] + [200] for t in links["technology"]]
        else:
            worst = float(links["latency_ms"].max()) or 1.0
            links["color"] = [
                [*_blend(_LOW_LATENCY, _HIGH_LATENCY, ms / worst), 200] for ms in links["latency_ms"]
            ]
        links["tooltip"] = [
            f"link {r.site_a} - {r.site_b}\n{r.technology}, {r.length_km:,.0f} km route\n"
            f"one-way latency {r.latency_ms:.2f} ms\ncapacity {r.capacity_gbit_s:,.0f} Gb/s"
            for r in links.itertuples()
        ]

    layers = [
        pdk.Layer(
            "PathLayer",
            data=_graticule(),
            get_path="path",
            get_color=[200, 200, 200, 120],
            get_width=1,
            width_units="'pixels'",
        ),
        pdk.Layer(
            "LineLayer",
            data=links,
            id="links",
            get_source_position="source",
            get_target_position="target",
            get_color="color",
            get_width=4,
            width_units="'pixels'",
            pickable=True,
        ),
        pdk.Layer(
            "ScatterplotLayer",
            data=regions,
            id="regions",
            get_position=["lon", "lat"],
            get_radius="radius",
            radius_units="'pixels'",
            get_fill_color=[*list(_REGION), 90],
            get_line_color=[*list(_REGION), 255],
            stroked=True,
            line_width_min_pixels=2,
            pickable=True,
        ),
        pdk.Layer(
            "ScatterplotLayer",
            data=sites,
            id="sites",
            get_position=["lon", "lat"],
            get_radius="radius",
            radius_units="'pixels'",
            get_fill_color="color",
            get_line_color=[30, 30, 30, 255],
            stroked=True,
            line_width_min_pixels=1,
            pickable=True,
        ),
        pdk.Layer(
            "TextLayer",
            data=sites,
            id="site-names",
            get_position=["lon", "lat"],
            get_text="site",
            get_size=13,
            get_color=[20, 20, 20, 255],
            get_pixel_offset="label_offset",
            get_text_anchor="'start'",
        ),
    ]
    lats = np.concatenate([sites["lat"].to_numpy(), regions["lat"].to_numpy(dtype=float)])
    lons = np.concatenate([sites["lon"].to_numpy(), regions["lon"].to_numpy(dtype=float)])
    return pdk.Deck(
        layers=layers,
        initial_view_state=_view(lats, lons),
        map_provider=None,
        map_style=PLAIN_STYLE,
        tooltip={"text": "{tooltip}"},
    )
