"""A pathway's energy half against PyPSA's multi-investment-period optimisation
(bench/pathway_pypsa.py, small): the same sites, series and costs over three periods
with demand growth, price and carbon-price changes and a 3-year wind lifetime; the
objectives agree to 1e-6 relative and both build the same amounts in the same periods.
Runs when pypsa is installed (the test extra installs it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("pypsa")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import pathway_pypsa


def test_geomodel_and_pypsa_agree_on_a_pathways_energy_half():
    report = pathway_pypsa.crosscheck(n_sites=2, hours=24)
    assert report["relative_difference"] <= 1e-6, report
    ours, theirs = report["geomodel"]["build"], report["pypsa"]["build"]
    # not vacuous: something is built in more than one period, and the same everywhere
    assert len({name.rsplit(" ", 1)[1] for name in ours}) >= 2, ours
    assert ours.keys() == theirs.keys()
    for name, amount in ours.items():
        assert theirs[name] == pytest.approx(amount, rel=1e-4, abs=1e-3), name
