"""The app's knobs: values read from a validated scenario, written back as ``--set`` overrides.

Widgets never edit a scenario object: they produce a mapping of dotted field
paths to values, exactly what ``geomodel run --set`` takes, and the library
loads and validates the scenario with it. Only values that differ from the
file (with its variants) become overrides, so untouched knobs leave the
scenario, and its hash, as the file has it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from geomodel.scenario import Problem, Scenario
from geomodel.scenario.build_options import plans_anything

#: the knob section of a plan's build options (``sites.*.build``, ``links.candidates``)
#: and ``finance``; drawn only for a scenario that plans
PLANNING = "planning"
#: knob section -> title; knobs and problems are grouped by these (each a top-level
#: scenario section, but PLANNING)
SECTIONS: dict[str, str] = {
    "time": "Horizon",
    "sites": "Sites",
    "regions": "Demand",
    "links": "DCI links",
    "objective": "Objective",
    PLANNING: "Planning",
    "solver": "Solver",
}
#: problems of any other section (training, inference, latency, ...) or of the file
OTHER = "other"


@dataclass
class KnobValues:
    """Everything the knobs can change, in the scenario's documented units."""

    hours: int
    carbon_price: float  #: USD/tCO2
    latency_weight: float  #: USD/ms/Mtoken
    technology: str | None  #: links.mesh.technology; None when the scenario has no mesh
    envelopes: dict[str, float] = field(default_factory=dict)  #: site -> MW
    systems: dict[str, dict[str, int]] = field(default_factory=dict)  #: site -> system -> count
    demand_scale: float = 1.0  #: multiplies every regions.*.demand.*.scale
    time_limit: float = 600.0  #: s, at most the app's cap
    #: finance.discount_rate (1/year); None when the scenario builds nothing
    discount_rate: float | None = None
    #: site -> sites.<site>.build.power_envelope.max (MW): the most facility power after building
    envelope_caps: dict[str, float] = field(default_factory=dict)
    #: site -> system -> sites.<site>.build.systems.<system>.max: the most systems after building
    system_caps: dict[str, dict[str, int]] = field(default_factory=dict)
    #: a plan's whole-unit options (``solver.integer``: whole_systems, site_opening,
    #: whole_fibre_pairs) -> on; empty when the scenario builds nothing
    whole_units: dict[str, bool] = field(default_factory=dict)


#: the ``solver.integer`` options a plan's knobs turn on or off
WHOLE_UNIT_OPTIONS = ("whole_systems", "site_opening", "whole_fibre_pairs")


def defaults(scenario: Scenario, time_limit_cap: float) -> KnobValues:
    """The knob values the scenario file (with its variants) has."""
    mesh = scenario.links.mesh
    builds = {name: site.build for name, site in scenario.sites.items() if site.build is not None}
    return KnobValues(
        hours=int(scenario.time.horizon_hours),
        carbon_price=float(scenario.objective.carbon_price),
        latency_weight=float(scenario.objective.latency_weight),
        technology=mesh.technology if mesh is not None else None,
        envelopes={name: float(site.power_envelope) for name, site in scenario.sites.items()},
        systems={name: dict(site.systems) for name, site in scenario.sites.items()},
        demand_scale=1.0,
        time_limit=min(float(scenario.solver.time_limit), time_limit_cap),
        discount_rate=float(scenario.finance.discount_rate) if plans_anything(scenario) else None,
        envelope_caps={
            name: float(build.power_envelope.max)
            for name, build in builds.items()
            if build.power_envelope is not None
        },
        system_caps={
            name: {system: int(option.max) for system, option in build.systems.items()}
            for name, build in builds.items()
            if build.systems
        },
        whole_units={
            option: bool(getattr(scenario.solver.integer, option))
            for option in WHOLE_UNIT_OPTIONS
            if plans_anything(scenario)
        },
    )


def _differs(a: float, b: float) -> bool:
    return not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)


def overrides(scenario: Scenario, values: KnobValues, time_limit_cap: float) -> dict[str, Any]:
    """``--set`` overrides that turn ``scenario`` into the one the knobs describe."""
    found: dict[str, Any] = {}
    time = scenario.time
    if _differs(values.hours, time.horizon_hours):
        found["time.hours"] = int(values.hours)
        if time.end is not None:  # the file gives the horizon by its end
            found["time.end"] = None
    for path, value, base in (
        ("objective.carbon_price", values.carbon_price, scenario.objective.carbon_price),
        ("objective.latency_weight", values.latency_weight, scenario.objective.latency_weight),
    ):
        if _differs(value, base):
            found[path] = float(value)
    mesh = scenario.links.mesh
    if mesh is not None and values.technology and values.technology != mesh.technology:
        found["links.mesh.technology"] = values.technology
    for name, site in scenario.sites.items():
        envelope = values.envelopes.get(name, site.power_envelope)
        if _differs(envelope, site.power_envelope):
            found[f"sites.{name}.power_envelope"] = float(envelope)
        for system, count in values.systems.get(name, {}).items():
            if int(count) != site.systems.get(system, 0):
                found[f"sites.{name}.systems.{system}"] = int(count)
    if _differs(values.demand_scale, 1.0):
        found.update(_demand_overrides(scenario, values.demand_scale))
    found.update(_planning_overrides(scenario, values))
    limit = min(float(values.time_limit), time_limit_cap)
    if _differs(limit, scenario.solver.time_limit):
        found["solver.time_limit"] = limit
    return found


