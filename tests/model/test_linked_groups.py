"""A job runs within one group of pairwise-linked sites (docs/model.md (6)).

The groups are the maximal cliques of the job's usable-link graph; they are checked
against brute force over every subset of a small graph, then used on a chain of three
sites where the two ends have no link, with the optimum derived by hand.
"""

from __future__ import annotations

import itertools

import pytest
import scenario_builder as sb
from hypothesis import given, settings
from hypothesis import strategies as st

from geomodel.model.sets import maximal_cliques

REL = 1e-6


@st.composite
def graphs(draw) -> tuple[list[int], set[tuple[int, int]]]:
    n = draw(st.integers(min_value=0, max_value=7))
    nodes = sorted(draw(st.sets(st.integers(0, 20), min_size=n, max_size=n)))
    pairs = list(itertools.combinations(nodes, 2))
    edges = {pair for pair in pairs if draw(st.booleans())}
    return nodes, edges


def is_clique(group, edges) -> bool:
    return all(pair in edges for pair in itertools.combinations(sorted(group), 2))


@settings(max_examples=200, deadline=None)
@given(graphs())
def test_groups_are_exactly_the_maximal_cliques(graph):
    nodes, edges = graph
    groups = maximal_cliques(nodes, edges)
    brute = [
        subset
        for size in range(1, len(nodes) + 1)
        for subset in itertools.combinations(nodes, size)
        if is_clique(subset, edges)
    ]
    maximal = sorted(c for c in brute if not any(set(c) < set(d) for d in brute))
    assert groups == maximal
    # so a set of sites may be used together exactly when one group holds it all
    for subset in brute:
        assert any(set(subset) <= set(g) for g in groups)


def test_no_sites_no_groups():
    assert maximal_cliques([], set()) == []


def chain_scenario(participation: bool) -> dict:
    # a - b - c: links a-b and b-c (50 km), none between a and c. 800 H100 chips per site
    # (100 servers); prices a 30, c 40, b 60 USD/MWh. The job needs 1600 chip-hours in
    # one hour, so it must use two sites; a + c would be cheapest but is not linked.
    rate = sb.job_rate_eflop_per_chip_hour(0.989, 0.5)
    return sb.scenario(
        {
            "a": sb.site(lat=40.0, systems=100, price=30),
            "b": sb.site(lat=40.3, systems=100, price=60),
            "c": sb.site(lat=40.6, systems=100, price=40),
        },
        hours=1,
        training={"pretrain": sb.training_job(1600 * rate)},
        links={"routes": [sb.route("a", "b"), sb.route("b", "c")]},
        solver={"participation": "exact" if participation else "relaxed"},
    )


@pytest.mark.parametrize("participation", [True, False])
def test_a_job_never_uses_two_sites_without_a_link(tmp_path, catalog, participation):
    # Exact (binary spans): the linked pairs are {a, b} and {b, c}; each gives 800 + 800.
    # Working-chip cost per chip-hour is the same at every site except for price, so
    # {a, b} (30 + 60) beats {b, c} (40 + 60). The LP relaxation reaches the same plan:
    # with x chips at a and y at c, span_a >= x/800 <= group{a,b}, span_c >= y/800 <=
    # group{b,c}, groups sum <= 1, so x + y <= 800; b takes 1600 - x - y, and the cost
    # 30x + 40y + 60(1600 - x - y) falls fastest in x: x = 800, y = 0.
    result = sb.run(tmp_path, chain_scenario(participation), catalog)
    assert result.status == "optimal", result.messages
    chips = result.dataset["training_chips"]
    assert float(chips.sel(site="a").sum()) == pytest.approx(800, rel=REL)
    assert float(chips.sel(site="b").sum()) == pytest.approx(800, rel=REL)
    assert float(chips.sel(site="c").sum()) == pytest.approx(0.0, abs=1e-6)


def test_a_job_that_needs_unlinked_sites_together_is_explained_in_words(tmp_path, catalog):
    # 2,400 chip-hours in one hour need all three sites (800 chips each); a and c are not
    # linked, so no plan exists and the explanation names the linked-sites rule.
    data = chain_scenario(participation=True)
    rate = sb.job_rate_eflop_per_chip_hour(0.989, 0.5)
    data["training"]["pretrain"]["compute"] = 2400 * rate
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "infeasible"
    text = "\n".join(result.messages)
    assert "training job 'pretrain'" in text
    assert "only at sites linked pairwise" in text
