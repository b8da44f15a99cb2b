"""Hand-derived optima of pathways (docs/planning.md, "Pathways"; geomodel/model/pathway.py).

Every case is one site on a free firm source (price 0, carbon 0), so the only costs are
the annuities of what is built and the unserved-demand penalty; the chips needed follow
from the demand and each system's serving rate per chip (``service_tokens_per_s_per_chip``,
an input read from the inputs Dataset, not an output). With a discount rate r and
periods p of weight w_p years starting in year y_p, a unit that costs a USD a year while
it lives costs a x W_p in period p, W_p = sum over k < w_p of (1 + r)^-(y_p - y_0 + k)
(PyPSA's objective weighting).
"""

from __future__ import annotations

import pytest
import scenario_builder as sb

from geomodel.catalog import build_catalog
from geomodel.inputs.pathway import build_pathway_inputs
from geomodel.model.pathway import period_inputs
from geomodel.pathway import solve_pathway
from geomodel.scenario import load_scenario

REL = 1e-6
H100, B200 = "hgx_h100_8", "hgx_b200_8"
#: Mtoken served in a year by 1 token/s: 3600 x 8760 / 1e6
MTOKEN_PER_TOKEN_S_YEAR = 31.536


def crf(rate: float, years: float) -> float:
    """Capital recovery factor, docs/planning.md."""
    return rate * (1 + rate) ** years / ((1 + rate) ** years - 1) if rate else 1 / years


def pathway_scenario(
    tmp_path, *, demand_tokens_s, build, periods, rate, penalty, systems=None, envelope_mw=50.0
):
    site = sb.site(systems=0, price=0.0, carbon=0.0, supply_mw=100.0, envelope_mw=envelope_mw)
    site["systems"] = systems or {H100: 0}
    site["build"] = build
    data = sb.scenario(
        {"s": site},
        hours=2,
        inference={"chat": sb.service()},
        regions={
            "users": {"lat": 40.0, "lon": -100.0, "demand": {"chat": f"{demand_tokens_s} token/s"}}
        },
        objective={"unserved_penalty": f"{penalty} USD/Mtoken"},
        # systems live 4 years; a lifetime no option uses is an error, so only with systems
        finance={
            "discount_rate": rate,
            "lifetimes": {"systems": "4 years"} if "systems" in build else {},
        },
        periods=periods,
    )
    return sb.write(tmp_path, data)


def tokens_per_s_per_system(path, system: str) -> float:
    """Serving rate of one system, from the first period's inputs."""
    catalog = build_catalog()
    inputs = period_inputs(build_pathway_inputs(load_scenario(path, catalog=catalog), catalog))[0]
    rate = inputs["service_tokens_per_s_per_chip"].sel(service="chat", system=system)
    return float(rate) * float(inputs["chips_per_system"].sel(system=system))


def rows(result):
    return result.timeline().to_dict(orient="records")


# ---- build early at today's price, or wait for a cheaper chip ----------------------------


