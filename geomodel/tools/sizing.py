"""Sizing: N chips -> whole systems -> racks -> IT and facility MW -> sites.

One row per hardware system, so scale-up (NVL72, CloudMatrix 384) and
scale-out (8-chip servers) designs for the same chip count sit side by side.
Power is at load (``active_power_kw_per_chip``, which already includes each
chip's share of host, switch and fan power); facility power is IT power x PUE.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from geomodel.catalog.entries import HardwareSystem
from geomodel.tools.checks import at_least, positive, positive_int

#: Default power usage effectiveness: modern air cooling with economiser or
#: direct liquid cooling (1.08-1.35 [estimate]); the industry average is ~1.56
#: (Uptime Institute's 2024 survey).
DEFAULT_PUE = 1.2

#: Default site envelope in facility MW: the order of a large 2025 AI campus
#: phase (Colossus 1 ~150 MW, Stargate Abilene phase 1 ~200 MW; press reports of
#: 2025: thebatterywire, TechCrunch, DCD).
DEFAULT_SITE_MW = 300.0

# Guards whole-number rounding against float noise (30 x 0.1 racks is 3, not 4).
_EPS = 1e-9


@dataclass(frozen=True)
class SystemSizing:
    """What N chips of one hardware system take: counts, power, sites, capex."""

    system: str  #: catalogue name
    display_name: str
    chips_requested: int
    chips_per_system: int
    scale_up_domain_chips: int  #: chips on one high-bandwidth bus (8, 72, 384, ...)
    systems: int  #: whole systems to buy
    chips_installed: int  #: systems x chips per system (>= chips requested)
    racks: int
    scale_up_domains: int  #: domains the scale-out network has to join
    bf16_dense_eflops: float  #: of the installed chips
    it_mw: float  #: installed chips at load
    facility_mw: float  #: IT MW x PUE
    bf16_dense_pflops_per_facility_mw: float
    pue: float
    site_mw: float | None  #: facility MW one site can take
    systems_per_site: int | None  #: whole systems that fit one site
    sites: int | None  #: sites needed; None when one system exceeds a site
    capex_usd: float | None  #: systems x list price, None when not catalogued
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def whole(value: float) -> int:
    """Round up to a whole number, ignoring float noise below 1e-9."""
    return max(0, math.ceil(value - _EPS))


def size_cluster(
    system: HardwareSystem,
    chips: int,
    pue: float = DEFAULT_PUE,
    site_mw: float | None = DEFAULT_SITE_MW,
) -> SystemSizing:
    """Size a cluster of at least ``chips`` chips built from ``system``.

    Systems are bought whole, so ``chips_installed`` may exceed ``chips``; every
    figure after that is for the installed chips. Sites are filled with whole
    systems: ``sites = ceil(systems / floor(site_mw / facility MW per system))``.
    """
    chips = positive_int(chips, "chips")
    pue = at_least(pue, 1.0, "pue")
    if site_mw is not None:
        site_mw = positive(site_mw, "site_mw")

    systems = whole(chips / system.chips_per_system)
    installed = systems * system.chips_per_system
    it_mw = installed * system.active_power_kw_per_chip / 1000.0
    facility_mw = it_mw * pue
    eflops = installed * system.bf16_dense_pflops_per_chip / 1000.0

    systems_per_site = sites = None
    note = ""
    if site_mw is not None:
        system_facility_mw = system.power_kw_per_system * pue / 1000.0
        systems_per_site = math.floor(site_mw / system_facility_mw + _EPS)
        if systems_per_site == 0:
            note = (
                f"one system needs {system_facility_mw:.3g} MW facility power, "
                f"more than a {site_mw:g} MW site"
            )
        else:
            sites = whole(systems / systems_per_site)

    capex = systems * system.capex_usd_per_system if system.capex_usd_per_system is not None else None
    return SystemSizing(
        system=system.name,
        display_name=system.system,
        chips_requested=chips,
        chips_per_system=system.chips_per_system,
        scale_up_domain_chips=system.scale_up_domain_chips,
        systems=systems,
        chips_installed=installed,
        racks=whole(systems * system.racks_per_system),
        scale_up_domains=whole(installed / system.scale_up_domain_chips),
        bf16_dense_eflops=eflops,
        it_mw=it_mw,
        facility_mw=facility_mw,
        bf16_dense_pflops_per_facility_mw=eflops * 1000.0 / facility_mw,
        pue=pue,
        site_mw=site_mw,
        systems_per_site=systems_per_site,
        sites=sites,
        capex_usd=capex,
        note=note,
    )


def compare_systems(
    systems: Iterable[HardwareSystem],
    chips: int,
    pue: float = DEFAULT_PUE,
    site_mw: float | None = DEFAULT_SITE_MW,
) -> list[SystemSizing]:
    """:func:`size_cluster` for each system, in the order given."""
    return [size_cluster(system, chips, pue=pue, site_mw=site_mw) for system in systems]
