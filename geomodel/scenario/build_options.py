"""Build options of a scenario resolved against the cost catalogue (docs/planning.md).

Each option gets its limits and what one unit of it costs: overnight capex, the yearly
annuity of that capex (capital recovery factor of the finance section's discount rate
and the asset class's lifetime) and fixed O&M a year. A cost the scenario leaves out
comes from the catalogue entry that applies to the asset; every cost that cannot be
found is a problem with the path of the option, so scenario checks report it with the
file and line, and the inputs builder reads the same resolution.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from geomodel.catalog import BuildCost, Catalog, LinkTechnology
from geomodel.geo import Location, geodesic_km
from geomodel.inputs.annuity import capital_recovery_factor
from geomodel.scenario.network import Link, scenario_links
from geomodel.scenario.problems import Path
from geomodel.scenario.schema import Finance, Scenario, Site
from geomodel.tools.dci import regenerators

#: generic asset (and asset class) of a site's substation and grid connection, per MW
GRID_CONNECTION = "grid_connection"
#: cost unit(s) each kind of option may be priced with
SYSTEM_UNITS = ("system",)
POWER_UNITS = ("MW",)
FACILITY_UNITS = ("MW", "MW_IT")
ENERGY_UNITS = ("MWh",)
SITE_UNITS = ("site",)
#: link costs: fibre per pair-km, equipment per pair, per pair and span, per module
FIBRE_UNITS = ("pair_km",)
EQUIPMENT_UNITS = ("pair", "pair_span", "module")


@dataclass(frozen=True)
class UnitCost:
    """What one unit of a build option costs, USD: overnight, its yearly annuity, fixed O&M."""

    capex_usd: float = 0.0
    annuity_usd_per_year: float = 0.0
    fixed_om_usd_per_year: float = 0.0

    def __add__(self, other: UnitCost) -> UnitCost:
        return UnitCost(
            self.capex_usd + other.capex_usd,
            self.annuity_usd_per_year + other.annuity_usd_per_year,
            self.fixed_om_usd_per_year + other.fixed_om_usd_per_year,
        )

    def times(self, factor: float) -> UnitCost:
        return UnitCost(
            self.capex_usd * factor,
            self.annuity_usd_per_year * factor,
            self.fixed_om_usd_per_year * factor,
        )

    @property
    def usd_per_year(self) -> float:
        """Annuity plus fixed O&M: what one unit costs a year."""
        return self.annuity_usd_per_year + self.fixed_om_usd_per_year


@dataclass(frozen=True)
class Option:
    """One build option: most that may be added (in its unit) and the cost of a unit."""

    installed: float
    most: float  #: installed plus built, at most
    cost: UnitCost

    @property
    def buildable(self) -> float:
        return max(self.most - self.installed, 0.0)


@dataclass(frozen=True)
class SourceOption(Option):
    price_usd_per_mwh: float | None = None  #: energy price of built capacity (None: catalogue)
    #: finance class whose lifetime prices it: its cost entry's, else the source's kind
    asset_class: str = ""


@dataclass(frozen=True)
class BatteryOption:
    power: Option  #: MW
    energy: Option  #: MWh
    efficiency: float
    cycle_cost_usd_per_mwh: float


@dataclass(frozen=True)
class LinkOption(Option):
    """Fibre pairs of one route; ``installed`` pairs are those of an existing link."""

    site_a: str = ""
    site_b: str = ""
    technology: LinkTechnology | None = None
    length_km: float = 0.0


@dataclass
class BuildPlan:
    """Every build option of a scenario, resolved; empty when the scenario builds nothing."""

    systems: dict[tuple[str, str], Option] = field(default_factory=dict)
    envelopes: dict[str, Option] = field(default_factory=dict)
    sources: dict[tuple[str, str], SourceOption] = field(default_factory=dict)
    batteries: dict[str, BatteryOption] = field(default_factory=dict)
    openings: dict[str, UnitCost] = field(default_factory=dict)
    links: dict[frozenset[str], LinkOption] = field(default_factory=dict)
    lifetimes: dict[str, float] = field(default_factory=dict)  #: class -> years used
    #: the asset classes options that may be built are priced under (a lifetime applies)
    asset_classes: set[str] = field(default_factory=set)

    @property
    def empty(self) -> bool:
        return not (
            self.systems
            or self.envelopes
            or self.sources
            or self.batteries
            or self.openings
            or self.links
        )


def plans_anything(scenario: Scenario) -> bool:
    """True when the scenario has any build option or route candidate."""
    return bool(scenario.links.candidates) or any(s.build is not None for s in scenario.sites.values())


@dataclass
class _Resolver:
    scenario: Scenario
    catalog: Catalog
    plan: BuildPlan = field(default_factory=BuildPlan)
    problems: list[tuple[Path, str]] = field(default_factory=list)

    @property
    def finance(self) -> Finance:
        return self.scenario.finance

    def entry(
        self, path: Path, asset: str, units: tuple[str, ...], named: str | None
    ) -> BuildCost | None:
        """The cost entry named for the option, else the one that applies to ``asset``."""
        costs = self.catalog.build_costs
        if named is not None:
            entry = costs.get(named)
            if entry is None:
                known = ", ".join(sorted(costs)) or "none loaded"
                self.problems.append(((*path, "cost"), f"unknown cost entry {named!r}; known: {known}"))
            elif entry.unit not in units:
                self.problems.append(
                    (
                        (*path, "cost"),
                        f"cost entry {named!r} is priced per {entry.unit}; this option needs "
                        f"a cost per {' or '.join(units)}",
                    )
                )
                return None
            return entry
        return first_applying(costs.values(), asset, units)

    def lifetime(
        self, path: Path, asset_class: str, entry: BuildCost | None, hint: str = ""
    ) -> float | None:
        """The finance section's lifetime of the class, else the entry's."""
        years = self.finance.lifetimes.get(asset_class)
        if years is None and entry is not None:
            years = entry.lifetime_years
        if years is None:
            self.problems.append(
                (
                    path,
                    f"no lifetime known for asset class {asset_class!r}: "
                    f"give finance.lifetimes.{asset_class}{hint}",
                )
            )
            return None
        self.plan.lifetimes[asset_class] = years
        return years

    def unit_cost(
        self,
        path: Path,
        what: str,
        entry: BuildCost | None,
        capex: float | None,
        fixed_om: float | None,
        asset_class: str,
        capex_factor: float = 1.0,
        capex_field: str = "capex",
        room: float = 1.0,
        priced: tuple[str, str, str] | None = None,
    ) -> UnitCost:
        """Cost of one unit at option ``path``; ``capex_factor`` converts the entry's unit
        (MW_IT -> MW); ``capex_field`` is the option's field a user would give. An option
        with no ``room`` to build (its maximum is what is installed) needs no cost.
        ``priced`` is the (catalogue kind, name, cost unit) of a catalogue entry being
        priced: without a cost entry, a problem also tells its plugin what to register."""
        if room <= 0:
            return UnitCost()
        if capex is None and entry is not None and entry.capex_usd_per_unit is not None:
            capex = entry.capex_usd_per_unit * capex_factor
        if fixed_om is None:
            fixed_om = entry.fixed_om_usd_per_unit_year * capex_factor if entry is not None else 0.0
        asset_class = entry.asset_class if entry is not None else asset_class
        self.plan.asset_classes.add(asset_class)
        hint = self.register_hint(priced, asset_class) if entry is None and priced else ""
        if capex is None:
            self.problems.append(
                (path, f"no capex known for {what} in the cost catalogue: give {capex_field}{hint}")
            )
            return UnitCost()
        if capex == 0:  # nothing to spread over a lifetime
            return UnitCost(0.0, 0.0, fixed_om)
        years = self.lifetime(path, asset_class, entry, hint)
        if years is None:
            return UnitCost()
        annuity = capex * capital_recovery_factor(self.finance.discount_rate, years)
        return UnitCost(capex, annuity, fixed_om)

    def register_hint(self, priced: tuple[str, str, str], asset_class: str) -> str:
        """What the plugin of a catalogue entry no build cost prices should register."""
        kind, name, unit = priced
        plugin = self.catalog.provider.get((kind, name))
        info = self.catalog.plugins.get(plugin) if plugin else None
        whose = f"plugin {plugin!r} (distribution {info.distribution})" if info else "its plugin"
        return (
            f"; no build cost in the catalogue applies to {name!r}, so {whose} should register "
            f"one: hook register_build_costs returning a BuildCost with asset_class "
            f"{asset_class!r}, unit {unit!r} and applies_to [{name!r}] (docs/plugins.md)"
        )


def design_pue(site: Site) -> float:
    """The PUE a facility MW is built for: the constant PUE, or a weather curve's design PUE."""
    return site.effective_pue if site.effective_pue is not None else site.pue_curve.pue_design


