"""How big a model will be, before it is built, and the warning for a big one
(issue 13, item 12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyomo.environ as pyo
import pytest

import geomodel
from geomodel.inputs.build import build_inputs
from geomodel.model.build import build_model
from geomodel.solver.size import LARGE_MODEL_COLUMNS, estimate_columns, size_warning

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
GEOMODEL = Path(sys.executable).with_name("geomodel")


@pytest.mark.parametrize(
    "name", ["quickstart", "us-100k-gpu", "europe-nordics", "east-data-west-compute"]
)
def test_the_estimate_counts_every_column_the_model_builds(catalog, name):
    inputs = build_inputs(geomodel.load_scenario(SCENARIOS / f"{name}.yaml", catalog=catalog), catalog)
    model = build_model(inputs)
    built = sum(len(var) for var in model.component_objects(pyo.Var))
    assert estimate_columns(inputs) == built
    assert size_warning(inputs) == ""  # a week or two days: small


def test_a_year_hour_by_hour_warns_with_a_hint_to_aggregate(catalog):
    path = SCENARIOS / "east-data-west-compute.yaml"
    week = build_inputs(geomodel.load_scenario(path, catalog=catalog), catalog)
    per_hour = estimate_columns(week) / 168  # every column here is per hour of the week
    year = build_inputs(
        geomodel.load_scenario(path, overrides={"time.hours": 8760}, catalog=catalog), catalog
    )
    columns = estimate_columns(year)
    # 61 columns an hour: 10,248 in the week / 168, x 8,760 = 534,360 (64 and 560,640 until
    # the cross-site rows that cannot bind were left out, issue 25). It was 65 (569,400)
    # until the example moved to the fitted latency and a 25 ms SLA, which drops one
    # serving pair: Shenzhen - Qingpu, 1,169 km, 19.2 ms by 1.5 x 4.9 us/km x 2 + 2 ms,
    # 2.36 + 2 x 1169 x 2.094 x 4.9 / 1000 = 26.4 ms fitted (tests/fitted_latency.py)
    assert columns == pytest.approx(per_hour * 8760)
    assert columns > LARGE_MODEL_COLUMNS
    warning = size_warning(year)
    assert warning.startswith(f"the model will have about {columns:,} columns (8,760 time steps")
    # issue 24, item 15: it said 1.5 GB (2.7 GB per million columns) where the run took
    # 2.47 GB. Now a range (docs/performance.md, "Memory"): 0.43 + 2.4 x 0.53436 = 1.71 GB
    # to 0.25 + 4.4 x 0.53436 = 2.60 GB, which holds the measured peak
    low, high = 0.43 + 2.4 * columns / 1e6, 0.25 + 4.4 * columns / 1e6
    assert low < 2.47 < high
    assert f"and {low:,.1f}-{high:,.1f} GB of memory" in warning
    assert "time.aggregation.typical_days" in warning and "--check-aggregation" in warning
    typical = build_inputs(
        geomodel.load_scenario(
            path, overrides={"time.hours": 8760, "time.aggregation.typical_days": 8}, catalog=catalog
        ),
        catalog,
    )
    assert size_warning(typical) == ""  # 8 typical days of 24 steps: 192 steps


def test_run_warns_before_anything_else_happens(tmp_path):
    """A year hour by hour with a job no fleet could finish: the size warning comes
    first, then the aggregate checks answer without building the model."""
    done = subprocess.run(
        [
            str(GEOMODEL),
            "run",
            str(SCENARIOS / "east-data-west-compute.yaml"),
            *("--set", "time.hours=8760", "--set", "training.moe_pretrain.compute=1e33 FLOP"),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 1
    assert "warning: the model will have about 534,360 columns" in done.stderr
    assert "training job 'moe_pretrain' needs" in " ".join(done.stdout.split())
