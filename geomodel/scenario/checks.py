"""Checks of a scenario against the catalogue: names, reachability and feasibility.

These run after the schema has accepted the file, so every field has its type;
each check adds problems rather than raising, so a user sees all of them at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from geomodel.catalog import Catalog
from geomodel.scenario.build_checks import check_build_options
from geomodel.scenario.checker import Checker
from geomodel.scenario.extension_checks import check_extensions
from geomodel.scenario.files import Document
from geomodel.scenario.job_checks import check_jobs
from geomodel.scenario.network import region_site_latency_ms
from geomodel.scenario.pathway_checks import check_periods
from geomodel.scenario.problems import Path, Problem
from geomodel.scenario.schema import Scenario, window_bounds
from geomodel.scenario.service_checks import check_services
from geomodel.scenario.serving_rates import service_rates
from geomodel.scenario.signal_checks import check_carbon_bases, check_grid_prices, check_price_levels
from geomodel.scenario.weather_checks import check_weather


def check_scenario(scenario: Scenario, catalog: Catalog, document: Document) -> list[Problem]:
    """Every cross-reference and feasibility problem of a schema-valid scenario."""
    checker = Checker(scenario, catalog, document)
    for check in CHECKS:
        check(checker)
    return checker.problems


#: the years the catalogue's figures describe, roughly: hardware, prices and costs of the
#: 2020s, measured hourly series of 2023 (repeated for any year)
DATA_YEARS = (2000, 2100)


def _horizon(c: Checker) -> None:
    """A start year far from the data's is most likely a typo (1899 for 2025)."""
    year = c.scenario.time.start.year
    low, high = DATA_YEARS
    if not low <= year <= high:
        c.add(
            ("time", "start"),
            f"the year {year} lies outside {low}-{high}, the years the catalogue's figures "
            "describe (hardware, prices and costs of the 2020s; hourly series measured in 2023, "
            "repeated for any year): they are used as they are",
            c.scenario.time.start,
            warning=True,
        )


def _sites(c: Checker) -> None:
    grids = {n: s for n, s in c.catalog.power_sources.items() if s.kind == "grid"}
    generators = {n: s for n, s in c.catalog.power_sources.items() if s.kind != "grid"}
    for name, site in c.scenario.sites.items():
        for system in site.systems:
            c.known(("sites", name, "systems", system), system, c.catalog.hardware, "hardware system")
        if site.grid is not None and site.grid in generators:
            kind = generators[site.grid].kind
            c.add(
                ("sites", name, "grid"),
                f"{site.grid!r} is a generator (kind {kind}), not a grid region: list it under "
                f"power_sources with its capacity ({site.grid}: {{capacity: ...}}); grid takes "
                "a grid region",
            )
        elif site.grid is not None:
            c.known(("sites", name, "grid"), site.grid, grids, "grid power source")
        for source in site.power_sources:
            path = ("sites", name, "power_sources", source)
            if source in grids:
                c.add(path, f"{source!r} is a grid region, not a generator: give it as 'grid: {source}'")
            else:
                c.known(path, source, generators, "power source")
        buildable = site.build is not None and site.build.power_sources
        if site.grid is None and not site.power_sources and not buildable:
            c.add(("sites", name), "the site has no power: give 'grid' or 'power_sources'")


def _links(c: Checker) -> None:
    sites = c.scenario.sites
    c.known(("latency", "technology"), c.scenario.latency.technology, c.catalog.links, "link technology")
    if c.scenario.links.mesh is not None:
        c.known(
            ("links", "mesh", "technology"),
            c.scenario.links.mesh.technology,
            c.catalog.links,
            "link technology",
        )
    for section in ("routes", "candidates"):  # explicit routes, and routes that may be built
        seen: dict[frozenset[str], int] = {}
        for index, route in enumerate(getattr(c.scenario.links, section)):
            path = ("links", section, index)
            c.known((*path, "technology"), route.technology, c.catalog.links, "link technology")
            for end, site in enumerate(route.sites):
                if site not in sites:
                    c.add(
                        (*path, "sites", end), f"unknown site {site!r}; known sites: {', '.join(sites)}"
                    )
            pair = frozenset(route.sites)
            if pair in seen:
                c.add(
                    path, f"route between {' and '.join(sorted(pair))} repeats {section}[{seen[pair]}]"
                )
            seen[pair] = index