def first_applying(entries: Iterable[BuildCost], asset: str, units: tuple[str, ...]) -> BuildCost | None:
    """The first entry (by name) that applies to ``asset`` in one of ``units``."""
    found = sorted(
        (e for e in entries if asset in e.applies_to and e.unit in units), key=lambda e: e.name
    )
    return found[0] if found else None


def resolve_build_options(
    scenario: Scenario, catalog: Catalog
) -> tuple[BuildPlan, list[tuple[Path, str]]]:
    """The scenario's build options with limits and unit costs, and every problem found.

    Names unknown to the catalogue are left to the scenario checks (they report them
    with the closest names); such options are skipped here.
    """
    resolver = _Resolver(scenario, catalog)
    for name, site in scenario.sites.items():
        if site.build is not None:
            _site_options(resolver, name, site)
    _link_options(resolver)
    return resolver.plan, resolver.problems


def _site_options(r: _Resolver, name: str, site: Site) -> None:
    build = site.build
    base: Path = ("sites", name, "build")
    for system, option in build.systems.items():
        spec = r.catalog.hardware.get(system)
        if spec is None:
            continue
        path = (*base, "systems", system)
        entry = r.entry(path, system, SYSTEM_UNITS, option.cost)
        capex = option.capex if option.capex is not None else spec.capex_usd_per_system
        installed = float(site.systems.get(system, 0))
        cost = r.unit_cost(
            path,
            f"system {system!r}",
            entry,
            capex,
            option.fixed_om,
            "systems",
            room=option.max - installed,
            priced=("hardware systems", system, "system"),
        )
        r.plan.systems[name, system] = Option(installed, float(option.max), cost)
    if build.power_envelope is not None:
        option = build.power_envelope
        cost = _envelope_cost(r, name, site, room=option.max - site.power_envelope)
        r.plan.envelopes[name] = Option(site.power_envelope, option.max, cost)
    for source, option in build.power_sources.items():
        spec = r.catalog.power_sources.get(source)
        if spec is None or spec.kind == "grid":
            continue
        path = (*base, "power_sources", source)
        entry = r.entry(path, source, POWER_UNITS, option.cost)
        supply = site.power_sources.get(source)
        installed = supply.capacity if supply is not None else 0.0
        asset_class = entry.asset_class if entry is not None else spec.kind
        cost = r.unit_cost(
            path,
            f"power source {source!r}",
            entry,
            option.capex,
            option.fixed_om,
            asset_class,
            room=option.max - installed,
            priced=("power sources", source, "MW"),
        )
        price = option.price
        if price is None and supply is None and entry is not None:
            price = entry.variable_cost_usd_per_mwh
        r.plan.sources[name, source] = SourceOption(installed, option.max, cost, price, asset_class)
    if build.battery is not None:
        battery = build.battery
        power_path, energy_path = (*base, "battery", "power"), (*base, "battery", "energy")
        power_entry = r.entry(power_path, "battery_power", POWER_UNITS, battery.power.cost)
        energy_entry = r.entry(energy_path, "battery_energy", ENERGY_UNITS, battery.energy.cost)
        power_cost = r.unit_cost(
            power_path,
            "battery power",
            power_entry,
            battery.power.capex,
            battery.power.fixed_om,
            "battery",
            room=battery.power.max,
        )
        energy_cost = r.unit_cost(
            energy_path,
            "battery energy",
            energy_entry,
            battery.energy.capex,
            battery.energy.fixed_om,
            "battery",
            room=battery.energy.max,
        )
        r.plan.batteries[name] = BatteryOption(
            Option(0.0, battery.power.max, power_cost),
            Option(0.0, battery.energy.max, energy_cost),
            battery.efficiency,
            battery.cycle_cost,
        )
    if build.new_site:
        path = (*base, "new_site")
        entry = r.entry(path, "site", SITE_UNITS, None)
        r.plan.openings[name] = r.unit_cost(
            path, "opening a site", entry, build.open_cost, None, "site", capex_field="open_cost"
        )


