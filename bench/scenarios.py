"""Synthetic geomodel scenarios of a chosen size, for the benchmarks.

Sites sit on a grid of real grid regions (each site uses the grid source of
the region it is placed in), regions of users around them, and a mix of
training jobs and inference services. Sizes are set by the number of sites,
workloads and hours; docs/performance.md lists the parameters of each size.
"""

from __future__ import annotations

import math
from typing import Any

#: (grid source, lat, lon) of the places sites are put, cycling through them.
PLACES = [
    ("grid_us_va_pjm", 38.9, -77.5),
    ("grid_us_tx_ercot", 32.5, -99.8),
    ("grid_us_ca_caiso", 37.4, -121.9),
    ("grid_us_or_bpa", 45.6, -121.2),
    ("grid_us_ia_miso", 41.2, -95.9),
    ("grid_us_tn_tva", 35.1, -90.0),
    ("grid_us_oh_pjm", 40.1, -82.8),
    ("grid_us_la_miso", 32.45, -91.65),
    ("grid_ie", 53.35, -6.26),
    ("grid_nl", 52.37, 4.9),
    ("grid_de", 50.11, 8.68),
    ("grid_fr", 48.85, 2.35),
    ("grid_no", 68.4, 17.4),
    ("grid_se", 65.6, 22.15),
    ("grid_fi", 60.57, 27.2),
    ("grid_is", 64.0, -22.6),
    ("grid_sg", 1.35, 103.82),
    ("grid_jp", 35.68, 139.69),
    ("grid_cn_nmg", 40.8, 111.7),
    ("grid_cn_gz", 26.4, 106.6),
]
#: systems installed at every site
SYSTEM_COUNTS = {"hgx_h100_8": 4000, "gb200_nvl72": 400}
#: dense BF16 FLOP/s of one system (catalogue: 8 x 0.989 PFLOPS, 72 x 2.5 PFLOPS)
CHIPS_PER_SYSTEM = {"hgx_h100_8": 8, "gb200_nvl72": 72}
FLOPS_PER_SYSTEM = {"hgx_h100_8": 8 * 0.989e15, "gb200_nvl72": 72 * 2.5e15}


def synthetic_scenario(
    sites: int,
    workloads: int,
    hours: int,
    typical_days: int | None = None,
    *,
    segments: int | None = None,
    regions: int | None = None,
    sla_ms: float = 25.0,
    training_load: float = 0.1,
    latency_weight: float = 0.0,
    start: str = "2025-01-01T00:00:00+00:00",
) -> dict[str, Any]:
    """A scenario dict of the given size (see docs/performance.md for the sizes used).

    * ``sites``: sites, placed on the ``PLACES`` (real grid regions) in turn, each
      with 4,000 HGX H100 (32,000 chips) and 400 GB200 NVL72 (28,800 chips), a
      150 MW envelope, PUE 1.2, 60 MW solar and 60 MW onshore wind, and the grid.
    * ``workloads``: half inference services (rounded down, at least one), the rest
      training jobs. Every job may use every site and both systems (TP 8, at most 2.5 times
      its even share of the fleet's chips at any hour, at least 1,000); every
      service has demand in every region (daily shape, 2 Mtoken/s summed over
      services per region).
    * ``training_load``: the jobs' work together equals this fraction of the whole
      fleet's dense BF16 compute over the horizon at MFU 0.4 (goodput takes a little
      more), so training competes for cheap, clean hours and renewable power.
    * ``hours``: hourly steps from ``start``; ``typical_days`` adds
      ``time.aggregation.typical_days`` (and ``segments``, steps per typical day).
    * ``regions``: user regions (default: one per site), each 1 degree north-east of a
      place in ``PLACES``.
    * ``sla_ms``: every service's round-trip latency limit (25 ms: a region reaches
      the sites of its own metro area and continent-scale neighbours, about 4-6 sites).
    * ``latency_weight``: USD per ms per Mtoken. At 0 (the default) latency is not
      priced, so which site within the SLA serves a region is left to ties.

    Columns of the model per hour, roughly: ``jobs x sites x 2`` train, ``jobs x
    sites`` span, ``jobs x usable links`` flow, ``services x regions x reachable
    sites`` serve, ``services x regions`` unserved, ``services x serving sites x 2``
    infer, and ``sites x 3`` grid and generators.
    """
    regions = sites if regions is None else regions
    services = max(1, workloads // 2)
    jobs = max(1, workloads - services)
    site_specs = {}
    for index in range(sites):
        grid, lat, lon = PLACES[index % len(PLACES)]
        offset = 0.3 * (index // len(PLACES))
        site_specs[f"site{index:02d}"] = {
            "lat": lat + offset,
            "lon": lon + offset,
            "grid": grid,
            "power_envelope": "150 MW",
            "pue": 1.2,
            "jurisdiction": grid.split("_")[1].upper(),
            "systems": dict(SYSTEM_COUNTS),
            "power_sources": {"solar_pv": {"capacity": "60 MW"}, "wind_onshore": {"capacity": "60 MW"}},
        }
    region_specs = {}
    for index in range(regions):
        _, lat, lon = PLACES[index % len(PLACES)]
        offset = 0.3 * (index // len(PLACES))
        region_specs[f"region{index:02d}"] = {
            "lat": lat + 1.0 + offset,
            "lon": lon + 1.0 + offset,
            "demand": {
                f"svc{s:02d}": {"daily_shape": _shape(s), "mean": f"{2e6 / services:.6g} token/s"}
                for s in range(services)
            },
        }
    fleet_flops = sites * sum(count * FLOPS_PER_SYSTEM[name] for name, count in SYSTEM_COUNTS.items())
    fleet_chips = sites * sum(count * CHIPS_PER_SYSTEM[name] for name, count in SYSTEM_COUNTS.items())
    # room to run 2.5x a job's even share of the fleet at any hour
    max_chips = max(1000, 1000 * math.ceil(2.5 * training_load * fleet_chips / jobs / 1000))
    training = {
        f"job{j:02d}": {
            "compute": f"{training_load * fleet_flops * 0.4 * 3600 * hours / jobs:.6g} FLOP",
            "gradient_size": "140 GB",
            "tp": 8,
            "mfu": 0.4,
            "max_chips": max_chips,
        }
        for j in range(jobs)
    }
    inference = {
        f"svc{s:02d}": {"active_params": 37e9, "sla": f"{sla_ms:g} ms", "efficiency": 0.3}
        for s in range(services)
    }
    time: dict[str, Any] = {"start": start, "hours": hours}
    if typical_days:
        time["aggregation"] = {"typical_days": typical_days}
        if segments:
            time["aggregation"]["segments"] = segments
    return {
        "name": f"synthetic-{sites}s-{workloads}w-{regions}r-{hours}h",
        "time": time,
        "sites": site_specs,
        "regions": region_specs,
        "training": training,
        "inference": inference,
        "links": {"mesh": {"technology": "smf_800zr", "max_length": "1500 km"}},
        "objective": {
            "carbon_price": "50 USD/tCO2",
            "latency_weight": f"{latency_weight:g} USD/ms/Mtoken",
        },
        # the LP every benchmark here measures: under the default ``exact`` a job that may
        # span sites uses them as a binary choice (docs/model.md (6)), a MIP solved in
        # several HiGHS runs, which the solve-path timings cannot attribute
        "solver": {"threads": 1, "time_limit": "3600 s", "participation": "relaxed"},
    }


def _shape(seed: int) -> list[float]:
    return [round(1.0 + 0.4 * math.sin(2 * math.pi * (h - 9 - seed % 4) / 24), 3) for h in range(24)]