def _planning_overrides(scenario: Scenario, values: KnobValues) -> dict[str, Any]:
    """Discount rate and the build caps of each site, where they differ from the file."""
    found: dict[str, Any] = {}
    if values.discount_rate is not None and _differs(
        values.discount_rate, scenario.finance.discount_rate
    ):
        found["finance.discount_rate"] = float(values.discount_rate)
    for name, site in scenario.sites.items():
        build = site.build
        if build is None:
            continue
        cap, envelope = values.envelope_caps.get(name), build.power_envelope
        if envelope is not None and cap is not None and _differs(cap, envelope.max):
            found[f"sites.{name}.build.power_envelope.max"] = float(cap)
        for system, most in values.system_caps.get(name, {}).items():
            option = build.systems.get(system)
            if option is not None and int(most) != option.max:
                found[f"sites.{name}.build.systems.{system}.max"] = int(most)
    for option, on in values.whole_units.items():
        if bool(on) != bool(getattr(scenario.solver.integer, option)):
            found[f"solver.integer.{option}"] = bool(on)
    return found


def _demand_overrides(scenario: Scenario, factor: float) -> dict[str, Any]:
    """``regions.R.demand.S.scale`` for every demand (the loader expands a bare
    quantity to ``{constant: ...}``, so a scale can be set on any demand)."""
    return {
        f"regions.{region_name}.demand.{service}.scale": float(demand.scale) * factor
        for region_name, region in scenario.regions.items()
        for service, demand in region.demand.items()
    }


def values_from_overrides(
    scenario: Scenario, found: dict[str, Any], time_limit_cap: float
) -> tuple[KnobValues, list[str]]:
    """The knob values that ``found`` (overrides as :func:`overrides` writes them, e.g.
    from a page address) describe for ``scenario``, and the paths no knob writes."""
    values = defaults(scenario, time_limit_cap)
    ignored: list[str] = []
    scales: dict[str, float] = {}
    for path, value in found.items():
        try:
            if not _apply(values, path, value, time_limit_cap, scales):
                ignored.append(path)
        except (TypeError, ValueError):
            ignored.append(path)
    if scales:
        factor = _common_factor(scenario, scales)
        if factor is None:
            ignored.extend(scales)
        else:
            values.demand_scale = factor
    return values, ignored


def _apply(values: KnobValues, path: str, value: Any, cap: float, scales: dict[str, float]) -> bool:
    """Set the knob ``path`` writes; False when no knob writes it."""
    parts = path.split(".")
    simple = {
        "time.hours": lambda: setattr(values, "hours", int(value)),
        "objective.carbon_price": lambda: setattr(values, "carbon_price", float(value)),
        "objective.latency_weight": lambda: setattr(values, "latency_weight", float(value)),
        "solver.time_limit": lambda: setattr(values, "time_limit", min(float(value), cap)),
    }
    if path in simple:
        simple[path]()
    elif path == "time.end":
        return value is None  # written with time.hours when the file gives an end
    elif path == "links.mesh.technology" and values.technology is not None:
        values.technology = str(value)
    elif parts[0] == "sites" and len(parts) == 3 and parts[2] == "power_envelope":
        if parts[1] not in values.envelopes:
            return False
        values.envelopes[parts[1]] = float(value)
    elif parts[0] == "sites" and len(parts) == 4 and parts[2] == "systems":
        if parts[3] not in values.systems.get(parts[1], {}):
            return False
        values.systems[parts[1]][parts[3]] = int(value)
    elif parts[0] == "regions" and len(parts) == 5 and parts[2] == "demand" and parts[4] == "scale":
        scales[path] = float(value)
    elif path == "finance.discount_rate" and values.discount_rate is not None:
        values.discount_rate = float(value)
    elif parts[0] == "sites" and parts[2:] == ["build", "power_envelope", "max"]:
        if parts[1] not in values.envelope_caps:
            return False
        values.envelope_caps[parts[1]] = float(value)
    elif parts[:2] == ["solver", "integer"] and len(parts) == 3 and parts[2] in values.whole_units:
        values.whole_units[parts[2]] = bool(value)
    elif parts[0] == "sites" and len(parts) == 6 and parts[2:4] == ["build", "systems"]:
        if parts[5] != "max" or parts[4] not in values.system_caps.get(parts[1], {}):
            return False
        values.system_caps[parts[1]][parts[4]] = int(value)
    else:
        return False
    return True


def _common_factor(scenario: Scenario, scales: dict[str, float]) -> float | None:
    """The demand scale knob that gives every demand these scales (None if none does)."""
    wanted = _demand_overrides(scenario, 1.0)
    if set(wanted) != set(scales):
        return None
    factors = {round(scales[p] / base, 12) for p, base in wanted.items() if base} or {1.0}
    return factors.pop() if len(factors) == 1 else None


def section_of(problem: Problem) -> str:
    """The knob section a problem belongs under (``other`` when no knob section fits):
    build options and finance under planning, else the path's top-level section."""
    parts = problem.path.split(".")
    head = parts[0].split("[", 1)[0]
    if head == "finance" or (head == "sites" and parts[2:3] == ["build"]):
        return PLANNING
    if head == "links" and len(parts) > 1 and parts[1].split("[", 1)[0] == "candidates":
        return PLANNING
    return head if head in SECTIONS else OTHER


def group_by_section(problems: Iterable[Problem]) -> dict[str, list[Problem]]:
    """Problems by knob section, in reading order within each."""
    groups: dict[str, list[Problem]] = {}
    for problem in problems:
        groups.setdefault(section_of(problem), []).append(problem)
    return groups
