"""Cross-site rows that can never bind are left out, and the optimum stays (docs/model.md (6)).

``_congestible_flows`` keeps flows only on link-steps the jobs' exchanges could
overfill; ``_drop_slack_spans`` leaves out, with continuous spans, the group rows of
a job that could use its ``max_chips`` at every site, and the spans of a job left
with neither. Each case is solved twice: as built, and with both functions turned
into the identity (every row written, as the model did before), and the two optima
must agree to 1e-9, in cases where each kind of row binds and where none does, with
site use solved exactly (binary spans, the default ``solver.participation``) and relaxed
(continuous spans, where ``_drop_slack_spans`` acts); two cases are also derived by hand.
"""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

import pytest
import scenario_builder as sb

from geomodel.inputs.build import build_inputs
from geomodel.model import sets as model_sets
from geomodel.model.build import build_model

REL = 1e-9
#: solver.participation: binary spans (the default) and continuous ones
PARTICIPATIONS = ("exact", "relaxed")
RATE = sb.job_rate_eflop_per_chip_hour(0.989, 0.5)  # EFLOP per H100 chip-hour, MFU 0.5


@contextmanager
def every_row():
    """Build the model with every cross-site row, as before they were pruned."""
    with (
        mock.patch.object(model_sets, "_congestible_flows", lambda inputs, flows: flows),
        mock.patch.object(model_sets, "_drop_slack_spans", lambda inputs, sets, used: None),
    ):
        yield


def chain(chip_hours: float, hours: int = 2, **job) -> dict:
    # a - b - c: links a-b and b-c (50 km, one 800ZR pair, 25,600 Gb/s), none between a
    # and c; 100 HGX H100 servers (800 chips) per site; a 30, b 60, c 40 USD/MWh.
    return sb.scenario(
        {
            "a": sb.site(lat=40.0, systems=100, price=30),
            "b": sb.site(lat=40.3, systems=100, price=60),
            "c": sb.site(lat=40.6, systems=100, price=40),
        },
        hours=hours,
        training={"pretrain": sb.training_job(chip_hours * RATE, **job)},
        links={"routes": [sb.route("a", "b"), sb.route("b", "c")]},
    )


def participating(data: dict, participation: str) -> dict:
    """The scenario with site use solved by ``participation``."""
    return {**data, "solver": {**data["solver"], "participation": participation}}


def sizes(tmp_path, catalog, data: dict) -> dict[str, int]:
    inputs = build_inputs(sb.load(tmp_path, data, catalog), catalog)
    m = build_model(inputs)
    names = ("span", "flow", "group", "span_link", "dp_traffic", "link_capacity", "one_group")
    return {name: len(getattr(m, name)) for name in names}


def both_ways(tmp_path, catalog, data: dict):
    pruned = sb.run(tmp_path, data, catalog)
    with every_row():
        full = sb.run(tmp_path, data, catalog)
    assert pruned.status == full.status
    if full.status == "optimal":
        assert pruned.kpis["objective"] == pytest.approx(full.kpis["objective"], rel=REL)
    return pruned, full


def test_a_job_that_fits_every_site_and_every_link_needs_no_cross_site_rows(tmp_path, catalog, h100):
    # max_chips 800 = the chips of every site, so U[j,s] = max_chips: spans of at most
    # chips/800 sum to at most 1 (max_chips rows), and one_group/in_group never bind. Its
    # exchange, 2 x 10 GB x 8 bit / 10 s = 16 Gb/s, fits each link's 25,600 Gb/s, so no
    # dp_traffic or link_capacity row can bind either: nothing of (6) is left.
    data = chain(1600, max_chips=800)
    assert sizes(tmp_path, catalog, data) == dict.fromkeys(
        ("span", "flow", "group", "span_link", "dp_traffic", "link_capacity", "one_group"), 0
    )
    with every_row():
        full = sizes(tmp_path, catalog, data)
    # before: spans at 3 sites x 2 h, flows on 2 links x 2 h, groups {a,b} {b,c} x 2 h
    assert (full["span"], full["flow"], full["group"]) == (6, 4, 4)
    pruned, _ = both_ways(tmp_path, catalog, data)
    # By hand: 1600 chip-hours, at most 800 chips an hour, so 800 chips at a (cheapest)
    # in both hours. Each hour: every site idles its 800 chips (x PUE 1.2); a's chips
    # train (training power instead of idle); DCI transceivers draw L = 25,600 Gb/s x W per Gb/s
    # per link, half at each end: a L/2, b L, c L/2. Cost = price x MWh.
    link_mw = 25_600 * catalog.link_technology("smf_800zr").transceiver_power_w_per_gbit_s / 1e6
    idle_mwh = 1.2 * 800 * h100.idle_kw / 1000
    a_mwh = 1.2 * 800 * h100.training_kw / 1000 + link_mw / 2
    b_mwh = idle_mwh + link_mw
    c_mwh = idle_mwh + link_mw / 2
    by_hand = 2 * (30 * a_mwh + 60 * b_mwh + 40 * c_mwh)
    assert pruned.kpis["objective"] == pytest.approx(by_hand, rel=1e-6)
    chips = pruned.dataset["training_chips"]
    assert float(chips.sel(site="a").sum()) == pytest.approx(1600, rel=1e-6)


