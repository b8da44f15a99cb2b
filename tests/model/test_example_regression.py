"""Regression pins on the objective and KPIs of every example scenario (scenarios/*.yaml).

These numbers are NOT derivations: they record what the model gave when the pins
were last refreshed, so that any change to the formulation, the catalogue or an
example shows up here and is reviewed. See tests/model/data/README.md. To refresh
after reviewing a deliberate change:

    GEOMODEL_UPDATE_REGRESSION=1 pytest tests/model/test_example_regression.py

Each example must also pass the model's invariants (tests/model/invariants.py).
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import pytest
from invariants import check_invariants
from scenario_builder import is_pathway_file

from geomodel.api import solve

ROOT = Path(__file__).resolve().parents[2]
#: pathways (a ``periods`` section) are solved by solve_pathway: tests/model/test_pathway_*.py
EXAMPLES = [p for p in sorted((ROOT / "scenarios").glob("*.yaml")) if not is_pathway_file(p)]
PINS = Path(__file__).with_name("data") / "example_regression.json"
UPDATE = os.environ.get("GEOMODEL_UPDATE_REGRESSION") == "1"
#: an example slower than this is skipped (and reported) rather than slowing every run
MAX_SECONDS = 20.0
#: examples known to take longer, skipped before solving; their numbers are reported elsewhere
SLOW = {
    "trace-week.yaml": "2,500 jobs with a day of slack over five sites: about a minute; "
    "bench/trace_week.py reports its numbers in scenarios/README.md",
    "plan-100k-gpu.yaml": "a year of 12 typical days x 4 segments with whole site opening: "
    "about 30 s; bench/plan_variants.py reports its numbers in docs/planning.md and "
    "tests/model/test_plan_flagship.py checks its optima on 3 x 3 steps",
}
#: KPIs pinned; timing KPIs are not
PINNED = (
    "solver_status",
    "objective",
    "energy_cost_term_usd",
    "carbon_cost_term_usd",
    "latency_cost_term_usd",
    "unserved_cost_term_usd",
    "extension_cost_term_usd",
    "energy_mwh",
    "cost_usd",
    "negative_price_earnings_usd",
    "emissions_tco2",
    "latency_ms_mean",
    "latency_ms_p95",
    "unserved_fraction",
    "renewable_share",
    "water_m3",
)
#: the optimum is unique; the other KPIs may in principle move between alternative optima
OBJECTIVE_REL = 1e-6
KPI_REL = 1e-4


def _load_pins() -> dict:
    if PINS.exists():
        return json.loads(PINS.read_text())
    return {"scenarios": {}}


def _plain(value):
    if isinstance(value, float) and math.isnan(value):
        return None  # JSON has no NaN
    return value


@pytest.fixture(scope="module")
def pins():
    data = _load_pins()
    yield data
    if UPDATE:
        out = {
            "_comment": (
                "Regression pins, not derivations: KPIs of each example scenario as last solved. "
                "Refresh with GEOMODEL_UPDATE_REGRESSION=1 pytest "
                "tests/model/test_example_regression.py after reviewing why they changed "
                "(tests/model/data/README.md)."
            ),
            "scenarios": dict(sorted(data["scenarios"].items())),
        }
        PINS.parent.mkdir(exist_ok=True)
        PINS.write_text(json.dumps(out, indent=2) + "\n")


def test_there_are_examples():
    assert EXAMPLES, "no scenarios/*.yaml found"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_objective_and_kpis_match_their_pins(path, catalog, pins):
    if path.name in SLOW:
        pytest.skip(f"{path.name}: {SLOW[path.name]}")
    started = time.perf_counter()
    result = solve(path, catalog=catalog)
    seconds = time.perf_counter() - started
    if seconds > MAX_SECONDS:
        pytest.skip(f"{path.name} took {seconds:.1f} s to solve (> {MAX_SECONDS:g} s); not pinned")
    assert result.status == "optimal", result.messages
    check_invariants(result)
    got = {name: _plain(result.kpis.get(name)) for name in PINNED}
    if UPDATE:
        pins["scenarios"][path.name] = got
        return
    expected = pins["scenarios"].get(path.name)
    assert expected is not None, (
        f"{path.name} has no regression pins; run GEOMODEL_UPDATE_REGRESSION=1 pytest {__file__}"
    )
    assert got["solver_status"] == expected["solver_status"]
    mismatches = []
    for name in PINNED[1:]:
        want, have = expected.get(name), got[name]
        rel = OBJECTIVE_REL if name == "objective" else KPI_REL
        if want is None or have is None:
            same = want is None and have is None
        else:
            same = have == pytest.approx(want, rel=rel, abs=1e-6)
        if not same:
            mismatches.append(f"{name}: pinned {want!r}, got {have!r}")
    assert not mismatches, f"{path.name} moved from its pins:\n" + "\n".join(mismatches)
