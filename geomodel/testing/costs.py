"""Conformance checks of build costs: what each prices, once, in a unit it can be priced in,
at a plausible magnitude.

A plugin prices its own entries (docs/plugins.md, ``register_build_costs``); these checks
catch a cost that applies to nothing, to an entry of another kind (a per-MW cost for a
hardware system), to an asset another entry already prices in the same unit, or whose
figure is off by the factor of a unit slip (USD/kW given as USD/MW).
"""

from __future__ import annotations

from collections.abc import Iterable

from geomodel.catalog import GENERIC_ASSETS, BuildCost, Catalog
from geomodel.testing.results import CheckResult

KIND = "build costs"

#: unit -> catalogue kinds (or generic assets) an entry in that unit may price
PRICEABLE: dict[str, tuple[str, ...]] = {
    "system": ("hardware systems",),
    "MW": ("power sources", "facility", "grid_connection", "battery_power"),
    "MW_IT": ("facility",),
    "MWh": ("battery_energy",),
    "site": ("site",),
    "km": ("link technologies",),
    "pair_km": ("link technologies",),
    "pair": ("link technologies",),
    "pair_span": ("link technologies",),
    "module": ("link technologies",),
}
#: unit -> plausible capex per unit, USD (low, high): outside it a unit slip is likely
PLAUSIBLE_CAPEX: dict[str, tuple[float, float]] = {
    "system": (1e3, 1e9),
    "MW": (1e4, 1e8),
    "MW_IT": (1e5, 1e9),
    "MWh": (1e3, 1e7),
    "km": (1e2, 1e8),
    "pair_km": (1.0, 1e6),
    "pair": (1e2, 1e9),
    "pair_span": (1e2, 1e8),
    "module": (10.0, 1e7),
}
#: unit -> (factor, what the figure was probably given in)
SLIPS: dict[str, tuple[tuple[float, str], ...]] = {
    "MW": ((1e3, "USD/kW"), (1e6, "USD/W")),
    "MW_IT": ((1e3, "USD/kW"), (1e6, "USD/W")),
    "MWh": ((1e3, "USD/kWh"),),
    "system": ((1e3, "thousand USD"), (1e6, "million USD")),
}


def _kind_of(name: str, catalog: Catalog) -> str | None:
    if name in GENERIC_ASSETS:
        return name
    for kind in ("hardware systems", "power sources", "link technologies"):
        entries = catalog.entries(kind)
        if name in entries and not (kind == "power sources" and entries[name].kind == "grid"):
            return kind
    return None


def check_build_costs(own: Iterable[BuildCost], catalog: Catalog, plugin: str) -> list[CheckResult]:
    """``cost-applies-to``, ``cost-applies-once`` and ``cost-magnitude`` for each own entry."""
    results = []
    others = [entry for entry in catalog.build_costs.values()]
    for entry in own:

        def result(check: str, field: str, passed: bool, message: str, entry=entry) -> CheckResult:
            return CheckResult(check, plugin, entry.name, field, passed, message, KIND)

        for asset in entry.applies_to:
            kind = _kind_of(asset, catalog)
            if kind is None:
                generic = ", ".join(GENERIC_ASSETS)
                message = (
                    f"applies_to names {asset!r}: no hardware system, power source (not a grid) "
                    f"or link technology of that name is loaded, nor is it a generic asset ({generic})"
                )
                results.append(result("cost-applies-to", "applies_to", False, message))
            elif kind not in PRICEABLE[entry.unit]:
                message = (
                    f"a cost per {entry.unit} cannot price {asset!r} ({kind}); "
                    f"a {entry.unit} cost prices {' or '.join(PRICEABLE[entry.unit])}"
                )
                results.append(result("cost-applies-to", "unit", False, message))
            else:
                results.append(
                    result("cost-applies-to", "applies_to", True, f"prices {asset!r} ({kind})")
                )
            rivals = sorted(
                other.name
                for other in others
                if other.name != entry.name and asset in other.applies_to and other.unit == entry.unit
            )
            if rivals:
                message = (
                    f"{asset!r} is also priced per {entry.unit} by {', '.join(rivals)}; the first by "
                    f"name is used unless a scenario names one (cost: NAME)"
                )
                results.append(result("cost-applies-once", "applies_to", False, message))
        results.append(_magnitude(entry, result))
    return results


def _magnitude(entry: BuildCost, result) -> CheckResult:
    capex = entry.capex_usd_per_unit
    band = PLAUSIBLE_CAPEX.get(entry.unit)
    if capex is None or band is None or capex == 0:
        return result("cost-magnitude", "capex_usd_per_unit", True, "no capex to judge")
    low, high = band
    if low <= capex <= high:
        return result("cost-magnitude", "capex_usd_per_unit", True, f"{capex:g} USD per {entry.unit}")
    hint = ""
    for factor, what in SLIPS.get(entry.unit, ()):
        if low <= capex * factor <= high:
            hint = f"; {capex:g} looks like {what}: that is {capex * factor:g} USD per {entry.unit}"
            break
    message = (
        f"capex_usd_per_unit = {capex:g} USD per {entry.unit} is outside the plausible "
        f"[{low:g}, {high:g}]{hint}"
    )
    return result("cost-magnitude", "capex_usd_per_unit", False, message)


#: catalogue kind -> (cost units that price it, the asset class to suggest)
BUILDABLE: dict[str, tuple[tuple[tuple[str, ...], ...], str]] = {
    "hardware systems": ((("system",),), "systems"),
    "power sources": ((("MW",),), ""),
    "link technologies": ((("pair_km",), ("pair", "pair_span", "module")), ""),
}


def _priced(name: str, units: tuple[str, ...], costs: list[BuildCost]) -> bool:
    return any(name in cost.applies_to and cost.unit in units for cost in costs)


def check_buildable(own: dict[str, list], catalog: Catalog, plugin: str) -> list[CheckResult]:
    """``buildable`` for each hardware system, generator and link technology of the plugin:
    a build cost of any loaded plugin applies to it, or a warning saying what to register
    (planning mode cannot build it otherwise without the scenario's own figures)."""
    costs = list(catalog.build_costs.values())
    results = []
    for kind, (needs, suggested) in BUILDABLE.items():
        for entry in own.get(kind, []):
            if kind == "power sources" and entry.kind == "grid":
                continue
            missing = [units for units in needs if not _priced(entry.name, units, costs)]
            if not missing:
                priced = sorted(c.name for c in costs if entry.name in c.applies_to)
                message = f"priced for planning by {', '.join(priced)}"
                results.append(CheckResult("buildable", plugin, entry.name, "", True, message, kind))
                continue
            asset_class = suggested or ("fibre" if missing[0] == ("pair_km",) else entry.kind)
            if kind == "link technologies" and missing[0] != ("pair_km",):
                asset_class = "dci_equipment"
            has_capex = getattr(entry, "capex_usd_per_system", None) is not None
            give = "" if has_capex else "its capex and "
            message = (
                f"no build cost applies to {entry.name!r} (unit {' or '.join(missing[0])}), so a "
                f"scenario that builds it must give {give}finance.lifetimes.{asset_class}; "
                f"register one: register_build_costs returning BuildCost(asset_class="
                f"{asset_class!r}, unit={missing[0][0]!r}, applies_to=[{entry.name!r}], ...)"
            )
            results.append(
                CheckResult("buildable", plugin, entry.name, "", True, message, kind, warning=True)
            )
    return results