def test_rows_that_can_bind_stay(tmp_path, catalog):
    # no max_chips (the whole fleet, 2,400): U[j,s] = 800 < 2,400, so the group rows bind
    # (a and c are not linked: 800 at a + 800 at c would break one_group) and stay; the
    # links still cannot fill, so no flow
    loose = sizes(tmp_path, catalog, chain(1600, hours=1))
    assert (loose["group"], loose["one_group"], loose["span"], loose["flow"]) == (2, 1, 3, 0)
    # an exchange of 2 x 5000 GB x 8 bit / 1 s = 80,000 Gb/s overfills a link: its flows
    # stay (2 links x 2 h), and the spans they read; max_chips 800 = every site's chips
    # (and binding: 1600 chip-hours in 2 h), so the group rows still go
    heavy = chain(1600, max_chips=800, gradient_size="5000 GB", sync_interval="1 s")
    congested = sizes(tmp_path, catalog, heavy)
    assert (congested["flow"], congested["link_capacity"], congested["group"]) == (4, 4, 0)
    assert congested["span"] == 6
    both_ways(tmp_path, catalog, heavy)


def pair(chip_hours: float) -> dict:
    # cheap (800 chips, 30 USD/MWh) - dear (1600 chips, 60) over one 800ZR pair
    # (25,600 Gb/s); the job's exchange is 2 x 5000 GB x 8 bit / 1 s = 80,000 Gb/s
    return sb.scenario(
        {
            "cheap": sb.site(systems=100, price=30),
            "dear": sb.site(lat=40.3, systems=200, price=60),
        },
        hours=1,
        training={
            "pretrain": sb.training_job(chip_hours * RATE, gradient_size="5000 GB", sync_interval="1 s")
        },
        links={"routes": [sb.route("cheap", "dear")]},
    )


CASES = {
    # max_chips binds and fits every site, 16 Gb/s: nothing of (6) is left
    "nothing binds": chain(1600, max_chips=800),
    # 1,400 chips an hour need two sites; a + c (30 + 40) would be cheapest but are not
    # linked: the group rows bind (U = 800 < max_chips 2,400) and keep a + b
    "groups bind": chain(2800),
    "groups bind under a cap": chain(2000, max_chips=1200),
    # 1,500 chips on cheap x + dear 1500 - x: dp_traffic asks 80,000 x (x/800 +
    # (1500 - x)/1600 - 1) = 50 (x - 100) Gb/s, within 25,600 only for x <= 612: the
    # link capacity binds and keeps cheap below its 800 chips
    "the link binds": pair(1500),
    "groups bind, links fill": chain(2800, gradient_size="5000 GB", sync_interval="1 s"),
}


@pytest.mark.parametrize("participation", PARTICIPATIONS)
@pytest.mark.parametrize("case", list(CASES))
def test_the_optimum_is_that_of_every_row(tmp_path, catalog, case, participation):
    # not a hand derivation: whatever is left out, the optimum of the model with every row
    both_ways(tmp_path, catalog, participating(CASES[case], participation))


@pytest.mark.parametrize(
    ("participation", "cheap_chips"),
    [
        # the case above by hand: continuous spans, cheap carries x = 612 chips, dear 888
        ("relaxed", 612),
        # binary spans: a split spans both ends whole and asks the whole 80,000 Gb/s,
        # beyond the link's 25,600, so the job stays at one site: dear, the only one with
        # 1,500 chips (cheap has 800)
        ("exact", 0),
    ],
)
def test_the_binding_link_is_kept_exactly(tmp_path, catalog, participation, cheap_chips):
    result = sb.run(tmp_path, participating(CASES["the link binds"], participation), catalog)
    assert result.status == "optimal", result.messages
    chips = result.dataset["training_chips"]
    assert float(chips.sel(site="cheap").sum()) == pytest.approx(cheap_chips, abs=1e-6)
    assert float(chips.sel(site="dear").sum()) == pytest.approx(1500 - cheap_chips, rel=1e-6)