@pytest.mark.parametrize("k", [0.9, 1.1])
def test_build_early_or_wait_for_the_falling_price(tmp_path, k):
    """Periods 2026 and 2028 (2 years each), r = 10 %: W1 = 1 + 1/1.1 = 1.909091,
    W2 = 1.1^-2 + 1.1^-3 = 1.577761. An H100 server costs X = 100,000 USD at the
    catalogue price year 2025 and its price falls 30 % a year; lifetime 4 years, so
    A = X x CRF(10 %, 4) = 31,547.08 USD a year and its annuity is 0.7 A bought in 2026
    (alive 2026-2029: both periods), 0.343 A in 2028 (alive in 2028 only). Demand is
    that of n = 10 servers; unserved, it costs c = k A a year per server's worth.
    Early: n x 0.7 A x (W1 + W2) = 2.440796 n A. Late: n x (c W1 + 0.343 A W2) =
    n A (1.909091 k + 0.541172). Break-even k = 0.995041: k = 0.9 waits (1.259354 n A),
    k = 1.1 builds early (2.440796 n A)."""
    n, x, rate = 10, 100_000.0, 0.1
    a = x * crf(rate, 4)
    periods = {"years": [2026, 2028], "systems": {H100: {"price_decline": 0.3}}}
    build = {"systems": {H100: {"max": 100, "capex": f"{x} USD", "fixed_om": "0 USD/year"}}}
    probe = pathway_scenario(
        tmp_path, demand_tokens_s=1e6, build=build, periods=periods, rate=rate, penalty=1
    )
    per_server = tokens_per_s_per_system(probe, H100)
    demand = n * per_server
    penalty = k * a / (per_server * MTOKEN_PER_TOKEN_S_YEAR)  # USD/Mtoken: c = k A
    path = pathway_scenario(
        tmp_path, demand_tokens_s=demand, build=build, periods=periods, rate=rate, penalty=penalty
    )
    result = solve_pathway(path)
    w1, w2 = 1 + 1 / 1.1, 1.1**-2 + 1.1**-3
    assert a == pytest.approx(31_547.08, rel=1e-6)
    built = rows(result)
    assert len(built) == 1
    if k < 0.995041:
        expected = n * (k * a * w1 + 0.7**3 * a * w2)
        assert built[0]["online"] == 2028
    else:
        expected = n * 0.7 * a * (w1 + w2)
        assert built[0]["online"] == 2026
    assert built[0]["amount"] == pytest.approx(n, rel=REL)
    assert result.kpis["net_present_cost_usd"] == pytest.approx(expected, rel=REL)


# ---- a lead time forces the decision periods before the need -----------------------------


@pytest.mark.parametrize(("lead", "decided"), [(4, 2026), (2, 2028)])
def test_a_lead_time_forces_an_early_decision(tmp_path, lead, decided):
    """100 H100 servers (800 chips) are installed under a 0.5 MW envelope; demand is 0 in
    2026 and 2028 and all 800 chips' worth in 2030 (growth factors 0, 0, 1). Serving
    needs 800 x nameplate kW x PUE 1.2 of envelope (docs/model.md (4): every working chip
    at nameplate), so 800 x 1.2 x nameplate / 1000 - 0.5 MW must be built, online in
    2030. With a 4-year facility lead it is decided in 2026, with 2 years in 2028; it is
    not online before 2030 (0.5 MW in 2028)."""
    h100 = sb.server_figures(build_catalog())
    periods = {
        "years": [2026, 2028, 2030],
        "lead_times": {"facility": f"{lead} years"},
        "demand_growth": {"chat": [0, 0, 1]},
    }
    build = {"power_envelope": {"max": "10 MW", "capex": "1000 USD/MW", "fixed_om": "0 USD/MW/year"}}
    kwargs = dict(
        build=build, periods=periods, rate=0.05, penalty=1e4, systems={H100: 100}, envelope_mw=0.5
    )
    probe = pathway_scenario(tmp_path, demand_tokens_s=1, **kwargs)
    demand = 100 * tokens_per_s_per_system(probe, H100)
    result = solve_pathway(pathway_scenario(tmp_path, demand_tokens_s=demand, **kwargs))
    needed_mw = 800 * 1.2 * h100.nameplate_kw / 1000 - 0.5
    (row,) = [r for r in rows(result) if r["asset"] == "facility power"]
    assert (row["decided"], row["online"]) == (decided, 2030)
    assert row["amount"] == pytest.approx(needed_mw, rel=1e-4)
    envelope = result.dataset["fleet_envelope_mw"].sel(site="s")
    assert float(envelope.sel(period=2028)) == pytest.approx(0.5)
    assert float(envelope.sel(period=2030)) == pytest.approx(0.5 + needed_mw, rel=1e-4)


# ---- a retirement replaced by the generation with more performance per dollar -----------


