"""Small scenarios for the app's views, each with an optimum derived by hand, written
into a folder that the app reads as its bundled scenarios (``GEOMODEL_APP_SCENARIOS``).

Every site is powered by an on-site firm source (the built-in ``nuclear``, flat at 0.9)
with the price written here and no grid, as in tests/model/scenario_builder.py. H100
figures come from the catalogue (an input of the model, not an output):
idle 0.3925 kW per chip; working, 0.969 kW at training load (energy; a working extra of
0.5765 kW) and the 1.275 kW nameplate (what the envelope counts; an extra of 0.8825 kW);
PUE 1.2.

* ``trace-small.yaml``: two sites, cheap (30 USD/MWh) and dear (130 USD/MWh), and a job
  table of four jobs, each 40 GPU-hours on 8 chips (5 h) that must run at its arrival
  (slack 0): ``far`` has its 100 GB of data at the dear site; ``home``, ``home2`` and
  ``home3`` have theirs at the cheap one and are interchangeable (one class,
  ``home+2``). Moving ``far`` saves 40 x 0.5765 kW x 1.2 = 27.672 kWh x 100 USD/MWh =
  2.7672 USD of energy and costs 100 GB x 0.02 USD/GB = 2 USD of transfer: it moves. A
  local-only run keeps it at the dear site: 2.7672 USD more energy cost, 2 USD less
  transfer, 0.7672 USD more objective.
* ``envelope-small.yaml``: the same two sites for 4 h, the cheap one within 0.6 MW, and
  30 jobs of 80 GPU-hours on 80 chips (1 h each, any time, anywhere). The cheap site's
  envelope binds every hour; one more MW there admits 1 / (0.8825 x 1.2) MW of working
  chips at nameplate, whose energy at training load is 0.5765 / 0.8825 MWh an hour moved
  from the dear site: 100 USD/MWh x 4 h x 0.5765 / 0.8825 = 261.30 USD per MW (its
  shadow price).
* ``typical-small.yaml``: the quickstart over 4 days as 2 typical days of 4 segments.
* ``atlantic-small.yaml``: four sites on two continents (its map is two panels), jobs
  whose data lies at the dearer site of each continent and moves to the cheaper one
  (Frankfurt 130 to Lulea 30, Ashburn 100 to Dallas 80 USD/MWh: 2.77 and 0.55 USD saved
  for 0.2 USD of transfer each).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from quickstart_copy import copy_quickstart

REPO = Path(__file__).resolve().parents[2]
START = "2025-01-01T00:00:00+00:00"
H100 = "hgx_h100_8"
PUE = 1.2
CHEAP, DEAR = 30.0, 130.0  #: USD/MWh
TRANSFER_USD_PER_GB = 0.02
#: the Azure trace the quickstart reads its chat lengths from, beside it


def site(
    price: float, lon: float, envelope_mw: float = 50.0, systems: int = 10, lat: float = 40.0
) -> dict:
    return {
        "lat": lat,
        "lon": lon,
        "power_envelope": f"{envelope_mw} MW",
        "pue": PUE,
        "availability": 1.0,
        "systems": {H100: systems},
        "power_sources": {
            "nuclear": {"capacity": "100 MW", "price": f"{price} USD/MWh", "carbon": "100 kgCO2/MWh"}
        },
        "jurisdiction": "XX",
    }


def _scenario(name: str, sites: dict, hours: int, **extra) -> dict:
    return {
        "name": name,
        "time": {"start": START, "hours": hours, "resolution": "1 h"},
        "sites": sites,
        "objective": {"carbon_price": 0, "latency_weight": 0, "unserved_penalty": 1000},
        "solver": {"threads": 1, "time_limit": "60 s", "mip_gap": 0.0},
        **extra,
    }


TRACE_JOBS = (
    "name,gpu_hours,chips,origin,data_gb\n"
    "far,40,8,dear,100\n"
    "home,40,8,cheap,100\n"
    "home2,40,8,cheap,100\n"
    "home3,40,8,cheap,100\n"
)


def _trace(folder: Path, name: str, sites: dict, jobs: str) -> None:
    """An 8-hour scenario of ``sites`` whose jobs (a CSV) run at their arrival (slack 0)."""
    (folder / f"{name}-jobs.csv").write_text(jobs)
    table = {"file": f"{name}-jobs.csv", "system": H100, "slack": "0 h"}
    data = _scenario(
        name,
        sites,
        8,
        job_tables={"trace": table},
        data_movement={"price": f"{TRANSFER_USD_PER_GB} USD/GB"},
    )
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def write(folder: Path) -> Path:
    """The small scenarios (and the bundled quickstart they build on, with its trace) in
    ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    copy_quickstart(folder)
    two = {"cheap": site(CHEAP, -100.0), "dear": site(DEAR, -99.0)}
    _trace(folder, "trace-small", two, TRACE_JOBS)
    jobs = "name,gpu_hours,chips\n" + "".join(f"j{k:02d},80,80\n" for k in range(1, 31))
    (folder / "envelope-jobs.csv").write_text(jobs)
    tight = {
        "cheap": site(CHEAP, -100.0, envelope_mw=0.6, systems=100),
        "dear": site(DEAR, -99.0, systems=100),
    }
    envelope = _scenario(
        "envelope-small", tight, 4, job_tables={"flex": {"file": "envelope-jobs.csv", "system": H100}}
    )
    (folder / "envelope-small.yaml").write_text(yaml.safe_dump(envelope, sort_keys=False))
    atlantic = {
        "dallas": site(80.0, -96.8, lat=32.8),
        "ashburn": site(100.0, -77.5, lat=39.0),
        "frankfurt": site(DEAR, 8.7, lat=50.1),
        "lulea": site(CHEAP, 22.2, lat=65.6),
    }
    rows = "rhine,40,8,frankfurt,10\nmain,40,8,frankfurt,10\npotomac,40,8,ashburn,10\n"
    _trace(folder, "atlantic-small", atlantic, "name,gpu_hours,chips,origin,data_gb\n" + rows)
    quick = (REPO / "scenarios" / "quickstart.yaml").read_text()
    quick = quick.replace("name: quickstart", "name: typical-small").replace(
        "  hours: 48\n", "  hours: 96\n  aggregation: {typical_days: 2, segments: 4}\n"
    )
    (folder / "typical-small.yaml").write_text(quick)
    return folder
