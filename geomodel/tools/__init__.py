"""Analytic tools beside the optimiser (docs/tools.md).

Pure functions and frozen dataclasses, no printing: the CLI, the optimiser and
the app all call these.

* :mod:`geomodel.tools.sizing`: chips -> systems -> racks -> MW -> sites.
* :mod:`geomodel.tools.reliability`: cluster MTBF, Young/Daly checkpoint
  interval and the goodput factor the optimiser applies to training work.
* :mod:`geomodel.tools.dci`: route latency, optical power and the farthest
  site separation that fits a latency budget.
* :mod:`geomodel.tools.latency`: user-to-site round trip, fitted to measured
  round trips between cloud regions.
"""

from geomodel.tools.dci import (
    internet_round_trip_ms,
    max_separation_km,
    one_way_ms,
    round_trip_ms,
    route_km,
)
from geomodel.tools.latency import user_round_trip_ms
from geomodel.tools.reliability import goodput_factor, reliability_report
from geomodel.tools.sizing import compare_systems, size_cluster

__all__ = [
    "compare_systems",
    "goodput_factor",
    "internet_round_trip_ms",
    "max_separation_km",
    "one_way_ms",
    "reliability_report",
    "round_trip_ms",
    "route_km",
    "size_cluster",
    "user_round_trip_ms",
]