def _envelope_cost(r: _Resolver, name: str, site: Site, room: float) -> UnitCost:
    """One MW of facility power at a site: the hall, and where the site draws on a grid
    and the option gives no capex of its own, the substation and grid connection."""
    option = site.build.power_envelope if site.build is not None else None
    path: Path = ("sites", name, "build", "power_envelope")
    entry = r.entry(path, "facility", FACILITY_UNITS, option.cost if option else None)
    per_it_mw = entry is not None and entry.unit == "MW_IT"
    factor = 1.0 / design_pue(site) if per_it_mw else 1.0
    capex = option.capex if option else None
    fixed_om = option.fixed_om if option else None
    hall = r.unit_cost(
        path, "facility power", entry, capex, fixed_om, "facility", capex_factor=factor, room=room
    )
    if site.grid is None or capex is not None:
        return hall
    connection = r.entry(path, GRID_CONNECTION, POWER_UNITS, None)
    if connection is None:
        return hall
    return hall + r.unit_cost(
        path, "grid connection", connection, None, None, GRID_CONNECTION, room=room
    )


def facility_unit_cost(scenario: Scenario, catalog: Catalog, name: str) -> UnitCost:
    """What one MW of facility power at site ``name`` costs, as planning would price it
    (the problems of a planned envelope are the build checks' to report)."""
    return _envelope_cost(_Resolver(scenario, catalog), name, scenario.sites[name], room=1.0)