def _training(c: Checker) -> None:
    sites = c.scenario.sites
    horizon_start = c.scenario.time.start
    jurisdictions = {s.jurisdiction for s in sites.values()}
    for name, job in c.scenario.training.items():
        path = ("training", name)
        allowed = set(sites)
        if job.sites is not None:
            for index, site in enumerate(job.sites):
                if site not in sites:
                    c.add(
                        (*path, "sites", index),
                        f"unknown site {site!r}; known sites: {', '.join(sites)}",
                    )
            allowed &= set(job.sites)
        if job.jurisdictions is not None:
            for index, zone in enumerate(job.jurisdictions):
                if zone not in jurisdictions:
                    c.add(
                        (*path, "jurisdictions", index),
                        f"no site is in jurisdiction {zone!r}; site jurisdictions: "
                        f"{', '.join(sorted(jurisdictions)) or 'none given'}",
                    )
            allowed = {s for s in allowed if sites[s].jurisdiction in job.jurisdictions}
        if not allowed:
            c.add(path, "no site is allowed for this job (check 'sites' and 'jurisdictions')")
            continue
        domains = {
            system: c.catalog.hardware[system].scale_up_domain_chips
            for site in allowed
            for system, count in sites[site].most_systems.items()
            if count > 0 and system in c.catalog.hardware
        }
        if domains and max(domains.values()) < job.group_chips:
            largest = max(domains, key=domains.get)
            c.add(
                (*path, "tp"),
                f"the TP x EP group of {job.tp} x {job.ep} = {job.group_chips} chips fits the "
                f"scale-up domain of no system at the allowed sites (largest: {largest} with "
                f"{domains[largest]} chips)",
            )
        replica = job.group_chips * job.pp
        if job.max_chips is not None and job.max_chips < replica:
            c.add(
                (*path, "max_chips"),
                f"max_chips {job.max_chips} is below one replica of TP x EP x PP = {replica} chips",
            )
        start, end = window_bounds(job, c.scenario.time)
        if end <= start:
            c.add((*path, "window"), f"the window does not overlap the horizon starting {horizon_start}")


def _workload_names(c: Checker) -> None:
    """A training job and an inference service may not share a name.

    Results and reports name workloads side by side (chips per site for each
    job and service), so one name must mean one workload.
    """
    for name in sorted(c.scenario.training.keys() & c.scenario.inference.keys()):
        c.add(
            ("inference", name),
            f"{name!r} names both a training job and an inference service; give them different names",
        )


def _inference(c: Checker) -> None:
    services = c.scenario.inference
    for name, service in services.items():
        for index, system in enumerate(service.systems or []):
            c.known(("inference", name, "systems", index), system, c.catalog.hardware, "hardware system")
    demanded: set[str] = set()
    for region, spec in c.scenario.regions.items():
        for service in spec.demand:
            if c.known(("regions", region, "demand", service), service, services, "inference service"):
                demanded.add(service)
    for name in services.keys() - demanded:
        c.add(("inference", name), "no region has demand for this service", warning=True)


def _sla(c: Checker) -> None:
    """Each region with demand must reach, within the SLA, a site able to serve it."""
    if c.scenario.latency.technology not in c.catalog.links or not c.scenario.regions:
        return
    latency_ms = region_site_latency_ms(c.scenario, c.catalog)
    site_names = list(c.scenario.sites)
    unservable: set[str] = set()
    for row, (region_name, region) in enumerate(c.scenario.regions.items()):
        for service_name in region.demand:
            service = c.scenario.inference.get(service_name)
            if service is None:
                continue
            candidates = {
                site_name: latency_ms[row, column]
                for column, site_name in enumerate(site_names)
                if _serves(c.scenario.sites[site_name].most_systems, service.systems)
            }
            if not candidates:
                if service_name not in unservable:
                    c.add(("inference", service_name), "no site has a system this service may run on")
                    unservable.add(service_name)
                continue
            nearest = min(candidates, key=candidates.get)
            if candidates[nearest] > service.sla:
                c.add(
                    ("regions", region_name, "demand", service_name),
                    f"no site meets the {service.sla:g} ms SLA of {service_name!r} from "
                    f"region {region_name!r}; nearest is {nearest!r} at "
                    f"{candidates[nearest]:.1f} ms round trip",
                )


