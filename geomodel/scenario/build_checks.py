"""Checks of a scenario's build options (planning mode) against the catalogue.

Every problem names its field: an option for a system or source the catalogue lacks, a
maximum below what is installed, a route candidate between unknown sites, an option
whose cost or lifetime cannot be found, a lifetime for an asset class nothing uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geomodel.catalog import Catalog
from geomodel.errors import closest_names
from geomodel.scenario.build_options import (
    POWER_UNITS,
    first_applying,
    known_links,
    plans_anything,
    resolve_build_options,
)
from geomodel.scenario.schema import CORE_ASSET_CLASSES

if TYPE_CHECKING:
    from geomodel.scenario.checker import Checker

#: fields of a source build option that only a source the site does not list may set
SUPPLY_FIELDS = ("price", "carbon", "profile_csv")


def check_build_options(c: Checker) -> None:
    """Names, limits, costs and lifetimes of every build option."""
    _empty_envelopes(c)
    if plans_anything(c.scenario):
        _site_options(c)
        _candidates(c)
        for path, message in resolve_build_options(c.scenario, c.catalog)[1]:
            c.add(path, message)
    _lifetime_classes(c)


def _empty_envelopes(c: Checker) -> None:
    """An envelope of 0 MW is a site yet to be built: it needs build.power_envelope."""
    for name, site in c.scenario.sites.items():
        if site.power_envelope == 0 and (site.build is None or site.build.power_envelope is None):
            c.add(
                ("sites", name, "power_envelope"),
                "must be greater than 0 MW (0 only for a site whose build.power_envelope adds it)",
                0,
            )


def _site_options(c: Checker) -> None:
    generators = {n: s for n, s in c.catalog.power_sources.items() if s.kind != "grid"}
    for name, site in c.scenario.sites.items():
        build = site.build
        if build is None:
            continue
        base = ("sites", name, "build")
        if build.new_site:
            installed = sorted(system for system, count in site.systems.items() if count > 0)
            if installed:
                c.add(
                    (*base, "new_site"),
                    f"a new site has nothing installed, but sites.{name}.systems lists "
                    f"{', '.join(installed)}",
                )
        for system, option in build.systems.items():
            path = (*base, "systems", system)
            if not c.known(path, system, c.catalog.hardware, "hardware system"):
                continue
            installed = site.systems.get(system, 0)
            if option.max < installed:
                c.add(
                    (*path, "max"),
                    f"max {option.max} systems is below the {installed} installed "
                    f"(sites.{name}.systems.{system}); max is the most the site may hold, "
                    f"installed plus built",
                    option.max,
                )
        if build.power_envelope is not None and build.power_envelope.max < site.power_envelope:
            c.add(
                (*base, "power_envelope", "max"),
                f"max {build.power_envelope.max:g} MW is below the installed power envelope "
                f"{site.power_envelope:g} MW; max is installed plus built",
                build.power_envelope.max,
            )
        for source, option in build.power_sources.items():
            path = (*base, "power_sources", source)
            if not c.known(path, source, generators, "power source"):
                continue
            supply = site.power_sources.get(source)
            if supply is None:
                continue
            if option.max < supply.capacity:
                c.add(
                    (*path, "max"),
                    f"max {option.max:g} MW is below the installed {supply.capacity:g} MW "
                    f"(sites.{name}.power_sources.{source}); max is installed plus built",
                    option.max,
                )
            for field in SUPPLY_FIELDS:
                if getattr(option, field) is not None:
                    c.add(
                        (*path, field),
                        f"built {source} shares the {field.split('_')[0]} of the installed "
                        f"{source}: set it on sites.{name}.power_sources.{source}",
                    )


def _candidates(c: Checker) -> None:
    """A candidate on a linked pair holds at least the pairs lit (names: checks._links)."""
    links = known_links(c.scenario, c.catalog)
    for index, candidate in enumerate(c.scenario.links.candidates):
        link = links.get(frozenset(candidate.sites))
        if link is not None and candidate.max_pairs < link.fibre_pairs:
            c.add(
                ("links", "candidates", index, "max_pairs"),
                f"max_pairs {candidate.max_pairs} is below the {link.fibre_pairs} pairs lit on the "
                f"existing link; max_pairs is lit plus built",
                candidate.max_pairs,
            )


def _lifetime_classes(c: Checker) -> None:
    """Each ``finance.lifetimes`` class must be one a lifetime can apply to (a core class,
    a cost entry's ``asset_class``, or the kind of a source no cost entry prices), and, in a
    scenario that builds, one its build options use: else the override changes nothing."""
    lifetimes = c.scenario.finance.lifetimes
    if not lifetimes:
        return
    known = lifetime_classes(c.catalog)
    planning = plans_anything(c.scenario)
    used = resolve_build_options(c.scenario, c.catalog)[0].asset_classes if planning else set()
    # an option left out for a problem of its own may be the one a lifetime is for
    options_broken = any(
        p.severity == "error" and (".build" in p.path or p.path.startswith("links.candidates"))
        for p in c.problems
    )
    for asset_class in lifetimes:
        path = ("finance", "lifetimes", asset_class)
        if asset_class not in known:
            close = closest_names(asset_class, sorted(known))
            hint = f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(sorted(known))}"
            c.add(path, f"unknown asset class {asset_class!r}; {hint}{_priced_as(c, asset_class)}")
        elif not planning:
            c.add(
                path,
                "the scenario builds nothing (no build options), so this lifetime changes nothing",
                warning=True,
            )
        elif asset_class not in used and not options_broken:
            c.add(
                path,
                f"no build option of this scenario is priced under asset class {asset_class!r}, "
                f"so this lifetime would change nothing; its options use "
                f"{', '.join(sorted(used)) or 'none (nothing may be built)'}"
                f"{_priced_as(c, asset_class)}",
            )


def lifetime_classes(catalog: Catalog) -> set[str]:
    """Every asset class a lifetime can apply to with this catalogue."""
    known = set(CORE_ASSET_CLASSES) | {e.asset_class for e in catalog.build_costs.values()}
    known |= {
        source.kind
        for name, source in catalog.power_sources.items()
        if source.kind != "grid"
        and first_applying(catalog.build_costs.values(), name, POWER_UNITS) is None
    }
    return known


def _priced_as(c: Checker, kind: str) -> str:
    """For a source kind: the classes its sources' cost entries put them in."""
    classes = {
        entry.asset_class: name
        for name, source in c.catalog.power_sources.items()
        if source.kind == kind
        and (entry := first_applying(c.catalog.build_costs.values(), name, POWER_UNITS)) is not None
        and entry.asset_class != kind
    }
    if not classes:
        return ""
    listed = ", ".join(
        f"{source!r} (kind {kind}) is priced under {cls!r}" for cls, source in sorted(classes.items())
    )
    return f" ({listed}: set finance.lifetimes.{min(classes)})"
