"""Property tests (hypothesis) of the placement model on random small scenarios.

Each example builds and solves a scenario of a few sites and hours, so the
example counts are kept small; the deadline is off because a solve takes a
few tenths of a second.
"""

from __future__ import annotations

import pytest
import scenario_builder as sb
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from invariants import check_invariants

HOURS = 3
FAST = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure is reproducible
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
prices = st.floats(10, 120, allow_nan=False)
pues = st.floats(1.0, 1.6, allow_nan=False)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("properties")


def idle_mwh(systems: int, pue: float, h100, hours: int = HOURS) -> float:
    """Energy every installed chip draws whether it works or not: chips x idle kW x PUE x h."""
    return systems * h100.chips_per_system * h100.idle_kw / 1000 * pue * hours


def two_sites(p0, p1, pue0, pue1, k: float, h100) -> dict:
    """Two sites of 800 chips, no links; a job and a demand scaled by ``k``.

    At k = 1 the job needs 0.2 x 800 chips x 3 h = 480 chip-hours and the demand
    0.5 Mtoken/s x 2e11 FLOP = 100 PFLOPS = 101.1 chips (FP8, efficiency 0.5) per hour;
    at k = 3 both together need 1440 + 3 x 303.2 = 2350 of one site's 2400 chip-hours,
    so nothing binds and one site can do it all.
    """
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    return sb.scenario(
        {
            "s0": sb.site(lat=40.0, lon=-100.0, systems=100, price=p0, pue=pue0),
            "s1": sb.site(lat=40.2, lon=-100.2, systems=100, price=p1, pue=pue1),
        },
        hours=HOURS,
        training={"pretrain": sb.training_job(k * 0.2 * 800 * HOURS * rate)},
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=20, efficiency=0.5)},
        regions={"users": {"lat": 40.1, "lon": -100.1, "demand": {"chat": f"{k * 0.5e6} token/s"}}},
    )


@FAST
@given(p0=prices, p1=prices, pue0=pues, pue1=pues, k=st.floats(0.1, 3.0))
def test_scaling_all_demand_by_k_scales_the_variable_energy_by_k(
    folder, catalog, h100, p0, p1, pue0, pue1, k
):
    # Idle power does not depend on the work: E(k) = E_idle + k x (E(1) - E_idle), where
    # E_idle = sum over sites of installed chips x idle kW x PUE x hours. The same holds
    # for the cost (every site has one flat price) while nothing binds.
    base = sb.run_text(folder, two_sites(p0, p1, pue0, pue1, 1.0, h100), catalog)
    scaled = sb.run_text(folder, two_sites(p0, p1, pue0, pue1, k, h100), catalog)
    assert base.ok and scaled.ok, scaled.messages
    fixed_mwh = idle_mwh(100, pue0, h100) + idle_mwh(100, pue1, h100)
    fixed_usd = p0 * idle_mwh(100, pue0, h100) + p1 * idle_mwh(100, pue1, h100)
    assert scaled.kpis["unserved_fraction"] == pytest.approx(0.0, abs=1e-9)
    assert scaled.kpis["energy_mwh"] - fixed_mwh == pytest.approx(
        k * (base.kpis["energy_mwh"] - fixed_mwh), rel=1e-6
    )
    assert scaled.kpis["cost_usd"] - fixed_usd == pytest.approx(
        k * (base.kpis["cost_usd"] - fixed_usd), rel=1e-6
    )