def _serves(installed: dict[str, int], allowed: list[str] | None) -> bool:
    return any(
        count > 0 and (allowed is None or system in allowed) for system, count in installed.items()
    )


def _capacity(c: Checker) -> None:
    """Warn when inference demand exceeds what all chips could serve in some hour.

    Each service's need is a share of the chips it may run on, at its own rate per
    chip (:mod:`geomodel.scenario.serving_rates`); the shares of all services add up
    per hour.
    """
    series = c.scenario.origin.demand_series if c.scenario.origin else {}
    systems = sorted(
        {s for site in c.scenario.sites.values() for s in site.most_systems if s in c.catalog.hardware}
    )
    rates = service_rates(c.scenario, c.catalog, systems)
    services = list(c.scenario.inference)
    chips = np.zeros(len(systems))
    for site in c.scenario.sites.values():
        for system, count in site.most_systems.items():
            if system in systems:
                spec = c.catalog.hardware_system(system)
                chips[systems.index(system)] += count * spec.chips_per_system * site.utilisation
    share = None
    for (_, service_name), demand in series.items():
        if service_name not in services:
            continue
        capacity = float(rates.tokens_per_s_per_chip[services.index(service_name)] @ chips)
        if capacity <= 0:
            continue  # reported by _sla or the service checks: nowhere to serve it
        part = demand / capacity
        share = part if share is None else share.add(part, fill_value=0)
    if share is None:
        return
    over = share[share > 1]
    if len(over):
        c.add(
            ("regions",),
            f"inference demand needs up to {share.max():.0%} of the chips that can serve it "
            f"(all sites, at each service's rate per chip); short in {len(over)} "
            f"hours, first {', '.join(t.isoformat() for t in over.index[:3])}",
            warning=True,
        )


def _plugins(c: Checker) -> None:
    """Each plugin's own checks; a check that raises could not run, which is a problem
    of the scenario's run too: nobody knows whether the scenario passes it."""
    host = c.catalog.host
    if host is None:
        return
    before = len(host.failures)
    for plugin, problems in host.call_each("validate_scenario", scenario=c.scenario, catalog=c.catalog):
        for message in problems or []:
            path, text = field_of(str(message))
            c.add(path, f"{text} (check by plugin {plugin.name!r})")
    for failure in host.failures[before:]:
        c.add(
            (),
            f"the scenario checks of plugin {failure.name!r} (distribution {failure.distribution}) "
            f"could not run: {failure.reason}; fix or disable the plugin",
        )


#: ``sites.a.systems[0]: message``: a field path (names, ``[n]`` items) before a colon
_LEADING_PATH = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.\-]*(?:\[\d+\])*(?:\.[\w\-\[\]]+)*): (.+)$", re.S)


def field_of(message: str) -> tuple[Path, str]:
    """(field path, rest) of a plugin's problem that starts with a scenario field path
    and a colon, so it is reported at that field's line; ((), message) otherwise."""
    found = _LEADING_PATH.match(message)
    if not found or found.group(1).split(".")[0].split("[")[0] not in Scenario.model_fields:
        return (), message
    path: list[str | int] = []
    for part in found.group(1).split("."):
        name, *items = part.split("[")
        path += [name, *(int(item.rstrip("]")) for item in items)]
    return tuple(path), found.group(2)


CHECKS: tuple[Callable[[Checker], None], ...] = (
    _horizon,
    _sites,
    check_weather,
    _links,
    _training,
    check_jobs,
    _workload_names,
    _inference,
    check_services,
    _sla,
    _capacity,
    check_build_options,
    check_grid_prices,
    check_price_levels,
    check_carbon_bases,
    check_periods,
    check_extensions,
    _plugins,
)
