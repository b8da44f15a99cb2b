"""Hand-derived optima of constraint group (8), water, and of the envelope's basis (4).

H100 figures (catalogue inputs, the ``h100`` fixture): 800 chips per 100 servers,
0.3925 kW idle, 0.969 kW at training load, 1.275 kW nameplate. Sites run on a firm
source with no grid; water = IT energy (MWh) x WUE (L/kWh) = m3.
"""

from __future__ import annotations

import pytest
import scenario_builder as sb

HOURS = 4
REL = 1e-6


def chip_hours(result, site: str) -> float:
    return float(result.dataset["training_chips"].sel(site=site).sum())


def test_idle_chips_use_water_and_its_price_enters_the_objective(tmp_path, catalog, h100):
    site = {**sb.site(systems=100, price=50, pue=1.2), "wue": "1.5 L/kWh", "water_price": "2 USD/m3"}
    result = sb.run(tmp_path, sb.scenario({"a": site}, hours=HOURS), catalog)
    assert result.status == "optimal", result.messages
    # IT energy: 800 x 0.3925 kW x 4 h = 1.256 MWh; x 1.5 L/kWh = 1.884 m3; x 2 USD = 3.768 USD
    it_mwh = 800 * h100.idle_kw * HOURS / 1000
    assert it_mwh == pytest.approx(1.256)
    assert result.kpis["water_m3"] == pytest.approx(1.884, rel=REL)
    assert float(result.dataset["water_m3"].sel(site="a").sum()) == pytest.approx(1.884, rel=REL)
    assert result.kpis["water_cost_term_usd"] == pytest.approx(3.768, rel=REL)
    # energy: 1.2 x 1.256 MWh x 50 USD/MWh = 75.36 USD; objective 75.36 + 3.768 = 79.128 USD
    assert result.kpis["objective"] == pytest.approx(79.128, rel=REL)


def test_a_water_cap_moves_work_to_the_dry_site(tmp_path, catalog, h100):
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    # wet: 2 L/kWh, 30 USD/MWh; dry: no water, 60 USD/MWh. 1600 chip-hours of work fit
    # either; a chip-hour costs 30 x 1.2 x 0.5765 / 1000 = 0.0208 USD at wet, twice at dry.
    # At wet the idle chips use 1.256 MWh x 2 = 2.512 m3 and each working chip-hour
    # 0.5765 kWh x 2 L = 1.153 L more. A cap of 3.665 m3 over the 4 h (3.665 x 8760 / 4 =
    # 8,026.35 m3 a year) leaves (3.665 - 2.512) / 0.001153 = 1000 chip-hours at wet.
    cap_m3 = 2.512 + 1000 * h100.working_extra_kw * 2 / 1000
    assert cap_m3 == pytest.approx(3.665)
    sites = {
        "wet": {**sb.site(systems=100, price=30, pue=1.2), "wue": 2.0, "water_cap": cap_m3 * 2190},
        "dry": {**sb.site(lat=40.3, systems=100, price=60, pue=1.2), "cooling": "air", "wue": 0},
    }
    data = sb.scenario(sites, hours=HOURS, training={"pretrain": sb.training_job(1600 * rate)})
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    assert chip_hours(result, "wet") == pytest.approx(1000, rel=1e-6)
    assert chip_hours(result, "dry") == pytest.approx(600, rel=1e-6)
    assert result.kpis["water_m3"] == pytest.approx(cap_m3, rel=1e-6)
    uncapped = sb.run(tmp_path, data, catalog, overrides={"sites.wet.water_cap": None})
    assert chip_hours(uncapped, "wet") == pytest.approx(1600, rel=1e-6)


def test_the_envelope_counts_nameplate_unless_the_site_counts_at_load(tmp_path, catalog, h100):
    # Envelope 1.2 x (800 x 0.3925 + 400 x (1.275 - 0.3925)) / 1000 = 0.8004 MW: at nameplate
    # 400 chips may work; at training load (0.969 - 0.3925 = 0.5765 kW over idle)
    # (0.8004 / 1.2 - 0.314) / 0.0005765 = 612.32 chips
    envelope_mw = 1.2 * (800 * h100.idle_kw + 400 * h100.nameplate_extra_kw) / 1000
    assert envelope_mw == pytest.approx(0.8004)
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    site = sb.site(systems=100, price=40, pue=1.2, envelope_mw=envelope_mw)
    data = sb.scenario({"only": site}, hours=HOURS, training={"pretrain": sb.training_job(1.0 * rate)})
    for basis, most in (("nameplate", 400.0), ("at_load", 612.32)):
        most_work = most * HOURS * rate
        over = {"sites.only.envelope_basis": basis, "training.pretrain.compute": 0.999 * most_work}
        assert sb.run(tmp_path, data, catalog, overrides=over).status == "optimal", basis
        over["training.pretrain.compute"] = 1.001 * most_work
        assert sb.run(tmp_path, data, catalog, overrides=over).status == "infeasible", basis