def known_links(scenario: Scenario, catalog: Catalog) -> dict[frozenset[str], Link]:
    """The scenario's links by site pair; none when a name in them is unknown (the link
    checks report it)."""
    try:
        links = scenario_links(scenario, catalog)
    except KeyError:  # UnknownNameError of a technology, or an unknown site
        return {}
    return {frozenset((link.site_a, link.site_b)): link for link in links}


def _link_options(r: _Resolver) -> None:
    scenario = r.scenario
    existing = known_links(scenario, r.catalog)
    for index, candidate in enumerate(scenario.links.candidates):
        technology = r.catalog.links.get(candidate.technology)
        a, b = candidate.sites
        if technology is None or a not in scenario.sites or b not in scenario.sites:
            continue
        path: Path = ("links", "candidates", index)
        link = existing.get(frozenset((a, b)))
        if link is not None:
            if link.technology.name != technology.name:
                r.problems.append(
                    (
                        (*path, "technology"),
                        f"{a} and {b} are linked with {link.technology.name!r}; a candidate adds "
                        f"pairs of the same technology",
                    )
                )
                continue
            length, installed = link.length_km, float(link.fibre_pairs)
        elif candidate.length is not None:
            length, installed = candidate.length, 0.0
        else:
            sites = scenario.sites
            distance = geodesic_km(
                Location(lat=sites[a].lat, lon=sites[a].lon),
                Location(lat=sites[b].lat, lon=sites[b].lon),
            )
            length, installed = distance * (candidate.route_factor or technology.route_factor), 0.0
        room = candidate.max_pairs - installed
        cost = _pair_cost(r, path, candidate, technology, length) if room > 0 else UnitCost()
        r.plan.links[frozenset((a, b))] = LinkOption(
            installed, float(candidate.max_pairs), cost, a, b, technology, length
        )


def _pair_cost(
    r: _Resolver, path: Path, candidate, technology: LinkTechnology, length_km: float
) -> UnitCost:
    """One lit fibre pair: fibre over the route plus equipment at its ends and spans."""
    costs = r.catalog.build_costs.values()
    name = technology.name
    fibre_entry = first_applying(costs, name, FIBRE_UNITS)
    fibre = r.unit_cost(
        path,
        f"fibre of {name!r}",
        fibre_entry,
        candidate.capex_per_pair_km,
        None,
        "fibre",
        capex_field="capex_per_pair_km",
        priced=("link technologies", name, "pair_km"),
    ).times(length_km)
    if candidate.capex_per_pair is not None:
        equipment = r.unit_cost(
            path,
            f"equipment of {name!r}",
            None,
            candidate.capex_per_pair,
            None,
            "dci_equipment",
            capex_field="capex_per_pair",
        )
    else:
        equipment = UnitCost()
        counts = {
            "pair": 1.0,
            "pair_span": float(technology.amplifier_spans(length_km)),
            "module": None,  # per entry: its line rate
        }
        found = False
        for unit in EQUIPMENT_UNITS:
            entry = first_applying(costs, name, (unit,))
            if entry is None:
                continue
            found = True
            count = counts[unit]
            if count is None:  # two modules per wavelength, again at each regenerator
                wavelengths = technology.capacity_gbit_s_per_fibre_pair / entry.gbit_s_per_unit
                count = 2.0 * wavelengths * (1 + regenerators(length_km, technology))
            unit_cost = r.unit_cost(path, entry.name, entry, None, None, "dci_equipment")
            equipment += unit_cost.times(count)
        if not found:
            r.problems.append(
                (
                    path,
                    f"no equipment cost known for {name!r} in the cost catalogue: give "
                    f"capex_per_pair"
                    + r.register_hint(("link technologies", name, "pair"), "dci_equipment"),
                )
            )
    total = fibre + equipment
    if candidate.fixed_om_per_pair is not None:
        total = UnitCost(total.capex_usd, total.annuity_usd_per_year, candidate.fixed_om_per_pair)
    return total
