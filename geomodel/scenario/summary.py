"""A one-screen summary of a loaded scenario (what `geomodel validate` prints)."""

from __future__ import annotations

from typing import Any

from geomodel.catalog import Catalog
from geomodel.scenario.schema import Scenario


def summarize(scenario: Scenario, catalog: Catalog) -> dict[str, Any]:
    """Counts and totals a planner checks before solving."""
    chips = 0
    it_mw = 0.0
    systems: dict[str, int] = {}
    for site in scenario.sites.values():
        for name, count in site.systems.items():
            spec = catalog.hardware_system(name)
            systems[name] = systems.get(name, 0) + count
            chips += count * spec.chips_per_system
            it_mw += count * spec.power_kw_per_system / 1000.0
    origin = scenario.origin
    return {
        "name": scenario.name,
        "sites": len(scenario.sites),
        "systems": systems,
        "chips": chips,
        "it_mw_at_load": it_mw,
        "power_envelope_mw": sum(s.power_envelope for s in scenario.sites.values()),
        "regions": len(scenario.regions),
        "training_jobs": len(scenario.training)
        + sum(len(t) for t in getattr(origin, "job_tables", {}).values()),
        "inference_services": len(scenario.inference),
        "hours": scenario.time.horizon_hours,
        "time_steps": scenario.time.model_steps,
        "variants_applied": list(origin.variants) if origin else [],
        "variants_defined": list(scenario.variants),
        "may_build": may_build(scenario),
        "scenario_hash": origin.scenario_hash if origin else "",
        "warnings": [str(w) for w in origin.warnings] if origin else [],
    }


def may_build(scenario: Scenario) -> dict[str, Any]:
    """What the build options allow beyond what is installed, over all sites (planning)."""
    found: dict[str, Any] = {}
    for site in scenario.sites.values():
        build = site.build
        if build is None:
            continue
        for name, option in build.systems.items():
            more = max(option.max - site.systems.get(name, 0), 0)
            found.setdefault("systems", {})[name] = found.get("systems", {}).get(name, 0) + more
        if build.power_envelope is not None:
            more = max(build.power_envelope.max - site.power_envelope, 0.0)
            found["power_envelope_mw"] = found.get("power_envelope_mw", 0.0) + more
        for name, option in build.power_sources.items():
            supply = site.power_sources.get(name)
            more = max(option.max - (supply.capacity if supply else 0.0), 0.0)
            found.setdefault("power_sources_mw", {})[name] = (
                found.get("power_sources_mw", {}).get(name, 0.0) + more
            )
        if build.battery is not None:
            found["battery_mw"] = found.get("battery_mw", 0.0) + build.battery.power.max
            found["battery_mwh"] = found.get("battery_mwh", 0.0) + build.battery.energy.max
        found["new_sites"] = found.get("new_sites", 0) + int(build.new_site)
    if scenario.links.candidates:
        found["route_candidates"] = len(scenario.links.candidates)
    return found
