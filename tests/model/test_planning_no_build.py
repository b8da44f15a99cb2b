"""A scenario without build options solves exactly as before planning mode existed.

For every example scenario (scenarios/*.yaml) the objective is solved twice in this run:
as the file stands (no build options: no planning inputs, no build variables, every
capacity the installed constant) and with build options at every site and a route
candidate on every link that leave no room to build (each maximum equal to what is
installed). The second goes through the whole planning path (planning inputs, the
capacity module in planning mode, the grid following a buildable envelope) yet may build
nothing, so both objectives must agree to 1e-9. The regression pins
(tests/model/test_example_regression.py) hold the first against the objective the
model gave before planning mode, to 1e-6.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from geomodel.api import solve
from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario
from geomodel.scenario.build_options import plans_anything
from geomodel.scenario.network import scenario_links

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "scenarios").glob("*.yaml"))
PLANNING_VARIABLES = ("build_max_systems", "build_max_envelope_mw", "build_max_source_mw")
#: trace-week's 2,500 jobs over 168 hourly steps, solved twice, are minutes on a loaded
#: machine (binary site use of its lone jobs); its 8-hour steps (21 of them) keep the same
#: sites and jobs through the same planning path (4-hour steps: 8.8 s alone, 8-hour: 3.1 s)
COARSER = {"trace-week.yaml": ["time.resolution=8 h"]}


def with_no_room_to_build(data: dict, scenario, catalog) -> dict:
    """Build options whose maxima are exactly what is installed, on every site and link."""
    for name, site in data["sites"].items():
        spec = scenario.sites[name]
        site["build"] = {
            "systems": {system: {"max": count} for system, count in spec.systems.items()},
            "power_envelope": {"max": f"{spec.power_envelope} MW"},
            "power_sources": {
                source: {"max": f"{supply.capacity} MW"} for source, supply in spec.power_sources.items()
            },
        }
    data.setdefault("links", {})["candidates"] = [
        {
            "sites": [link.site_a, link.site_b],
            "technology": link.technology.name,
            "max_pairs": link.fibre_pairs,
        }
        for link in scenario_links(scenario, catalog)
    ]
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_no_build_options_give_the_same_objective_through_the_planning_path(tmp_path, catalog, path):
    overrides = COARSER.get(path.name, [])
    scenario = load_scenario(path, overrides=overrides, catalog=catalog)
    if plans_anything(scenario):
        pytest.skip(f"{path.name} plans (it has build options): nothing to compare without them")
    inputs = build_inputs(scenario, catalog)
    assert "planning" not in inputs.attrs
    assert not set(PLANNING_VARIABLES) & set(inputs.data_vars)
    plain = solve(scenario, catalog=catalog)
    assert plain.ok, plain.messages
    assert "built_systems" not in plain.dataset
    assert plain.kpis["investment_cost_term_usd"] == 0.0
    assert plain.kpis["capex_usd_per_year"] == 0.0

    if (path.parent / "data").exists():
        shutil.copytree(path.parent / "data", tmp_path / "data")
    data = with_no_room_to_build(yaml.safe_load(path.read_text()), scenario, catalog)
    planned_path = tmp_path / path.name
    planned_path.write_text(yaml.safe_dump(data, sort_keys=False))
    planned = load_scenario(planned_path, overrides=overrides, catalog=catalog)
    planned_inputs = build_inputs(planned, catalog)
    assert planned_inputs.attrs["planning"] == 1
    assert float(planned_inputs["build_max_systems"].sum()) == 0.0
    result = solve(planned, catalog=catalog)
    assert result.ok, result.messages
    assert result.kpis["objective"] == pytest.approx(plain.kpis["objective"], rel=1e-9)
    assert float(result.dataset["built_systems"].sum()) == 0.0
