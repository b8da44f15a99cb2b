"""Checks of a scenario's grid signals: price terms, price levels and carbon bases.

Part of :data:`geomodel.scenario.checks.CHECKS`; each adds problems to the checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from geomodel.catalog import PowerSource
    from geomodel.scenario.checker import Checker
    from geomodel.scenario.schema import Site


def _grids(c: Checker) -> dict[str, PowerSource]:
    return {name: s for name, s in c.catalog.power_sources.items() if s.kind == "grid"}


def check_grid_prices(c: Checker) -> None:
    """Every region in ``signals.grid_prices`` is a known grid region some site draws from."""
    grids = _grids(c)
    used = {site.grid for site in c.scenario.sites.values()}
    for name in c.scenario.signals.grid_prices:
        path = ("signals", "grid_prices", name)
        if c.known(path, name, grids, "grid region") and name not in used:
            c.add(path, f"no site draws from {name!r}: these price terms change nothing", warning=True)


def price_level(source: PowerSource) -> str:
    """``retail`` when the region's price plus its default adder is a consumer's bill,
    ``wholesale`` when it is wholesale with no adder, ``unknown`` when it does not say."""
    if source.price_adder_usd_per_mwh != 0:
        return "retail"
    if source.price_basis.startswith("wholesale"):
        return "wholesale"
    return "retail" if source.price_basis.startswith("industrial") else "unknown"


def _sets_own_price(c: Checker, site: Site) -> bool:
    own = site.grid_price
    region = c.scenario.signals.grid_prices.get(site.grid)
    return (own is not None and (own.given or own.adder is not None)) or (
        region is not None and region.adder is not None
    )


def check_price_levels(c: Checker) -> None:
    """Warn when some sites pay a retail-level price and others wholesale only.

    Built-in regions where the industrial retail price is known carry a default adder
    that brings wholesale up to it; others are wholesale only. Comparing the two
    flatters the wholesale sites by the network charges and levies they leave out.
    """
    grids = _grids(c)
    levels: dict[str, list[str]] = {"retail": [], "wholesale": []}
    for name, site in c.scenario.sites.items():
        source = grids.get(site.grid) if site.grid is not None else None
        if source is None or _sets_own_price(c, site):
            continue
        level = price_level(source)
        if level in levels:
            levels[level].append(f"{name} ({site.grid})")
    if levels["retail"] and levels["wholesale"]:
        c.add(
            ("sites",),
            f"grid prices are not like for like: {', '.join(levels['retail'])} pay industrial "
            f"retail (wholesale + the region's default adder, or a retail figure) while "
            f"{', '.join(levels['wholesale'])} pay wholesale only; set an adder in "
            "signals.grid_prices or the site's grid_price (docs/catalogues.md, 'Price')",
            warning=True,
        )


def check_carbon_bases(c: Checker) -> None:
    """Warn for each source whose carbon is known only in the other basis than the scenario's."""
    basis = c.scenario.signals.carbon_basis
    sources = c.catalog.power_sources
    for name, site in c.scenario.sites.items():
        used = [] if site.grid is None or site.grid_carbon is not None else [("grid", site.grid)]
        used += [
            ("power_sources", source)
            for source, supply in site.power_sources.items()
            if supply.carbon is None
        ]
        for field, source_name in used:
            source = sources.get(source_name)
            if source is None or source.carbon_in(basis) is not None:
                continue
            path = ("sites", name, field) if field == "grid" else ("sites", name, field, source_name)
            c.add(
                path,
                f"{source_name!r} knows only {source.carbon_basis} carbon, but the scenario counts "
                f"{basis} (signals.carbon_basis): its {source.carbon_basis} figure is used as is",
                warning=True,
            )
