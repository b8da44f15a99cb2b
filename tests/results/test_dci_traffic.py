"""DCI traffic of a solution, read from where each job's chips are (issue 15, item 4).

The two-site scenario of tests/model/test_hand_derived.py::dci_scenario: "cheap"
has 800 H100 chips, "dear" 1,600, one 50 km link of 800ZR fibre pairs (25,600 Gb/s
each, catalogue), one hour, a job needing 1,200 chip-hours whose data-parallel
gradient exchange is 2 x 5,000 GB x 8 bit / 1 s = 80,000 Gb/s.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import scenario_builder as sb
from test_hand_derived import dci_scenario

from geomodel.api import solve
from geomodel.results.result import open_result

TRAFFIC = 2 * 5000 * 8 / 1  # Gb/s
PAIR = 25_600  # Gb/s, smf_800zr per fibre pair


def link_values(result, name: str) -> np.ndarray:
    return result.dataset[name].sel(link=result.dataset["link"].values[0]).values


def test_a_split_job_needs_its_whole_exchange_and_the_lp_accounts_for_less(tmp_path, catalog):
    # LP (continuous spans): cheap full (800 chips), dear 400 of its 1,600. The placement
    # puts the job at both ends, so the fibre must carry the full 80,000 Gb/s (3.125 x one
    # pair); the LP charges only 80,000 x (800/800 + 400/1600 - 1) = 20,000 Gb/s.
    lp = sb.run(tmp_path, dci_scenario(1, participation=False), catalog)
    assert lp.status == "optimal", lp.messages
    assert link_values(lp, "link_required_gbit_s") == pytest.approx([TRAFFIC])
    assert link_values(lp, "link_required_utilisation") == pytest.approx([TRAFFIC / PAIR])
    assert link_values(lp, "link_traffic_gbit_s") == pytest.approx([20_000.0], rel=1e-6)
    assert link_values(lp, "link_utilisation") == pytest.approx([20_000.0 / PAIR], rel=1e-6)
    attrs = lp.dataset["link_required_gbit_s"].attrs
    assert attrs["units"] == "Gb/s" and "placement requires" in attrs["description"]


def test_with_binary_spans_what_is_charged_is_what_is_required(tmp_path, catalog):
    # four pairs (102,400 Gb/s): the split fits, both ends are used, span 1 at each
    fat = sb.run(tmp_path, dci_scenario(4, participation=True), catalog)
    assert fat.status == "optimal", fat.messages
    assert link_values(fat, "link_required_gbit_s") == pytest.approx([TRAFFIC])
    assert link_values(fat, "link_traffic_gbit_s") == pytest.approx([TRAFFIC])
    assert link_values(fat, "link_required_utilisation") == pytest.approx([TRAFFIC / (4 * PAIR)])


def test_a_job_at_one_site_needs_no_dci(tmp_path, catalog):
    # one pair: the exchange does not fit, the whole job runs at dear; nothing crosses
    # the link, whatever the solver left in its costless flow and span variables
    thin = sb.run(tmp_path, dci_scenario(1, participation=True), catalog)
    assert float(thin.dataset["training_chips"].sel(site="cheap").sum()) == pytest.approx(0, abs=1e-6)
    assert link_values(thin, "link_required_gbit_s") == pytest.approx([0.0])
    assert link_values(thin, "link_traffic_gbit_s") == pytest.approx([0.0])


def test_the_quickstart_links_carry_nothing_while_pretraining_stays_at_one_site(catalog):
    # The quickstart's pretrain job may use every site; in each step the links
    # between sites it does not occupy both ends of must be idle. (The flow variable
    # showed 280 Gb/s on every link in every hour.)
    result = solve("scenarios/quickstart.yaml", catalog=catalog)
    data = result.dataset
    chips = data["training_chips"].sum("system").sel(job="pretrain")  # (site, time)
    gradient = float(result.inputs["dp_traffic_gbit_s"].sel(job="pretrain"))
    for link in data["link"].values:
        a = str(result.inputs["link_site_a"].sel(link=link).values)
        b = str(result.inputs["link_site_b"].sel(link=link).values)
        both = (chips.sel(site=a) > 1e-3) & (chips.sel(site=b) > 1e-3)
        expected = np.where(both.values, gradient, 0.0)
        assert data["link_required_gbit_s"].sel(link=link).values == pytest.approx(expected)
    occupied = (chips > 1e-3).sum("site")
    assert int((occupied <= 1).sum()) > 0  # steps at one site (or none) exist
    assert float(data["link_required_gbit_s"].where(occupied <= 1).max()) == 0.0


def test_the_cli_writes_the_same_traffic_as_the_api(tmp_path, catalog):
    out = tmp_path / "quickstart.nc"
    done = subprocess.run(
        [sys.executable, "-m", "geomodel", "run", "scenarios/quickstart.yaml", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    written = open_result(out).dataset
    api = solve("scenarios/quickstart.yaml", catalog=catalog).dataset
    for name in ("link_required_gbit_s", "link_required_utilisation", "link_traffic_gbit_s"):
        assert written[name].attrs["units"] == api[name].attrs["units"]
        np.testing.assert_allclose(written[name].values, api[name].values, atol=1e-6)


def test_in_planning_mode_utilisation_counts_the_pairs_built(tmp_path, catalog):
    # tests/model/test_planning_optima.py::two_site_scenario at a pair cost of 1,000 USD:
    # the job splits 60 + 40 servers over a and b in both hours, and one whole 800ZR pair
    # (25,600 Gb/s) is built for its 2 x 1000 GB x 8 / 10 s = 1,600 Gb/s exchange; no
    # pair was lit before, so utilisation is 1,600 / 25,600 = 0.0625 of what was built.
    from test_planning_optima import two_site_scenario

    result = sb.run(tmp_path, two_site_scenario(1000.0), catalog)
    assert result.status == "optimal", result.messages
    assert float(result.dataset["built_fibre_pairs"].sum()) == pytest.approx(1.0, abs=1e-6)
    assert link_values(result, "link_required_gbit_s") == pytest.approx([1600.0, 1600.0])
    assert link_values(result, "link_required_utilisation") == pytest.approx([0.0625, 0.0625])