@FAST
@given(
    p0=prices,
    p1=prices,
    pue0=pues,
    pue1=pues,
    premium=st.floats(1.0, 50.0),
    extra_pue=pues,
    extra_systems=st.integers(10, 200),
    k=st.floats(0.2, 20.0),  # above ~12 the two sites run short and demand goes unserved
)
def test_adding_a_more_expensive_site_never_raises_the_objective(
    folder, catalog, h100, p0, p1, pue0, pue1, premium, extra_pue, extra_systems, k
):
    # Any plan without the new site is still feasible with it (its chips idle), at the old
    # objective plus the new site's idle energy x its price. So the optimum with the site,
    # less that fixed cost, is at most the old optimum, and equal when the site is unused.
    data = two_sites(p0, p1, pue0, pue1, k, h100)
    data["training"]["pretrain"]["compute"] = min(data["training"]["pretrain"]["compute"], 2000.0)
    without = sb.run_text(folder, data, catalog)
    # dearer per unit of work: a working chip costs price x PUE x (training - idle) kW
    price = (max(p0 * pue0, p1 * pue1) + premium) / extra_pue
    data["sites"]["extra"] = sb.site(
        lat=40.1, lon=-99.9, systems=extra_systems, price=price, pue=extra_pue
    )
    with_site = sb.run_text(folder, data, catalog)
    assert without.ok and with_site.ok, with_site.messages
    fixed = price * idle_mwh(extra_systems, extra_pue, h100)
    assert with_site.kpis["objective"] - fixed <= without.kpis["objective"] * (1 + 1e-9) + 1e-6
    ds = with_site.dataset
    used = float(
        ds["training_chips"].sel(site="extra").sum() + ds["inference_chips"].sel(site="extra").sum()
    )
    event("the dearer site works" if used > 1e-6 else "the dearer site idles")
    if used <= 1e-6:
        assert with_site.kpis["objective"] - fixed == pytest.approx(without.kpis["objective"], rel=1e-7)
    if without.kpis["unserved_fraction"] == 0:
        # nothing was short: the dearer site does no work
        assert used == pytest.approx(0.0, abs=1e-6)


@st.composite
def small_scenarios(draw) -> dict:
    """2-3 sites (one also on a grid with an import limit), a mesh of links, a job and a
    service whose SLA leaves some sites out of reach."""
    n_sites = draw(st.integers(2, 3))
    sites = {}
    for i in range(n_sites):
        sites[f"s{i}"] = sb.site(
            lat=40.0 + draw(st.floats(-3, 3)),
            lon=-100.0 + draw(st.floats(-6, 6)),
            systems=draw(st.integers(5, 60)),
            price=draw(prices),
            carbon=draw(st.floats(0, 800)),
            pue=draw(pues),
            availability=draw(st.floats(0.8, 1.0)),
            # full load is at most 60 x 8 x 1.275 kW x 1.6 = 0.98 MW: supply and envelope fit it
            supply_mw=draw(st.floats(1.2, 3.0)),
            envelope_mw=3.0,
        )
    sites["s0"].update(grid="grid_us_tx_ercot", grid_import_limit=f"{draw(st.floats(0.5, 2.0))} MW")
    usable_chips = sum(s["systems"]["hgx_h100_8"] * 8 * s["availability"] for s in sites.values())
    work = draw(st.floats(0.05, 0.5)) * usable_chips * HOURS * 1.7  # EFLOP, < 1.7802 per chip-hour
    first = sites["s0"]
    return sb.scenario(
        sites,
        hours=HOURS,
        training={"pretrain": sb.training_job(work)},
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=draw(st.floats(3, 12)))},
        regions={  # at s0: 2 ms overhead, within any SLA drawn
            "users": {
                "lat": first["lat"],
                "lon": first["lon"],
                "demand": {"chat": f"{draw(st.floats(0.05, 3.0)) * 1e6} token/s"},
            }
        },
        links={"mesh": {"technology": "smf_800zr", "fibre_pairs": 1}},
        objective={"carbon_price": draw(st.floats(0, 200)), "unserved_penalty": 100},
    )


@FAST
@given(data=small_scenarios())
def test_balance_chips_sources_and_sla_hold_at_every_site_and_hour(folder, catalog, data):
    result = sb.run_text(folder, data, catalog)
    assert result.ok, result.messages
    beyond = int((result.inputs["latency_ms"] > result.inputs["sla_ms"].max()).sum())
    event(f"{beyond} sites beyond the SLA")
    event("some demand unserved" if result.kpis["unserved_fraction"] > 0 else "all demand served")
    event("grid import used" if float(result.dataset["grid_import_mw"].sum()) > 0 else "no grid import")
    check_invariants(result)


def test_invariants_hold_on_the_quickstart(catalog):
    from pathlib import Path

    from geomodel.api import solve

    scenarios = Path(__file__).resolve().parents[2] / "scenarios"
    result = solve(scenarios / "quickstart.yaml", catalog=catalog)
    assert result.ok, result.messages
    check_invariants(result)
