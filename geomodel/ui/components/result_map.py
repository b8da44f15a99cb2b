"""The result on the map: where work ran, how full each site was, what crossed the DCI
links, and which sites served which user regions; for all work or one job or service,
as a mean over the horizon or at one step.

Plain functions of the results and inputs Datasets (no streamlit). DCI traffic is
the traffic the placement requires (``link_required_gbit_s``, computed from the
chips for results saved before that variable existed).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.results.dci_traffic import link_capacity, required_by_job
from geomodel.ui.components import legend as key
from geomodel.ui.components.basemap import CREDIT
from geomodel.ui.components.charts import usable_chips
from geomodel.ui.components.deck import (
    HEIGHT,
    REGION,
    REGION_RADIUS,
    WIDE,
    MapDrawing,
    blend,
    deck,
    frame_on,
    label_layers,
    labelled,
    lines,
    link_layer,
    radius,
    region_layer,
    ring_and_disc,
)
from geomodel.ui.components.energy import colours as energy_colours
from geomodel.ui.components.energy import supply_series
from geomodel.ui.components.map_marks import (
    MOVED,
    PIE_RADIUS,
    mix_layer,
    moved_frame,
    moved_layers,
    pie_icon,
)
from geomodel.ui.format import format_number, human

ALL = ("all", "")  #: all work
_LOW_USE, _HIGH_USE = (255, 226, 140), (196, 48, 28)
_IDLE_LINK, _FULL_LINK, _OVER_LINK = (150, 150, 150), (40, 120, 220), (210, 30, 150)


def step_hours(inputs: xr.Dataset) -> xr.DataArray:
    """Hours each step stands for (its weight x its length), the mean's weights."""
    return inputs["weight"] * inputs["dt_hours"]


def at_time(data: xr.DataArray, inputs: xr.Dataset, when: int | None) -> xr.DataArray:
    """``data`` at step ``when``, or its mean over the horizon (weighted by step hours)."""
    if when is not None:
        return data.isel(time=when)
    hours = step_hours(inputs)
    return (data * hours).sum("time") / float(hours.sum())


def workload_chips(results: xr.Dataset, work: tuple[str, str]) -> xr.DataArray:
    """(site, time) chips working for ``work``: ALL, ("job", name) or ("service", name)."""
    kind, name = work
    training = results["training_chips"].sum("system")
    inference = results["inference_chips"].sum("system")
    if kind == "job":
        return training.sel(job=name)
    if kind == "service":
        return inference.sel(service=name)
    return training.sum("job") + inference.sum("service")


def _breakdown(chips: xr.DataArray, dim: str, label: str) -> dict[str, list[str]]:
    """site -> '1,234 chips: job pretrain' lines, largest first."""
    found: dict[str, list[str]] = {}
    for site in chips["site"].values:
        here = chips.sel(site=site)
        parts = sorted(((float(here.sel({dim: n})), str(n)) for n in here[dim].values), reverse=True)
        found[str(site)] = [f"{v:,.0f} chips: {label} {n}" for v, n in parts if v >= 0.5]
    return found


def site_frame(results: xr.Dataset, inputs: xr.Dataset, work, when: int | None) -> pd.DataFrame:
    """One row per site: usable and working chips, utilisation, facility power, who ran."""
    usable = (usable_chips(results, inputs) * inputs["availability"]).values
    working = at_time(workload_chips(results, work), inputs, when).values
    busy = at_time(workload_chips(results, ALL), inputs, when).values
    power = at_time(results["facility_power_mw"], inputs, when).values
    jobs = _breakdown(at_time(results["training_chips"].sum("system"), inputs, when), "job", "job")
    services = _breakdown(
        at_time(results["inference_chips"].sum("system"), inputs, when), "service", "service"
    )
    sites = [str(s) for s in inputs["site"].values]
    frame = pd.DataFrame(
        {
            "site": sites,
            "lon": inputs["site_lon"].values,
            "lat": inputs["site_lat"].values,
            "usable": usable,
            "working": working,
            "utilisation": np.where(usable > 0, busy / np.where(usable > 0, usable, 1.0), 0.0),
            "facility_mw": power,
        }
    )
    frame["tooltip"] = [
        "\n".join(
            [
                f"site {r.site}",
                f"{r.working:,.0f} of {r.usable:,.0f} usable chips working"
                + ("" if work == ALL else f" for {work[0]} {work[1]}"),
                f"all work: {r.utilisation * 100:.0f} % of usable chips, "
                f"facility {r.facility_mw:,.1f} MW",
                *(jobs[r.site] + services[r.site] or ["no work here"]),
            ]
        )
        for r in frame.itertuples()
    ]
    return frame


