"""DCI: route length, latency, optical power and reach of data-centre links.

Route km = great-circle (geodesic) km x route factor; one-way latency = route
km x the technology's propagation latency (us/km). Standard single-mode fibre
has a group index of about 1.4677 at 1550 nm, so light covers a km in
``1.4677 / c`` = 4.896 us; hollow-core fibre guides light in air (~3.4 us/km).

The optimiser's user-to-site latency is the fitted model of
:mod:`geomodel.tools.latency`, which uses this module's fibre figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from geomodel.catalog.entries import LinkTechnology
from geomodel.geo import Location, geodesic_km
from geomodel.tools.checks import at_least, non_negative, positive

#: Speed of light in vacuum.
C_VACUUM_KM_PER_S = 299_792.458
#: Group index of standard single-mode fibre (G.652) at 1550 nm.
SMF_GROUP_INDEX = 1.4677
#: One-way propagation in standard single-mode fibre, = 4.8957 us/km.
SMF_LATENCY_US_PER_KM = 1e6 * SMF_GROUP_INDEX / C_VACUUM_KM_PER_S

#: Internet path length / great-circle length: the median shortest conduit
#: path between the 120 largest US metros (Bozkurt et al. 2018, "Dissecting
#: Latency in the Internet's Fiber Infrastructure", arXiv 1811.10737).
INTERNET_ROUTE_FACTOR = 1.3
#: The pessimistic end: "multiply line-of-sight distance by 2.1, then divide by
#: the speed of light in fiber", the rule of thumb from earlier measurement
#: campaigns quoted by Bozkurt et al. (2018); it fits indirectly routed pairs.
INTERNET_ROUTE_FACTOR_HIGH = 2.1
#: Router, exchange-point and server hops on a well-connected backbone path,
#: round trip [estimate]; with the route factor it reproduces public pings
#: (Frankfurt-Amsterdam ~7-9 ms, New York-London ~70-75 ms; docs/tools.md).
INTERNET_BACKBONE_MS = 3.0
#: The user's own access network, round trip: FCC Measuring Broadband America
#: 2016 median latency of fibre-to-the-home tiers 11.5-14.7 ms (to the nearest
#: test server, so including some distance) -> 10 ms [estimate]; DSL ~37 ms.
INTERNET_ACCESS_MS = 10.0


def route_km(distance_km: float, route_factor: float) -> float:
    """Fibre route length for a great-circle distance."""
    distance_km = non_negative(distance_km, "distance_km")
    return distance_km * at_least(route_factor, 1.0, "route_factor")


def _latency_and_factor(
    technology: LinkTechnology | float, route_factor: float | None
) -> tuple[float, float]:
    """(us/km, route factor) of a technology, or of a bare us/km figure."""
    if isinstance(technology, LinkTechnology):
        latency = technology.latency_us_per_km
        factor = technology.route_factor if route_factor is None else route_factor
    else:
        latency = positive(technology, "latency_us_per_km")
        if route_factor is None:
            raise ValueError("route_factor is required when the technology is a bare us/km figure")
        factor = route_factor
    return latency, at_least(factor, 1.0, "route_factor")


def one_way_ms(
    distance_km: float, technology: LinkTechnology | float, route_factor: float | None = None
) -> float:
    """One-way propagation latency over a great-circle distance.

    ``technology`` is a :class:`LinkTechnology` (its ``route_factor`` is the
    default) or a propagation latency in us/km (then ``route_factor`` is needed).
    """
    latency, factor = _latency_and_factor(technology, route_factor)
    return route_km(distance_km, factor) * latency / 1000.0


def round_trip_ms(
    distance_km: float,
    technology: LinkTechnology | float,
    route_factor: float | None = None,
    overhead_ms: float = 0.0,
) -> float:
    """Round-trip latency: 2 x one-way propagation + a fixed ``overhead_ms``."""
    overhead_ms = non_negative(overhead_ms, "overhead_ms")
    return 2.0 * one_way_ms(distance_km, technology, route_factor) + overhead_ms


def internet_round_trip_ms(
    distance_km: float,
    route_factor: float = INTERNET_ROUTE_FACTOR,
    backbone_ms: float = INTERNET_BACKBONE_MS,
    access_ms: float = INTERNET_ACCESS_MS,
) -> float:
    """Round trip a user on the public internet sees to a server ``distance_km`` away.

    Standard fibre along ``route_factor`` x the great-circle distance, plus the
    backbone's hops and the user's access network. With ``access_ms=0`` this is
    a server-to-server ping between well-connected hosts.
    """
    backbone_ms = non_negative(backbone_ms, "backbone_ms")
    return round_trip_ms(
        distance_km,
        SMF_LATENCY_US_PER_KM,
        route_factor,
        backbone_ms + non_negative(access_ms, "access_ms"),
    )


def max_separation_km(
    budget_ms: float,
    technology: LinkTechnology | float,
    route_factor: float | None = None,
    overhead_ms: float = 0.0,
) -> float:
    """Farthest great-circle separation whose round trip fits ``budget_ms``.

    Inverse of :func:`round_trip_ms`; 0 when the overhead alone uses the budget.
    """
    budget_ms = positive(budget_ms, "budget_ms")
    overhead_ms = non_negative(overhead_ms, "overhead_ms")
    latency, factor = _latency_and_factor(technology, route_factor)
    return max(0.0, budget_ms - overhead_ms) * 1000.0 / (2.0 * factor * latency)


def regenerators(route_length_km: float, technology: LinkTechnology) -> int:
    """Optical-electrical-optical regeneration sites a route needs beyond the reach."""
    route_length_km = non_negative(route_length_km, "route_km")
    return max(0, math.ceil(route_length_km / technology.reach_km - 1e-9) - 1)


def link_power_w(
    route_length_km: float, technology: LinkTechnology, capacity_gbit_s: float | None = None
) -> float:
    """Electrical power of one fibre pair lit at ``capacity_gbit_s`` (default: full).

    Transceivers at both ends and in-line amplifiers (:meth:`LinkTechnology.power_w`),
    plus one more set of transceivers per regeneration site when the route is
    longer than the technology's unregenerated reach.
    """
    route_length_km = non_negative(route_length_km, "route_km")
    capacity = technology.capacity_gbit_s_per_fibre_pair if capacity_gbit_s is None else capacity_gbit_s
    capacity = non_negative(capacity, "capacity_gbit_s")
    regen_w = (
        regenerators(route_length_km, technology) * capacity * technology.transceiver_power_w_per_gbit_s
    )
    return technology.power_w(route_length_km, capacity) + regen_w


def link_power_w_per_gbit_s(route_length_km: float, technology: LinkTechnology) -> float:
    """Power of a fully lit fibre pair on this route, per Gb/s carried."""
    return link_power_w(route_length_km, technology) / technology.capacity_gbit_s_per_fibre_pair


@dataclass(frozen=True)
class TechnologyRoute:
    """One link technology on one route."""

    technology: str
    fibre_kind: str
    optics: str
    latency_us_per_km: float
    route_factor: float
    route_km: float
    one_way_ms: float
    round_trip_ms: float
    reach_km: float
    within_reach: bool  #: route km <= unregenerated reach
    regenerators: int
    amplifier_sites: int
    capacity_gbit_s_per_fibre_pair: float
    power_kw_per_fibre_pair: float  #: fully lit
    power_w_per_gbit_s: float  #: fully lit
    max_separation_km: float | None  #: for the budget, great circle; None without a budget

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DciReport:
    """Distance between two points and each technology's link between them."""

    from_lat: float
    from_lon: float
    to_lat: float
    to_lon: float
    geodesic_km: float
    internet_round_trip_ms: float  #: good path (route factor 1.3)
    internet_round_trip_ms_high: float  #: indirect routing (route factor 2.1)
    internet_model: dict[str, float]
    budget_ms: float | None
    technologies: list[TechnologyRoute]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def technology_route(
    distance_km: float,
    technology: LinkTechnology,
    route_factor: float | None = None,
    budget_ms: float | None = None,
) -> TechnologyRoute:
    """Latency, reach and power of ``technology`` over a great-circle distance."""
    _, factor = _latency_and_factor(technology, route_factor)
    length = route_km(distance_km, factor)
    power = link_power_w(length, technology)
    return TechnologyRoute(
        technology=technology.name,
        fibre_kind=technology.fibre_kind,
        optics=technology.optics,
        latency_us_per_km=technology.latency_us_per_km,
        route_factor=factor,
        route_km=length,
        one_way_ms=one_way_ms(distance_km, technology, factor),
        round_trip_ms=round_trip_ms(distance_km, technology, factor),
        reach_km=technology.reach_km,
        within_reach=length <= technology.reach_km,
        regenerators=regenerators(length, technology),
        amplifier_sites=technology.amplifier_spans(length),
        capacity_gbit_s_per_fibre_pair=technology.capacity_gbit_s_per_fibre_pair,
        power_kw_per_fibre_pair=power / 1000.0,
        power_w_per_gbit_s=power / technology.capacity_gbit_s_per_fibre_pair,
        max_separation_km=(
            None if budget_ms is None else max_separation_km(budget_ms, technology, factor)
        ),
    )


def assess_route(
    a: Location,
    b: Location,
    technologies: Iterable[LinkTechnology],
    route_factor: float | None = None,
    budget_ms: float | None = None,
) -> DciReport:
    """Geodesic distance, internet round trip and each technology's link from a to b."""
    if budget_ms is not None:
        budget_ms = positive(budget_ms, "budget_ms")
    distance = geodesic_km(a, b)
    return DciReport(
        from_lat=a.lat,
        from_lon=a.lon,
        to_lat=b.lat,
        to_lon=b.lon,
        geodesic_km=distance,
        internet_round_trip_ms=internet_round_trip_ms(distance),
        internet_round_trip_ms_high=internet_round_trip_ms(distance, INTERNET_ROUTE_FACTOR_HIGH),
        internet_model={
            "route_factor": INTERNET_ROUTE_FACTOR,
            "route_factor_high": INTERNET_ROUTE_FACTOR_HIGH,
            "latency_us_per_km": SMF_LATENCY_US_PER_KM,
            "backbone_ms": INTERNET_BACKBONE_MS,
            "access_ms": INTERNET_ACCESS_MS,
        },
        budget_ms=budget_ms,
        technologies=[technology_route(distance, t, route_factor, budget_ms) for t in technologies],
    )
