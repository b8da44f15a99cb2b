"""Checks of a scenario's ``periods`` (docs/planning.md, "Pathways"): years in order, one
value per period, workloads and asset classes that exist, lead times within the horizon,
systems bought from their first year, retirements after installation. Each problem is one
line with its field path; the scenario checks report them all at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from geomodel.inputs.pathway_tables import default_lead_times, hardware_years

if TYPE_CHECKING:
    from geomodel.scenario.checker import Checker

#: per-period lists that must hold one value per period
PER_PERIOD = ("weights", "energy_price_scale", "carbon_intensity_scale", "carbon_price")


def check_periods(c: Checker) -> None:
    periods = c.scenario.periods
    if periods is None:
        return
    years = periods.years
    for i in range(1, len(years)):
        if years[i] <= years[i - 1]:
            c.add(
                ("periods", "years", i),
                f"periods must be in increasing order: {years[i]} comes after {years[i - 1]}",
                years[i],
            )
    n = len(years)
    for name in PER_PERIOD:
        values = getattr(periods, name)
        if values is not None and len(values) != n:
            c.add(("periods", name), f"needs one value per period ({n}), got {len(values)}", values)
    for i, weight in enumerate(periods.weights or []):
        if weight <= 0:
            c.add(("periods", "weights", i), "a period stands for more than 0 years", weight)
    workloads = {*c.scenario.training, *c.scenario.inference, *c.scenario.job_tables}
    for name, growth in periods.demand_growth.items():
        path = ("periods", "demand_growth", name)
        if not c.known(path, name, sorted(workloads), "workload"):
            continue
        factors = growth if isinstance(growth, list) else [growth]
        if isinstance(growth, list) and len(growth) != n:
            c.add(path, f"needs one factor per period ({n}), got {len(growth)}", growth)
        if any(f < 0 for f in factors):
            c.add(path, "growth factors must be at least 0", growth)
    _lead_times(c, years)
    _systems(c, years)
    _retirements(c)


def _lead_times(c: Checker, years: list[int]) -> None:
    periods = c.scenario.periods
    horizon = max(years) - min(years)
    classes = sorted({*default_lead_times(), *(e.asset_class for e in c.catalog.build_costs.values())})
    for name, lead in periods.lead_times.items():
        path = ("periods", "lead_times", name)
        if not c.known(path, name, classes, "asset class"):
            continue
        if lead > horizon and lead > 0:
            c.add(
                path,
                f"a lead time of {lead:g} years is longer than the horizon {min(years)}-{max(years)} "
                f"({horizon} years): nothing of class {name!r} decided in it could come online",
                lead,
            )


def _systems(c: Checker, years: list[int]) -> None:
    periods = c.scenario.periods
    for name in periods.systems:
        c.known(("periods", "systems", name), name, c.catalog.hardware, "hardware system")
    first = hardware_years(periods)
    for site_name, site in c.scenario.sites.items():
        for system, count in site.systems.items():
            year = first.get(system, (float("-inf"),))[0]
            if count and year > years[0]:
                c.add(
                    ("sites", site_name, "systems", system),
                    f"{system} can be bought from {year:.0f} (its first year), but the pathway "
                    f"starts in {years[0]} with {count} installed",
                    count,
                )
        for system in site.build.systems if site.build is not None else {}:
            year = first.get(system, (float("-inf"),))[0]
            if year > years[-1]:
                c.add(
                    ("sites", site_name, "build", "systems", system),
                    f"{system} can be bought from {year:.0f}, after the last period ({years[-1]}): "
                    "it is never built",
                    warning=True,
                )


def _retirements(c: Checker) -> None:
    periods = c.scenario.periods
    first = hardware_years(periods)
    for i, retirement in enumerate(periods.retirements):
        path = ("periods", "retirements", i)
        if not c.known((*path, "site"), retirement.site, c.scenario.sites, "site"):
            continue
        site = c.scenario.sites[retirement.site]
        assets = ["power_envelope", *site.systems, *site.power_sources]
        if not c.known((*path, "asset"), retirement.asset, assets, "installed asset"):
            continue
        installed = retirement.installed
        if installed is not None and retirement.year <= installed:
            c.add(
                (*path, "year"),
                f"retires in {retirement.year}, not after it was installed ({installed})",
                retirement.year,
            )
        year = first.get(retirement.asset, (float("-inf"),))[0]
        if installed is not None and installed < year:
            c.add(
                (*path, "installed"),
                f"{retirement.asset} can be bought from {year:.0f} (its first year), not in {installed}",
                installed,
            )
