"""Scenario geometry: latency from user regions to sites, and the DCI links between sites."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from geomodel.catalog import Catalog, LinkTechnology
from geomodel.geo import Location, geodesic_km
from geomodel.scenario.schema import Scenario
from geomodel.tools.dci import link_power_w
from geomodel.tools.latency import user_round_trip_ms


def region_site_latency_ms(scenario: Scenario, catalog: Catalog) -> np.ndarray:
    """Round trip (ms) from each region (rows) to each site (columns).

    docs/scenarios.md, "Latency": route km x fibre us/km x 2 + a fixed overhead, where route km
    is the geodesic distance times a route factor: the scenario's, else the one
    fitted to measured round trips, which falls with distance
    (:mod:`geomodel.tools.latency`); the overhead likewise. The model's SLA
    eligibility and the scenario checks both read this matrix.
    """
    model = scenario.latency
    technology = catalog.link_technology(model.technology)
    sites = [Location(lat=s.lat, lon=s.lon) for s in scenario.sites.values()]
    matrix = np.empty((len(scenario.regions), len(sites)))
    for i, region in enumerate(scenario.regions.values()):
        origin = Location(lat=region.lat, lon=region.lon)
        for j, site in enumerate(sites):
            matrix[i, j] = user_round_trip_ms(
                geodesic_km(origin, site),
                technology.latency_us_per_km,
                model.route_factor,
                model.overhead,
            )
    return matrix


@dataclass(frozen=True)
class Link:
    """A DCI route as the model sees it."""

    name: str
    site_a: str
    site_b: str
    technology: LinkTechnology
    fibre_pairs: int
    length_km: float

    @property
    def latency_ms(self) -> float:
        return self.length_km * self.technology.latency_us_per_km / 1000.0

    @property
    def capacity_gbit_s(self) -> float:
        return self.fibre_pairs * self.technology.capacity_gbit_s_per_fibre_pair

    @property
    def power_mw_at_capacity(self) -> float:
        """Optics, amplifiers and regeneration of every fibre pair lit fully."""
        return self.fibre_pairs * link_power_w(self.length_km, self.technology) / 1e6


def scenario_links(scenario: Scenario, catalog: Catalog) -> list[Link]:
    """Explicit routes plus the automatic mesh (explicit routes win for their pair)."""
    sites = scenario.sites
    location = {name: Location(lat=s.lat, lon=s.lon) for name, s in sites.items()}
    links: dict[frozenset[str], Link] = {}
    mesh = scenario.links.mesh
    if mesh is not None:
        technology = catalog.link_technology(mesh.technology)
        factor = mesh.route_factor or technology.route_factor
        for a, b in combinations(sites, 2):
            length = geodesic_km(location[a], location[b]) * factor
            if mesh.max_length is None or length <= mesh.max_length:
                links[frozenset((a, b))] = Link(f"{a}--{b}", a, b, technology, mesh.fibre_pairs, length)
    for route in scenario.links.routes:
        a, b = route.sites
        technology = catalog.link_technology(route.technology)
        if route.length is not None:
            length = route.length
        else:
            factor = route.route_factor or technology.route_factor
            length = geodesic_km(location[a], location[b]) * factor
        links[frozenset((a, b))] = Link(f"{a}--{b}", a, b, technology, route.fibre_pairs, length)
    return sorted(links.values(), key=lambda link: link.name)
