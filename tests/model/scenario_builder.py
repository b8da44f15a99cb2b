"""Tiny scenarios whose optimum can be derived by hand (docs/model.md).

Every builder returns a plain dict in the scenario file format
(geomodel/scenario/schema/) that a test tweaks and then writes to YAML in
its ``tmp_path``. Sites get their power from on-site firm sources with explicit
``price`` and ``carbon`` and flat capacity factors (the built-in ``nuclear``
source is flat at 0.9, ``gas_ccgt`` at 0.95), and no grid, so every price and
intensity the model sees is a number written in the test. The objective keeps
the latency weight at 0 and the unserved penalty high unless a test says
otherwise; HiGHS runs on one thread.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from geomodel.api import solve
from geomodel.catalog import Catalog
from geomodel.results.result import Result
from geomodel.scenario import Scenario, load_scenario

H100 = "hgx_h100_8"
START = "2025-01-01T00:00:00+00:00"
#: Flat capacity factors of the built-in firm sources (tests/builtins check them).
NUCLEAR_CF = 0.9
GAS_CF = 0.95


@dataclass(frozen=True)
class Server:
    """The catalogue figures of one hardware system that a hand derivation needs."""

    chips_per_system: int
    bf16_pflops: float  #: dense peak per chip
    fp8_pflops: float
    nameplate_kw: float  #: per working chip, what the envelope counts by default
    training_kw: float  #: per chip at training load, what energy counts
    serving_kw: float  #: per chip at serving load
    idle_kw: float  #: per installed chip
    mtbf_hours: float  #: per chip

    @property
    def working_extra_kw(self) -> float:
        """A training chip draws training - idle on top of the idle every installed chip draws."""
        return self.training_kw - self.idle_kw

    @property
    def serving_extra_kw(self) -> float:
        """A serving chip draws serving - idle on top of the idle."""
        return self.serving_kw - self.idle_kw

    @property
    def nameplate_extra_kw(self) -> float:
        """What a working chip adds to the envelope row (nameplate - idle)."""
        return self.nameplate_kw - self.idle_kw


def server_figures(catalog: Catalog, system: str = H100) -> Server:
    """Read a system's figures from the catalogue (an input of the model, not an output)."""
    spec = catalog.hardware_system(system)
    return Server(
        chips_per_system=spec.chips_per_system,
        bf16_pflops=spec.dense_pflops_per_chip("bf16"),
        fp8_pflops=spec.dense_pflops_per_chip("fp8"),
        nameplate_kw=spec.active_power_kw_per_chip,
        training_kw=spec.training_kw_per_chip,
        serving_kw=spec.serving_kw_per_chip,
        idle_kw=spec.idle_power_kw_per_chip,
        mtbf_hours=spec.mtbf_hours_per_chip,
    )


def firm_supply(capacity_mw: float, price: float, carbon: float, **extra: Any) -> dict:
    """A firm on-site source: capacity (MW), price (USD/MWh), carbon (kgCO2e/MWh)."""
    return {
        "capacity": f"{capacity_mw} MW",
        "price": f"{price} USD/MWh",
        "carbon": f"{carbon} kgCO2/MWh",
        **extra,
    }


def site(
    *,
    lat: float = 40.0,
    lon: float = -100.0,
    systems: int = 100,
    system: str = H100,
    price: float = 50.0,
    carbon: float = 100.0,
    supply_mw: float = 100.0,
    source: str = "nuclear",
    pue: float = 1.2,
    availability: float = 1.0,
    envelope_mw: float = 500.0,
    jurisdiction: str = "XX",
) -> dict:
    """A site with ``systems`` systems powered by one firm source and no grid."""
    return {
        "lat": lat,
        "lon": lon,
        "power_envelope": f"{envelope_mw} MW",
        "pue": pue,
        "availability": availability,
        "systems": {system: systems},
        "power_sources": {source: firm_supply(supply_mw, price, carbon)},
        "jurisdiction": jurisdiction,
    }


def training_job(compute_eflop: float, **extra: Any) -> dict:
    """A BF16 job with TP 8 (fits one HGX server), MFU 0.5 and goodput exactly 1.

    No parameter count and no checkpoint size means free checkpoints (C = 0)
    and ``restart: 0`` an instant restart (R = 0), so the goodput factor (the exact
    exponential model, which tends to ``exp(-R / M)`` when ``C = 0``) is 1.
    """
    job = {
        "compute": float(compute_eflop),
        "gradient_size": "10 GB",
        "sync_interval": "10 s",
        "tp": 8,
        "mfu": 0.5,
        "restart": 0,
    }
    job.update(extra)
    return job


