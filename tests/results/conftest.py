"""Tests of geomodel/results: the tiny hand-derivable scenarios of tests/model are shared."""

from __future__ import annotations

import sys
from pathlib import Path

# scenario_builder lives beside the model tests (tests/model has no package marker)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))
