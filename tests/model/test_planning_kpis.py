"""The cost KPIs of a run, hand-derived: capex and fixed O&M a year, opex, the yearly
total, and the levelised cost of compute (docs/planning.md, "Results")."""

from __future__ import annotations

import math

import pytest
import scenario_builder as sb
from test_planning_optima import rack_scenario

REL = 1e-6


def test_usd_per_eflop_is_the_yearly_cost_over_the_training_done_in_a_year(tmp_path, catalog):
    """Whole racks: 2 NVL72 racks at a fixed O&M of 1,000 x 8760 / 2 = 4,380,000 USD a year
    each, energy free: the year costs 8,760,000 USD. The job does 100 chips x 2 h x
    2.5 PFLOPS x 3.6 x 0.5 = 900 EFLOP in 2 h, 900 x 8760 / 2 = 3,942,000 EFLOP a year:
    2.2222 USD per EFLOP. No inference: usd_per_mtoken is not defined (NaN)."""
    result = sb.run(tmp_path, rack_scenario(whole=True), catalog)
    assert result.status == "optimal", result.messages
    kpis = result.kpis
    assert kpis["capex_usd_per_year"] == pytest.approx(0.0, abs=1e-9)  # capex 0, all fixed O&M
    assert kpis["fixed_om_usd_per_year"] == pytest.approx(8_760_000, rel=REL)
    assert kpis["opex_usd"] == pytest.approx(0.0, abs=1e-9)
    assert kpis["total_cost_usd_per_year"] == pytest.approx(8_760_000, rel=REL)
    assert kpis["usd_per_eflop"] == pytest.approx(8_760_000 / 3_942_000, rel=REL)
    assert math.isnan(kpis["usd_per_mtoken"])


def test_usd_per_mtoken_is_the_yearly_cost_over_the_tokens_served_in_a_year(tmp_path, catalog, h100):
    """100 H100 servers (800 chips) serve 1 Mtoken/s at 2e11 FLOP/token for 4 h: 200 PFLOPS
    = 200 / (1.979 x 0.5) = 202.12 working chips. Facility power = PUE 1.2 x (800 x idle +
    202.12 x (serving - idle)) kW; energy x 50 USD/MWh over 4 h is the opex (no build), x 8760 / 4
    a year. Tokens: 1e6 x 3600 x 4 per 4 h, x 2190 = 31,536,000 Mtoken a year."""
    data = sb.scenario(
        {"s": sb.site(systems=100, price=50.0, carbon=0.0)},
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=50, efficiency=0.5)},
        regions={"users": {"lat": 40.05, "lon": -100.0, "demand": {"chat": "1e6 token/s"}}},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    working = 200 / (h100.fp8_pflops * 0.5)
    assert working == pytest.approx(202.12, abs=0.01)
    facility_mw = 1.2 * (800 * h100.idle_kw + working * h100.serving_extra_kw) / 1000
    opex = 50.0 * facility_mw * 4
    kpis = result.kpis
    assert kpis["opex_usd"] == pytest.approx(opex, rel=REL)
    assert kpis["total_cost_usd_per_year"] == pytest.approx(opex * 8760 / 4, rel=REL)
    assert kpis["usd_per_mtoken"] == pytest.approx(opex * 2190 / 31_536_000, rel=REL)
    assert math.isnan(kpis["usd_per_eflop"])
    assert kpis["capex_usd_per_year"] == 0.0


def test_full_cost_adds_the_installed_fleets_annuity_and_utilisation_kpis(tmp_path, catalog, h100):
    """The serving scenario above on a 2 MW hall. Installed capital at the default 5 %:
    100 HGX H100 at the catalogue's 275,000 USD over 5 years, CRF 0.05 x 1.05^5 /
    (1.05^5 - 1) = 0.2309748: 6,351,806 USD a year (fixed O&M 0); 2 MW of facility power
    at datacentre_facility's 11.7 M USD/MW_IT / PUE 1.2 = 9.75 M per MW over 20 years,
    CRF 0.0802426: 782,365 + fixed O&M 292,500 / 1.2 = 243,750, so 1,026,115 a MW,
    2,052,231 for 2 MW (no grid: no grid connection). 8,404,037 USD a year in all, added
    to the marginal total for usd_per_mtoken_full. Chip utilisation: 202.12 working chips
    of 800 = 0.25265; achievable: the site's utilisation, 1."""
    data = sb.scenario(
        {"s": sb.site(systems=100, price=50.0, carbon=0.0, envelope_mw=2.0)},
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=50, efficiency=0.5)},
        regions={"users": {"lat": 40.05, "lon": -100.0, "demand": {"chat": "1e6 token/s"}}},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    kpis = result.kpis
    crf5 = 0.05 * 1.05**5 / (1.05**5 - 1)
    crf20 = 0.05 * 1.05**20 / (1.05**20 - 1)
    assert (crf5, crf20) == (pytest.approx(0.2309748, abs=1e-7), pytest.approx(0.0802426, abs=1e-7))
    systems = 100 * 275_000 * crf5
    facility = 2 * (11.7e6 / 1.2 * crf20 + 292_500 / 1.2)
    assert (systems, facility) == (pytest.approx(6_351_806, abs=1), pytest.approx(2_052_231, abs=1))
    assert kpis["installed_capital_usd_per_year"] == pytest.approx(systems + facility, rel=REL)
    full = kpis["total_cost_usd_per_year"] + systems + facility
    assert kpis["usd_per_mtoken_full"] == pytest.approx(full / 31_536_000, rel=REL)
    assert kpis["usd_per_mtoken_full"] > kpis["usd_per_mtoken"]
    assert math.isnan(kpis["usd_per_eflop_full"])
    working = 200 / (h100.fp8_pflops * 0.5)
    assert kpis["chip_utilisation"] == pytest.approx(working / 800, rel=REL)
    assert kpis["achievable_utilisation"] == pytest.approx(1.0)