def service(flop_per_token: float = 2e11, sla_ms: float = 50.0, efficiency: float = 0.5) -> dict:
    """An FP8 inference service."""
    return {
        "flop_per_token": float(flop_per_token),
        "sla": f"{sla_ms} ms",
        "efficiency": efficiency,
        "precision": "fp8",
    }


def scenario(
    sites: dict[str, dict],
    *,
    hours: int = 4,
    training: dict | None = None,
    inference: dict | None = None,
    regions: dict | None = None,
    links: dict | None = None,
    objective: dict | None = None,
    solver: dict | None = None,
    **extra: Any,
) -> dict:
    """A whole scenario around ``sites``; pass the other sections as needed."""
    data: dict[str, Any] = {
        "name": "hand-derived",
        "time": {"start": START, "hours": hours, "resolution": "1 h"},
        "sites": copy.deepcopy(sites),
        "objective": {"carbon_price": 0, "latency_weight": 0, "unserved_penalty": 1000},
        "solver": {"threads": 1, "time_limit": "60 s", "mip_gap": 0.0},
    }
    if training:
        data["training"] = copy.deepcopy(training)
    if inference:
        data["inference"] = copy.deepcopy(inference)
    if regions:
        data["regions"] = copy.deepcopy(regions)
    if links:
        data["links"] = copy.deepcopy(links)
    data["objective"].update(objective or {})
    data["solver"].update(solver or {})
    data.update(copy.deepcopy(extra))
    return data


def route(
    a: str, b: str, length_km: float = 50.0, technology: str = "smf_800zr", pairs: int = 1
) -> dict:
    """An explicit DCI route of given length (50 km: no amplifier, no regenerator)."""
    return {"sites": [a, b], "technology": technology, "length": f"{length_km} km", "fibre_pairs": pairs}


def profile_csv(folder: Path, name: str, factors: list[float], start: str = START) -> str:
    """Write hourly capacity factors to ``folder/name`` (column ``cf``); return the file name."""
    times = pd.date_range(pd.Timestamp(start), periods=len(factors), freq="1h")
    frame = pd.DataFrame({"time": [t.isoformat() for t in times], "cf": factors})
    frame.to_csv(folder / name, index=False)
    return name


def write(folder: Path, data: dict, name: str = "scenario.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def load(folder: Path, data: dict, catalog: Catalog, **kwargs: Any) -> Scenario:
    """Write ``data`` as YAML in ``folder`` and load it as a user's file would be."""
    return load_scenario(write(folder, data), catalog=catalog, **kwargs)


def run(folder: Path, data: dict, catalog: Catalog, **kwargs: Any) -> Result:
    """Load and solve ``data``; ``kwargs`` go to ``load_scenario`` (variants, overrides)."""
    return solve(load(folder, data, catalog, **kwargs), catalog=catalog)


def job_rate_eflop_per_chip_hour(pflops_per_chip: float, mfu: float, goodput: float = 1.0) -> float:
    """docs/model.md (1): one chip for one hour does PFLOPS x 3.6 x MFU x goodput EFLOP."""
    return pflops_per_chip * 3.6 * mfu * goodput


def load_text(folder: Path, data: dict, catalog: Catalog, **kwargs: Any) -> Scenario:
    """Load ``data`` from YAML text (no file written; ``folder`` resolves CSV names)."""
    from geomodel.scenario import load_scenario_text

    return load_scenario_text(yaml.safe_dump(data, sort_keys=False), folder, catalog=catalog, **kwargs)


def run_text(folder: Path, data: dict, catalog: Catalog, **kwargs: Any) -> Result:
    """Like :func:`run` through :func:`load_text` (for hypothesis, which shares a folder)."""
    return solve(load_text(folder, data, catalog, **kwargs), catalog=catalog)


def is_pathway_file(path: Path) -> bool:
    """True for a scenario file with a ``periods`` section: a pathway, solved by
    ``geomodel.pathway.solve_pathway`` rather than ``geomodel.api.solve``."""
    return "periods" in (yaml.safe_load(path.read_text(encoding="utf-8")) or {})
