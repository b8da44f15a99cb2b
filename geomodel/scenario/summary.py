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
        "scenario_hash": origin.scenario_hash if origin else "",
        "warnings": [str(w) for w in origin.warnings] if origin else [],
    }
