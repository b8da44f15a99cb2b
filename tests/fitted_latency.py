"""The user-to-site round trip of docs/fidelity.md ("User-to-site latency"), restated for
tests that check what the example scenarios say about round trips.

    round trip (ms) = 2.36 + 2 x d x f(d) x u / 1000
    f(d)            = 1.535 + (2.748 - 1.535) x 1000 / (d + 1000)

d is the WGS84 geodesic km (pyproj here, as the documentation says; not geomodel's own
helper), u the one-way us/km of the latency technology (4.9 for the built-in
``smf_400zr``). A scenario's own ``route_factor`` or ``overhead`` replaces f(d) or the
2.36 ms. Example: Chicago - Abilene, 1,495 km: f = 1.535 + 1.213 x 1000 / 2495 = 2.0212,
2.36 + 2 x 1495 x 2.0212 x 4.9 / 1000 = 31.97 ms.
"""

from __future__ import annotations

from pyproj import Geod

OVERHEAD_MS, FACTOR_NEAR, FACTOR_FAR, HALF_KM = 2.36, 2.748, 1.535, 1000.0


def geodesic_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """(lat, lon) pairs -> WGS84 geodesic km."""
    _, _, metres = Geod(ellps="WGS84").inv(a[1], a[0], b[1], b[0])
    return metres / 1000


def round_trip_ms(
    km: float, us_per_km: float, route_factor: float | None = None, overhead_ms: float | None = None
) -> float:
    """The documented round trip at ``km`` great-circle km."""
    factor = FACTOR_FAR + (FACTOR_NEAR - FACTOR_FAR) * HALF_KM / (km + HALF_KM)
    factor = factor if route_factor is None else route_factor
    overhead = OVERHEAD_MS if overhead_ms is None else overhead_ms
    return overhead + 2 * km * factor * us_per_km / 1000
