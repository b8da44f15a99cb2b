"""Checks of a scenario's build options (planning mode) against the catalogue.

Every problem names its field: an option for a system or source the catalogue lacks, a
maximum below what is installed, a route candidate between unknown sites, an option
whose cost or lifetime cannot be found, a lifetime for an asset class nothing uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from geomodel.errors import closest_names
from geomodel.scenario.build_options import known_links, plans_anything, resolve_build_options
from geomodel.scenario.schema import CORE_ASSET_CLASSES

if TYPE_CHECKING:
    from geomodel.scenario.checks import Checker

#: fields of a source build option that only a source the site does not list may set
SUPPLY_FIELDS = ("price", "carbon", "profile_csv")


def check_build_options(c: Checker) -> None:
    """Names, limits, costs and lifetimes of every build option."""
    _empty_envelopes(c)
    _lifetime_classes(c)
    if not plans_anything(c.scenario):
        return
    _site_options(c)
    _candidates(c)
    for path, message in resolve_build_options(c.scenario, c.catalog)[1]:
        c.add(path, message)


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
    known = set(CORE_ASSET_CLASSES)
    known |= {entry.asset_class for entry in c.catalog.build_costs.values()}
    known |= {source.kind for source in c.catalog.power_sources.values() if source.kind != "grid"}
    for asset_class in c.scenario.finance.lifetimes:
        if asset_class not in known:
            close = closest_names(asset_class, sorted(known))
            hint = f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(sorted(known))}"
            c.add(("finance", "lifetimes", asset_class), f"unknown asset class {asset_class!r}; {hint}")
