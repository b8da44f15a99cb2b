"""What moving a job's data between two sites costs: money, network energy, carbon, time.

Defaults come from ``geomodel/inputs/data/data_movement.csv`` (each figure with
its source and source type, docs/catalogues.md): cloud inter-region transfer
prices by distance class, and the network energy per GB. The scenario's
``data_movement`` section overrides them.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import numpy as np

from geomodel.geo import Location, geodesic_km
from geomodel.scenario.schema import Scenario

TABLE = "data_movement.csv"


@cache
def default_figures() -> dict[str, list[dict[str, str]]]:
    """Rows of the defaults table by figure name, in file order."""
    text = files("geomodel.inputs").joinpath("data", TABLE).read_text(encoding="utf-8")
    rows: dict[str, list[dict[str, str]]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        rows.setdefault(row["figure"], []).append(row)
    return rows


def default_value(figure: str) -> float:
    """The value of the row marked default for ``figure`` (the first, if several)."""
    return float(next(r for r in default_figures()[figure] if r["default"] == "yes")["value"])


def default_prices() -> tuple[float, float, float]:
    """(near USD/GB, far USD/GB, boundary km) of the defaults table."""
    near, far = (float(r["value"]) for r in default_figures()["transfer_price"] if r["default"] == "yes")
    return near, far, default_value("boundary_km")


@dataclass(frozen=True)
class TransferCosts:
    """Per GB moved from site a (rows) to site b (columns)."""

    usd_per_gb: np.ndarray
    kwh_per_gb: np.ndarray
    kg_per_gb: np.ndarray  #: network energy x the mean grid carbon of the two ends
    delay_hours_per_gb: float  #: 0 unless the scenario asks for the delay


def transfer_costs(scenario: Scenario, mean_carbon_kg_per_mwh: np.ndarray) -> TransferCosts:
    """Price, energy, carbon and delay per GB between every pair of the scenario's sites.

    ``mean_carbon_kg_per_mwh`` is each site's carbon intensity averaged over the
    horizon (its grid's, or its sources'; NaN for a site with neither, which then
    counts with the mean of the others): network energy is drawn along the path,
    and the two ends stand for it.
    """
    settings = scenario.data_movement
    sites = list(scenario.sites.values())
    n = len(sites)
    near, far, boundary = default_prices()
    places = [Location(lat=s.lat, lon=s.lon) for s in sites]
    km = np.array(
        [
            [geodesic_km(a, b) if i != k else 0.0 for k, b in enumerate(places)]
            for i, a in enumerate(places)
        ]
    )
    price = (
        np.where(km < boundary, near, far) if settings.price is None else np.full((n, n), settings.price)
    )
    energy = default_value("network_energy") if settings.energy is None else settings.energy
    carbon = np.asarray(mean_carbon_kg_per_mwh, dtype=float)
    fallback = np.nanmean(carbon) if np.isfinite(carbon).any() else 0.0
    carbon = np.where(np.isfinite(carbon), carbon, fallback)
    pair_carbon = (carbon[:, None] + carbon[None, :]) / 2.0  # kg/MWh
    off_diagonal = ~np.eye(n, dtype=bool)
    delay = 8.0 / settings.bandwidth / 3600.0 if settings.delay else 0.0  # GB -> Gbit -> s -> h
    return TransferCosts(
        usd_per_gb=price * off_diagonal,
        kwh_per_gb=np.full((n, n), energy) * off_diagonal,
        kg_per_gb=energy / 1000.0 * pair_carbon * off_diagonal,
        delay_hours_per_gb=delay,
    )