def link_frame(results: xr.Dataset, inputs: xr.Dataset, work, when: int | None) -> pd.DataFrame:
    """One row per DCI link: the traffic the placement needs (of ``work``'s jobs), capacity."""
    columns = ["link", "site_a", "site_b", "traffic", "capacity", "jobs"]
    if not inputs.sizes.get("link"):
        return pd.DataFrame(columns=columns)
    by_job = required_by_job(results, inputs)
    if work[0] == "job":
        by_job = by_job.sel(job=[work[1]])
    elif work[0] == "service":
        by_job = by_job.isel(job=[])
    mean = at_time(by_job, inputs, when)  # (job, link)
    jobs = [
        ", ".join(str(j) for j in mean["job"].values if float(mean.sel(job=j, link=link)) > 0)
        for link in mean["link"].values
    ]
    return pd.DataFrame(
        {
            "link": [str(x) for x in inputs["link"].values],
            "site_a": [str(x) for x in inputs["link_site_a"].values],
            "site_b": [str(x) for x in inputs["link_site_b"].values],
            "traffic": mean.sum("job").values,
            "capacity": link_capacity(results, inputs).values,
            "jobs": jobs,
        }
    )


def serving_frame(results: xr.Dataset, inputs: xr.Dataset, work, when: int | None) -> pd.DataFrame:
    """One row per (region, site) that served demand of ``work``'s services: tokens/s, the
    share of the region's served demand, round trip."""
    columns = ["region", "site", "tokens_per_s", "share", "latency_ms"]
    if not results.sizes.get("service") or not results.sizes.get("region") or work[0] == "job":
        return pd.DataFrame(columns=columns)
    served = results["served_tokens_per_s"]
    if work[0] == "service":
        served = served.sel(service=[work[1]])
    flows = at_time(served.sum("service"), inputs, when)  # (region, site)
    total = flows.sum("site")
    rows = []
    for region in flows["region"].values:
        for site in flows["site"].values:
            value = float(flows.sel(region=region, site=site))
            if value > 0 and float(total.sel(region=region)) > 0:
                latency = (
                    results["latency_ms"].sel(region=region, site=site)
                    if "latency_ms" in results
                    else np.nan
                )
                rows.append(
                    {
                        "region": str(region),
                        "site": str(site),
                        "tokens_per_s": value,
                        "share": value / float(total.sel(region=region)),
                        "latency_ms": float(latency),
                    }
                )
    return pd.DataFrame(rows, columns=columns)


def region_frame(results: xr.Dataset, inputs: xr.Dataset, work, when: int | None) -> pd.DataFrame:
    """One row per user region: demand and unserved demand of ``work``'s services."""
    columns = ["region", "lon", "lat", "demand", "unserved"]
    if not inputs.sizes.get("region"):
        return pd.DataFrame(columns=columns)
    demand = inputs["demand_tokens_per_s"]
    unserved = results["unserved_tokens_per_s"]
    if work[0] == "service":
        demand, unserved = demand.sel(service=[work[1]]), unserved.sel(service=[work[1]])
    return pd.DataFrame(
        {
            "region": [str(r) for r in inputs["region"].values],
            "lon": inputs["region_lon"].values,
            "lat": inputs["region_lat"].values,
            "demand": at_time(demand.sum("service"), inputs, when).values,
            "unserved": at_time(unserved.sum("service"), inputs, when).values,
        }
    )


#: what the sites show: chips at work, or the technology mix of their supply
SITES_SHOW = {"use": "chips in use", "mix": "technology mix"}


