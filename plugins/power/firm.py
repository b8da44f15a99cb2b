"""Built-in firm generators: reservoir ``hydro``, ``nuclear`` and ``gas_ccgt``.

Their profiles are flat (the :class:`PowerSource` default): the capacity factor
is the share of capacity available in every hour, price and carbon are the
annual means. Carbon is the IPCC AR5 lifecycle median from
``plugins/data/emission_factors.csv``; availability and price are documented
estimates in ``plugins/data/generators.csv``.
"""

from __future__ import annotations

from geomodel.catalog.entries import PowerSource
from geomodel.hookspecs import hookimpl

from .._tables import generator_fields

GEOMODEL_PLUGIN_API = "1"

FIRM_GENERATORS = ("hydro", "nuclear", "gas_ccgt")


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """Reservoir hydro, nuclear and combined-cycle gas with flat profiles."""
    return [PowerSource(**generator_fields(name)) for name in FIRM_GENERATORS]
