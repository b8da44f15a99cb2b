"""A plan on the map: what was built at each site and on each DCI route.

Each site is a ring as large as its capacity after building (installed plus built)
and a disc as large as what was built, both with area growing with the amount, in
one of three measures: chips, facility MW, or MW of power sources and batteries.
The disc is orange at a site that grew and purple at a new site that opened; a site
where nothing was built is its ring alone (a candidate that did not open, the smallest
ring). Routes where fibre pairs were
lit are teal and as wide as the pairs built. User regions are drawn as on the other
maps, since serving them within the SLA is often why a site is where it is.

Plain functions of the results and inputs Datasets of a planning run (no streamlit);
the build itself comes from :func:`geomodel.results.planning.build_decisions`, as the
build table of ``geomodel report`` does.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.results.planning import build_decisions
from geomodel.ui.components import legend as key
from geomodel.ui.components.basemap import CREDIT
from geomodel.ui.components.deck import (
    HEIGHT,
    RING_FILL,
    WIDE,
    MapDrawing,
    deck,
    frame_on,
    label_layers,
    labelled,
    lines,
    radius,
    region_frame,
    region_layer,
    region_legend,
    ring_and_disc,
    size_legend,
    sized_regions,
)
from geomodel.ui.format import format_number

#: what sites are sized by: key -> (name in the legend, units, name in the picker)
SIZE_BY = {
    "chips": ("chips", "chips", "chips"),
    "facility_mw": ("facility power", "MW", "facility MW"),
    "power_mw": ("power sources and batteries", "MW", "MW of power sources and batteries"),
}
GROWN, NEW, CLOSED = (230, 120, 20), (120, 60, 190), (160, 160, 160)
_BUILT_LINK, _LIT_LINK, _CANDIDATE_LINK = (0, 150, 150), (150, 150, 150), (185, 185, 185)


def build_site_frame(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """One row per site: location, each measure installed and built, new or not, and
    what was built there (hover text)."""
    sources = inputs.sizes.get("source", 0)
    power = inputs["source_capacity_mw"].sum("source").values if sources else 0.0
    built_power = results["built_source_mw"].sum("source").values if sources else 0.0
    frame = pd.DataFrame(
        {
            "site": [str(s) for s in inputs["site"].values],
            "lon": inputs["site_lon"].values,
            "lat": inputs["site_lat"].values,
            "new": inputs["site_new"].values.astype(bool),
            "opened": results["site_opened"].values,
            "chips_installed": inputs["chips_installed"].sum("system").values,
            "chips_built": results["built_chips"].sum("system").values,
            "facility_mw_installed": inputs["power_envelope_mw"].values,
            "facility_mw_built": results["built_envelope_mw"].values,
            "power_mw_installed": np.zeros(inputs.sizes["site"]) + power,
            "power_mw_built": built_power + results["built_battery_mw"].values,
        }
    )
    built_here: dict[str, list[str]] = defaultdict(list)
    for row in build_decisions(results, inputs):
        if row.where in set(frame["site"]):
            amount = f"{format_number(row.amount)} {row.units}, " if row.units != "1" else ""
            built_here[row.where].append(
                f"{row.what}: {amount}{format_number(row.annual_cost_usd_per_year)} USD/year"
            )
    frame["tooltip"] = [_site_text(r, built_here[r.site]) for r in frame.itertuples()]
    return frame


def _site_text(row, built: list[str]) -> str:
    """Hover text of a site: new or not, chips and facility MW before and built, each build."""
    state = ""
    if row.new:
        state = " (new, opened)" if row.opened > 0.5 else " (candidate, not opened)"
    chips = f"{row.chips_installed:,.0f} installed + {row.chips_built:,.0f} built"
    facility = (
        f"{format_number(row.facility_mw_installed)} MW + "
        f"{format_number(row.facility_mw_built)} MW built"
    )
    head = [f"site {row.site}{state}", f"chips {chips}", f"facility {facility}"]
    return "\n".join([*head, *(built or ["nothing built"])])


def build_link_frame(results: xr.Dataset, inputs: xr.Dataset) -> pd.DataFrame:
    """One row per DCI link: pairs lit before, built and allowed, and their yearly cost."""
    columns = ["link", "site_a", "site_b", "lit", "built", "most", "annual_usd"]
    if not inputs.sizes.get("link"):
        return pd.DataFrame(columns=columns)
    per_pair = inputs["link_capacity_gbit_s_per_pair"].values
    lit = np.round(inputs["link_capacity_gbit_s"].values / np.where(per_pair > 0, per_pair, 1.0))
    built = results["built_fibre_pairs"].values
    yearly = inputs["link_pair_annuity_usd_per_year"] + inputs["link_pair_fixed_om_usd_per_year"]
    return pd.DataFrame(
        {
            "link": [str(x) for x in inputs["link"].values],
            "site_a": [str(x) for x in inputs["link_site_a"].values],
            "site_b": [str(x) for x in inputs["link_site_b"].values],
            "lit": lit,
            "built": built,
            "most": inputs["build_max_fibre_pairs"].values,
            "annual_usd": built * yearly.values,
        },
        columns=columns,
    )


def _amount(value: float, units: str) -> str:
    """Chips, and MW from 10, as whole numbers; smaller MW as :func:`format_number` shows them."""
    return f"{value:,.0f}" if units == "chips" or value >= 10 else format_number(value)


def largest_after_building(frame: pd.DataFrame, size_by: str) -> float:
    """The largest capacity after building of a measure over the sites (the map's scale)."""
    after = frame[f"{size_by}_installed"] + frame[f"{size_by}_built"]
    return float(after.max()) if len(after) else 0.0


def build_deck(
    results: xr.Dataset,
    inputs: xr.Dataset,
    size_by: str = "chips",
    width: float = WIDE,
    height: float = HEIGHT,
    largest: float | None = None,
    framed: frozenset[str] | None = None,
) -> MapDrawing:
    """Sites sized by ``size_by`` (ring: after building; disc: built), routes by pairs
    built, user regions, labels and legend. ``largest`` sets the scale (two plans side by
    side share one); by default the largest site after building. The view is framed on
    ``framed`` (site and region names; None: all)."""
    what, units, _ = SIZE_BY[size_by]
    sites = frame_on(build_site_frame(results, inputs), "site", framed)
    after = sites[f"{size_by}_installed"] + sites[f"{size_by}_built"]
    built = sites[f"{size_by}_built"]
    most = largest if largest is not None else largest_after_building(sites, size_by)
    sites["radius"] = [radius(v, most) for v in after]
    sites["disc"] = [radius(v, most) if v > 1e-6 * max(most, 1.0) else 0.0 for v in built]
    sites["color"] = [
        [*(NEW if r.new else GROWN), 230] if r.disc > 0 else [*CLOSED, 200] for r in sites.itertuples()
    ]
    regions = frame_on(region_frame(inputs), "region", framed)
    biggest = sized_regions(regions)
    links = build_link_frame(results, inputs)
    if len(links):
        where = sites.set_index("site")[["lon", "lat"]]
        links["source"] = [where.loc[a].tolist() for a in links["site_a"]]
        links["target"] = [where.loc[b].tolist() for b in links["site_b"]]
        links["width"] = [
            2.0 + 2.0 * b if b > 1e-9 else 2.0 if lit else 1.0
            for b, lit in zip(links["built"], links["lit"], strict=True)
        ]
        links["color"] = [
            [*_BUILT_LINK, 230] if b > 1e-9 else [*_LIT_LINK, 170] if lit else [*_CANDIDATE_LINK, 120]
            for b, lit in zip(links["built"], links["lit"], strict=True)
        ]
        links["tooltip"] = [
            f"link {r.site_a} - {r.site_b}\n{format_number(r.lit)} fibre pairs lit before, "
            f"{format_number(r.built)} built"
            + (f" (at most {format_number(r.most)} in all)" if r.most > r.lit else "")
            + (f"\n{format_number(r.annual_usd)} USD/year" if r.built > 1e-9 else "")
            for r in links.itertuples()
        ]
    view, labels, placements, colours = labelled(sites, regions, width, height)
    layers = [
        lines(links, "links", "color", "width"),
        region_layer(regions),
        *ring_and_disc(sites, "after", "built"),
        *label_layers(labels, placements, colours),
    ]
    parts = [
        size_legend(
            f"Ring: {what} after building; disc: built, e.g.",
            most,
            units,
            fill=(*GROWN, 200),
            shown_as=lambda v: _amount(v, units),
            figures=2,
        ),
        key.swatches(
            "Built at:",
            [
                ((*GROWN, 230), "a site that grew"),
                ((*NEW, 230), "a new site"),
                (RING_FILL, "nothing built (a ring alone)"),
            ],
        ),
        key.lines(
            "DCI fibre pairs:",
            [
                ((*_BUILT_LINK, 230), 5, "built (width by pairs)"),
                ((*_LIT_LINK, 170), 2, "lit before"),
                ((*_CANDIDATE_LINK, 120), 1, "may be built, none built"),
            ],
        ),
        region_legend(biggest),
    ]
    return MapDrawing(
        deck(layers, view), key.legend([p for p in parts if p], CREDIT), view, labels, placements
    )