def mix_parts(results: xr.Dataset, inputs: xr.Dataset, when: int | None) -> dict[str, list]:
    """site -> [(source, share of the site's supply)], over the horizon (energy) or at one
    step (power): grid, each source, battery discharge, extensions."""
    found: dict[str, list] = {}
    hours = step_hours(inputs).values
    for site in results["site"].values:
        series = {k: np.maximum(v, 0.0) for k, v in supply_series(results, str(site)).items()}
        amounts = {
            k: float(v[when]) if when is not None else float((v * hours).sum())
            for k, v in series.items()
        }
        total = sum(amounts.values())
        found[str(site)] = [(k, v / total) for k, v in amounts.items() if total > 0 and v > 0]
    return found


def result_deck(
    results: xr.Dataset,
    inputs: xr.Dataset,
    work: tuple[str, str] = ALL,
    when: int | None = None,
    width: float = WIDE,
    height: float = HEIGHT,
    framed: frozenset[str] | None = None,
    show: str = "use",
) -> MapDrawing:
    """Sites (ring: usable chips; disc: chips working, coloured by how full the site is; or
    a pie of the site's technology mix), DCI links (width and colour by required traffic),
    serving lines, work moved from its data's origin (arrows), regions, legend; the view
    framed on ``framed`` (site and region names; None: all)."""
    sites = frame_on(site_frame(results, inputs, work, when), "site", framed)
    links = link_frame(results, inputs, work, when)
    serving = serving_frame(results, inputs, work, when)
    regions = frame_on(region_frame(results, inputs, work, when), "region", framed)

    most = float(sites["usable"].max()) if len(sites) else 0.0
    sites["radius"] = [radius(v, most) for v in sites["usable"]]
    sites["disc"] = [radius(v, most) if v >= 0.5 else 0.0 for v in sites["working"]]
    sites["color"] = [[*blend(_LOW_USE, _HIGH_USE, u), 235] for u in sites["utilisation"]]
    where = sites.set_index("site")[["lon", "lat"]]

    busiest = float(links["traffic"].max()) if len(links) else 0.0
    if len(links):
        links["source"] = [where.loc[a].tolist() for a in links["site_a"]]
        links["target"] = [where.loc[b].tolist() for b in links["site_b"]]
        use = links["traffic"] / links["capacity"].where(links["capacity"] > 0)
        links["width"] = [1.5 + 8.0 * t / busiest if busiest > 0 else 1.5 for t in links["traffic"]]
        links["color"] = [_link_colour(u) for u in use.fillna(0.0)]
        links["tooltip"] = [
            f"link {r.site_a} - {r.site_b}\nrequired {r.traffic:,.0f} of {r.capacity:,.0f} Gb/s "
            f"({(r.traffic / r.capacity * 100) if r.capacity else 0:.0f} %)\n"
            + (f"jobs: {r.jobs}" if r.jobs else "no job spans both ends")
            for r in links.itertuples()
        ]
    biggest = float(regions["demand"].max()) if len(regions) else 0.0
    regions["radius"] = [radius(d, biggest, REGION_RADIUS) for d in regions["demand"]]
    regions["tooltip"] = [
        f"user region {r.region}\ndemand {r.demand / 1e6:,.2f} M token/s"
        + (f", unserved {r.unserved / r.demand * 100:.1f} %" if r.demand > 0 else "")
        for r in regions.itertuples()
    ]
    if len(serving):
        here = regions.set_index("region")[["lon", "lat"]]
        serving["source"] = [here.loc[r].tolist() for r in serving["region"]]
        serving["target"] = [where.loc[s].tolist() for s in serving["site"]]
        serving["width"] = [1.0 + 5.0 * s for s in serving["share"]]
        serving["tooltip"] = [
            f"{r.region} served at {r.site}\n{r.tokens_per_s / 1e6:,.2f} M token/s "
            f"({r.share * 100:.0f} % of the region's served demand)\nround trip {r.latency_ms:.1f} ms"
            for r in serving.itertuples()
        ]

    moved = (
        moved_frame(results, inputs) if work[0] != "service" else moved_frame(results, inputs).iloc[:0]
    )
    if work[0] == "job":
        moved = moved.iloc[:0]  # moved work is shown for all work: classes share their origins
    marks, site_parts = _site_marks(results, inputs, sites, when, show, most)
    view, labels, placements, colours = labelled(sites, regions, width, height)
    layers = [
        lines(serving, "serving", [*REGION, 150], "width"),
        link_layer(links, width="width"),
        *moved_layers(moved, where, dict(zip(sites["site"], sites["radius"], strict=True))),
        region_layer(regions),
        *marks,
        *label_layers(labels, placements, colours),
    ]
    parts = [
        *site_parts,
        key.lines(
            "DCI links, width by required traffic"
            + (f" (widest {format_number(busiest)} Gb/s)" if busiest > 0 else "")
            + ":",
            [
                (_IDLE_LINK, 2, "no traffic"),
                (_FULL_LINK, 5, "up to capacity"),
                (_OVER_LINK, 5, "over capacity"),
            ],
        ),
        key.lines(
            "User regions (blue rings and names):",
            [((*REGION, 150), 4, "served at the site it joins, width by share")],
        ),
    ]
    if not moved.empty:
        widest = format_number(float(moved["moved_gb"].max()))
        parts.append(
            key.lines(
                "Training work moved from its data's origin (arrows, the horizon's):",
                [((*MOVED, 210), 5, f"width by data moved (widest {widest} GB)")],
            )
        )
    return MapDrawing(deck(layers, view), key.legend(parts, CREDIT), view, labels, placements)


