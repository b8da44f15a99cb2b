"""What the installed fleet costs a year: the capital already spent, as an annuity.

Planning charges what it builds; what is installed is sunk for the decision, so the
optimiser never sees it. A unit cost at full cost (``usd_per_eflop_full``,
``usd_per_mtoken_full``; docs/model.md, KPIs) adds it back: every installed system at
its catalogue price and every installed MW of facility power at the hall (and grid
connection) cost planning would pay for it, each as the annuity of its lifetime at the
scenario's discount rate plus its fixed O&M. Systems without a price (TPUs, sold only
as cloud capacity) count nothing, and docs/costs.md says so.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from geomodel.catalog import Catalog
from geomodel.inputs.annuity import capital_recovery_factor
from geomodel.inputs.dataset import variable
from geomodel.scenario.build_options import (
    SYSTEM_UNITS,
    UnitCost,
    facility_unit_cost,
    first_applying,
)
from geomodel.scenario.schema import Scenario


def installed_system_cost(scenario: Scenario, catalog: Catalog, system: str) -> UnitCost:
    """One installed system of ``system``: its catalogue price as an annuity, and fixed O&M."""
    spec = catalog.hardware_system(system)
    entry = first_applying(catalog.build_costs.values(), system, SYSTEM_UNITS)
    if spec.capex_usd_per_system is None or entry is None:
        return UnitCost()
    years = scenario.finance.lifetimes.get(entry.asset_class, entry.lifetime_years)
    crf = capital_recovery_factor(scenario.finance.discount_rate, years)
    capex = spec.capex_usd_per_system
    return UnitCost(capex, capex * crf, entry.fixed_om_usd_per_unit_year)


def installed_capital_variables(
    scenario: Scenario, catalog: Catalog, systems: list[str]
) -> dict[str, xr.Variable]:
    """Yearly capital cost of installed systems (site, system) and facility power (site)."""
    site_list = list(scenario.sites.items())
    per_system = {system: installed_system_cost(scenario, catalog, system) for system in systems}
    systems_cost = np.array(
        [
            [site.systems.get(system, 0) * per_system[system].usd_per_year for system in systems]
            for _, site in site_list
        ],
        dtype=float,
    ).reshape(len(site_list), len(systems))
    facility_cost = np.array(
        [
            site.power_envelope * facility_unit_cost(scenario, catalog, name).usd_per_year
            for name, site in site_list
        ],
        dtype=float,
    )
    return {
        "installed_systems_usd_per_year": variable(
            ("site", "system"),
            systems_cost,
            "USD/year",
            "annuity of the catalogue price of the installed systems plus their fixed O&M",
        ),
        "installed_facility_usd_per_year": variable(
            "site",
            facility_cost,
            "USD/year",
            "annuity plus fixed O&M of the installed facility power (hall and grid "
            "connection, at the cost planning would pay for it)",
        ),
    }


__all__ = ["installed_capital_variables", "installed_system_cost"]