@pytest.mark.parametrize(("b200_capex", "winner"), [(300_000.0, B200), (3_000_000.0, H100)])
def test_retired_servers_are_replaced_by_the_better_value_generation(tmp_path, b200_capex, winner):
    """10 installed H100 servers serve the demand until they retire in 2028. Then the
    demand (10 H100 servers' worth, D) is met by whichever costs less a year per token/s:
    r = 0 and 4-year lives, so a server costs capex / 4 a year; H100 200,000 USD. n
    servers of the winner: D / (its tokens/s per server); NPC = 2 years x n x capex / 4
    (2028's weight is the gap before it, 2 years; nothing is built in 2026)."""
    periods = {
        "years": [2026, 2028],
        "retirements": [{"site": "s", "asset": H100, "year": 2028, "installed": 2023}],
        "systems": {H100: {"price_decline": 0}, B200: {"price_decline": 0}},
    }
    capex = {H100: 200_000.0, B200: b200_capex}
    build = {
        "systems": {
            h: {"max": 1000, "capex": f"{capex[h]} USD", "fixed_om": "0 USD/year"} for h in (H100, B200)
        }
    }
    kwargs = dict(build=build, periods=periods, rate=0.0, penalty=1e4, systems={H100: 10, B200: 0})
    probe = pathway_scenario(tmp_path, demand_tokens_s=1, **kwargs)
    rate = {h: tokens_per_s_per_system(probe, h) for h in (H100, B200)}
    demand = 10 * rate[H100]
    per_token = {h: capex[h] / 4 / rate[h] for h in rate}
    assert min(per_token, key=per_token.get) == winner  # the cases are what they claim
    result = solve_pathway(pathway_scenario(tmp_path, demand_tokens_s=demand, **kwargs))
    n = demand / rate[winner]
    (row,) = rows(result)
    assert (row["what"], row["online"]) == (winner, 2028)
    assert row["amount"] == pytest.approx(n, rel=REL)
    assert result.kpis["net_present_cost_usd"] == pytest.approx(2 * n * capex[winner] / 4, rel=REL)


# ---- myopic and perfect foresight differ -------------------------------------------------


@pytest.mark.parametrize("foresight", ["perfect", "myopic"])
def test_myopic_buys_now_what_perfect_foresight_waits_for(tmp_path, foresight):
    """r = 0, periods 2026 and 2028 of 2 years each, systems live 4 years (both periods).
    Demand D = 10 H100 servers' worth. Per year, with K = 1,000,000 USD: the H100s
    meeting D cost 1.0 K (10 servers at 400,000 USD / 4 years), unserved D costs 1.2 K,
    and B200s meeting D, sold from 2028 (first year), cost 0.2 K.
    Myopic: 2026 sees only 2026 and buys the H100s (1.0 K < 1.2 K); they live and are paid
    in 2028 too, where they serve D: NPC = 2 x 1.0 K + 2 x 1.0 K = 4.0 K.
    Perfect: buying the H100s costs 4.0 K over both periods; leaving 2026 unserved and
    buying B200s in 2028 costs 2 x 1.2 K + 2 x 0.2 K = 2.8 K: it waits."""
    big_k = 1_000_000.0
    periods = {
        "years": [2026, 2028],
        "foresight": foresight,
        "systems": {H100: {"price_decline": 0}, B200: {"price_decline": 0, "first_year": 2028}},
    }
    kwargs = dict(periods=periods, rate=0.0, systems={H100: 0, B200: 0})
    probe_build = {"systems": {h: {"max": 1000, "capex": "1 USD"} for h in (H100, B200)}}
    probe = pathway_scenario(tmp_path, demand_tokens_s=1, build=probe_build, penalty=1, **kwargs)
    rate = {h: tokens_per_s_per_system(probe, h) for h in (H100, B200)}
    demand = 10 * rate[H100]
    n_b200 = demand / rate[B200]
    capex = {H100: 400_000.0, B200: 0.2 * big_k * 4 / n_b200}
    build = {
        "systems": {
            h: {"max": 1000, "capex": f"{capex[h]} USD", "fixed_om": "0 USD/year"} for h in capex
        }
    }
    penalty = 1.2 * big_k / (demand * MTOKEN_PER_TOKEN_S_YEAR)
    path = pathway_scenario(tmp_path, demand_tokens_s=demand, build=build, penalty=penalty, **kwargs)
    result = solve_pathway(path)
    built = {(r["what"], r["online"]): r["amount"] for r in rows(result)}
    if foresight == "myopic":
        assert built == {(H100, 2026): pytest.approx(10, rel=REL)}
        assert result.kpis["net_present_cost_usd"] == pytest.approx(4.0 * big_k, rel=REL)
    else:
        assert built == {(B200, 2028): pytest.approx(n_b200, rel=REL)}
        assert result.kpis["net_present_cost_usd"] == pytest.approx(2.8 * big_k, rel=REL)
