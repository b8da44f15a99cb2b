"""User-to-site round trip from great-circle distance: the model fitted to measured round trips.

A packet between a user region and a site travels a route longer than the great
circle, and short routes are proportionally longer than long ones (metro and
regional networks wander; long-haul cables run straight). The model says so with a
route factor that falls with distance, plus a fixed overhead for switching and
processing:

    round trip (ms) = overhead + 2 x d x f(d) x u / 1000
    f(d)            = f_far + (f_near - f_far) x h / (d + h)

d is the great-circle km, u the fibre's one-way propagation in us/km (4.896 for
standard single-mode fibre), f_near the factor of very short routes, f_far that of
long-haul routes and h the distance at which the excess over f_far has halved.

The four fitted numbers below come from ``bench/latency_fit.py``, which fits them
to 1,929 published cloud inter-region round trips (Azure P50 2026, AWS P50 via
CloudPing 2024-25, IBM Cloud 2025; docs/data/latency/) with the least absolute
log error, on 75 % of the pairs drawn at random; docs/fidelity.md gives the error by
distance band on those pairs and on the 25 % held back, per provider held out, and
on public-internet pings between hosting servers (WonderProxy 2020), which the model
underestimates by about 12 % at the median. h is fixed at 1,000 km: the fit's
objective is flat for h from 500 to 5,000 km. The model knows distance only, so a
route that detours (Europe-East Asia through Suez) or runs unusually straight
(transatlantic cables) is off by 20-30 %.
"""

from __future__ import annotations

import numpy as np

from geomodel.tools.checks import at_least, non_negative

#: Fixed part of every round trip (switching, processing), ms.
FITTED_OVERHEAD_MS = 2.36
#: Route km per great-circle km of very short routes.
FITTED_ROUTE_FACTOR_NEAR = 2.748
#: Route km per great-circle km of long-haul routes.
FITTED_ROUTE_FACTOR_FAR = 1.535
#: Distance at which the route factor's excess over the long-haul factor has halved.
ROUTE_FACTOR_HALF_KM = 1000.0


def fitted_route_factor(distance_km: float | np.ndarray) -> float | np.ndarray:
    """Route km per great-circle km at a distance: f_far + (f_near - f_far) h / (d + h)."""
    excess = FITTED_ROUTE_FACTOR_NEAR - FITTED_ROUTE_FACTOR_FAR
    return FITTED_ROUTE_FACTOR_FAR + excess * ROUTE_FACTOR_HALF_KM / (
        np.asarray(distance_km, dtype=float) + ROUTE_FACTOR_HALF_KM
    )


def user_round_trip_ms(
    distance_km: float,
    latency_us_per_km: float,
    route_factor: float | None = None,
    overhead_ms: float | None = None,
) -> float:
    """Round trip (ms) from a user region to a site ``distance_km`` away (great circle).

    ``route_factor`` and ``overhead_ms`` replace the fitted distance-dependent
    factor and the fitted overhead when given (a scenario's own figures).
    """
    distance_km = non_negative(distance_km, "distance_km")
    factor = (
        float(fitted_route_factor(distance_km))
        if route_factor is None
        else at_least(route_factor, 1.0, "route_factor")
    )
    overhead = FITTED_OVERHEAD_MS if overhead_ms is None else non_negative(overhead_ms, "overhead_ms")
    return overhead + 2.0 * distance_km * factor * latency_us_per_km / 1000.0