def _site_marks(results, inputs, sites: pd.DataFrame, when, show: str, most: float) -> tuple[list, list]:
    """The sites' layers and legend parts: ring and disc of chips at work, or a pie of the
    technology mix as large as the site's facility power."""
    if show != "mix":
        legend = [
            key.gradient(
                "Disc colour: chips in use (all work)", [_LOW_USE, _HIGH_USE], "0 %", "100 % of usable"
            ),
            key.circles(
                "Ring: usable chips; disc: chips working, e.g.",
                [(radius(v, most), f"{format_number(v)} chips") for v in (most, most / 4, most / 20)]
                if most > 0
                else [],
                (*_HIGH_USE, 200),
            ),
        ]
        return ring_and_disc(sites, "installed", "working"), legend
    palette = energy_colours(results)
    mixes = mix_parts(results, inputs, when)
    biggest = float(sites["facility_mw"].max()) or 1.0
    sites["radius"] = [radius(v, biggest, PIE_RADIUS) for v in sites["facility_mw"]]
    sites["pie_size"] = [math.ceil(2 * r + 2) for r in sites["radius"]]
    sites["icon"] = [
        pie_icon([(palette.get(k, "#999999"), v) for k, v in mixes[s]] or [("#dddddd", 1.0)], r)
        for s, r in zip(sites["site"], sites["radius"], strict=True)
    ]
    sites["tooltip"] = [
        f"site {human(s)}: facility {format_number(mw)} MW\n"
        + ("\n".join(f"{human(k)} {v * 100:.0f} %" for k, v in mixes[s]) or "no supply")
        for s, mw in zip(sites["site"], sites["facility_mw"], strict=True)
    ]
    used = sorted({k for parts in mixes.values() for k, _ in parts})
    legend = [
        key.swatches(
            "Pie: where each site's power came from",
            [(_rgb(palette.get(k, "#999999")), human(k)) for k in used],
        ),
        key.circles(
            "Pie size: facility power, e.g.",
            [(radius(v, biggest, PIE_RADIUS), f"{format_number(v)} MW") for v in (biggest, biggest / 4)],
            (200, 200, 200, 200),
        ),
    ]
    return [mix_layer(sites)], legend


def _rgb(hex_colour: str) -> tuple[int, int, int, int]:
    value = hex_colour.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16), 255)


def _link_colour(utilisation: float) -> list[int]:
    if utilisation <= 0:
        return [*_IDLE_LINK, 160]
    if utilisation > 1.0 + 1e-9:
        return [*_OVER_LINK, 230]
    return [*blend((140, 190, 240), _FULL_LINK, utilisation), 230]
