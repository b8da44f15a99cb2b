"""Hand-derived optima of tiny scenarios, one per constraint group of docs/model.md.

Every expected number is worked out here from docs/model.md and the scenario's
parameters (catalogue figures of the H100 server are inputs and read from the
catalogue); the arithmetic is written next to each assertion. Sites run on a
firm on-site source with explicit price and carbon and no grid, so nothing
depends on hourly grid profiles.

H100 figures used below (built-in catalogue): 8 chips per server, 0.989 PFLOPS
BF16 and 1.979 PFLOPS FP8 dense per chip, 1.275 kW nameplate per working chip (what the
envelope counts), 0.969 kW at training load (0.76 x 10.2 kW / 8, Newkirk et al. 2025)
and 0.8925 kW at serving load (0.70 x nameplate), 0.3925 kW per idle chip, MTBF
50,000 h per chip.
"""

from __future__ import annotations

import math

import pytest
import scenario_builder as sb
from pyproj import Geod

from geomodel.results.executable import check_executable

HOURS = 4
REL = 1e-6


def per_site(result, name: str, site: str) -> float:
    """Sum of a results variable over every dimension but ``site``, at ``site``."""
    data = result.dataset[name].sel(site=site)
    return float(data.sum())


def chip_hours(result, site: str) -> float:
    return float(result.dataset["training_chips"].sel(site=site).sum())


# ---- (1) training work, (3) chips, (4) power, objective: the cheaper site fills up first ----


#: solver.method -> what it stands for on this small LP ("auto": primal simplex below
#: AUTO_IPM_MIN_COLUMNS), and the relative accuracy it reaches (PDLP stops at 1e-4)
METHODS = {
    "auto": ("primal_simplex", REL),
    "dual_simplex": ("dual_simplex", REL),
    "primal_simplex": ("primal_simplex", REL),
    "ipm": ("ipm", REL),
    "ipm_no_crossover": ("ipm_no_crossover", REL),
    "pdlp": ("pdlp", 1e-3),
}


@pytest.mark.parametrize("method", METHODS)
def test_cheaper_site_takes_the_work_up_to_its_capacity(tmp_path, catalog, h100, method):
    chips = 100 * h100.chips_per_system  # 800 chips per site, availability 1
    pue = 1.2
    data = sb.scenario(
        {
            "cheap": sb.site(systems=100, price=30, carbon=100, pue=pue),
            "dear": sb.site(lat=40.3, systems=100, price=60, carbon=400, pue=pue),
        },
        hours=HOURS,
        training={"pretrain": sb.training_job(8000)},
        links={"routes": [sb.route("cheap", "dear", length_km=50)]},
        # the LP methods on an LP: site use relaxed (binary, the plan is the same: the
        # link carries the exchange, checked below in (6))
        solver={"method": method, "participation": "relaxed"},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    used, rel = METHODS[method]
    assert result.dataset.attrs["solver_method"] == used

    # (1) one chip-hour does 0.989 PFLOPS x 3.6 x MFU 0.5 x goodput 1 = 1.7802 EFLOP
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    assert rate == pytest.approx(1.7802)
    # cheap does all it can: 800 chips x 4 h x 1.7802 = 5696.64 EFLOP ...
    cheap_chip_hours = chips * HOURS
    # ... and dear the rest: (8000 - 5696.64) / 1.7802 = 1293.877 chip-hours
    dear_chip_hours = (8000 - cheap_chip_hours * rate) / rate
    assert dear_chip_hours == pytest.approx(1293.877, rel=1e-6)
    trained = result.dataset["training_chips"].sum(("job", "system"))
    assert trained.sel(site="cheap").values == pytest.approx([chips] * HOURS)
    assert chip_hours(result, "dear") == pytest.approx(dear_chip_hours, rel=rel)
    assert float(result.dataset["job_work_eflop"].sum()) == pytest.approx(8000, rel=rel)

    # (4) energy of a site = PUE x (installed x idle kW x h + working chip-h x (training - idle) kW)
    #     + half the link's power x h. The 50 km 800ZR route has no amplifier and no
    #     regenerator: 25,600 Gb/s x 0.0675 W/(Gb/s) = 1728 W, 864 W at each end.
    technology = catalog.link_technology("smf_800zr")
    link_mw = technology.capacity_gbit_s_per_fibre_pair * technology.transceiver_power_w_per_gbit_s / 1e6
    assert link_mw == pytest.approx(0.001728)
    idle_mwh = chips * h100.idle_kw / 1000 * pue * HOURS  # 800 x 0.3925 kW x 1.2 x 4 h = 1.5072 MWh
    assert idle_mwh == pytest.approx(1.5072)
    extra_mw_per_chip = h100.working_extra_kw / 1000 * pue  # 0.5765 kW x 1.2 = 0.6918 kW
    dci_mwh = link_mw / 2 * HOURS
    cheap_mwh = idle_mwh + cheap_chip_hours * extra_mw_per_chip + dci_mwh  # 3.724416 MWh
    dear_mwh = idle_mwh + dear_chip_hours * extra_mw_per_chip + dci_mwh  # 2.405760 MWh
    assert cheap_mwh == pytest.approx(3.724416)
    assert per_site(result, "energy_mwh", "cheap") == pytest.approx(cheap_mwh, rel=rel)
    assert per_site(result, "energy_mwh", "dear") == pytest.approx(dear_mwh, rel=rel)

    # cost = price x energy: 30 x 3.724416 + 60 x 2.405760 = 256.078 USD
    cost = 30 * cheap_mwh + 60 * dear_mwh
    assert cost == pytest.approx(256.078, abs=1e-3)
    assert per_site(result, "energy_cost_usd", "cheap") == pytest.approx(30 * cheap_mwh, rel=rel)
    assert result.kpis["cost_usd"] == pytest.approx(cost, rel=rel)
    assert result.kpis["energy_mwh"] == pytest.approx(cheap_mwh + dear_mwh, rel=rel)
    # emissions: 0.1 t/MWh x 3.724416 + 0.4 t/MWh x 2.405760
    assert result.kpis["emissions_tco2"] == pytest.approx(0.1 * cheap_mwh + 0.4 * dear_mwh, rel=rel)
    # carbon price 0: the objective is the energy cost
    assert result.kpis["objective"] == pytest.approx(cost, rel=rel)
    assert result.kpis["energy_cost_term_usd"] == pytest.approx(cost, rel=rel)
    assert result.kpis["carbon_cost_term_usd"] == pytest.approx(0.0, abs=1e-9)


# ---- (2) inference: serve exists only within the SLA ------------------------------------


def round_trip_ms(lat1, lon1, lat2, lon2, us_per_km, route_factor, overhead_ms) -> float:
    """docs/scenarios.md, "Latency": geodesic km x route factor x fibre us/km x 2 + overhead
    (pyproj, WGS84)."""
    _, _, metres = Geod(ellps="WGS84").inv(lon1, lat1, lon2, lat2)
    return metres / 1000 * route_factor * us_per_km * 2 / 1000 + overhead_ms


def sla_scenario(sla_ms: float) -> dict:
    return sb.scenario(
        {
            "near": sb.site(lat=40.5, lon=-100.0, price=60, carbon=100),
            "far": sb.site(lat=40.0, lon=-90.0, price=20, carbon=100),  # cheaper
        },
        hours=2,
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=sla_ms, efficiency=0.5)},
        regions={"users": {"lat": 40.0, "lon": -100.0, "demand": {"chat": "1e6 token/s"}}},
        latency={"technology": "smf_400zr", "route_factor": 1.5, "overhead": "2 ms"},
    )


def test_a_site_beyond_the_sla_serves_nothing(tmp_path, catalog, h100):
    us_per_km = catalog.link_technology("smf_400zr").latency_us_per_km  # 4.9 us/km
    near_ms = round_trip_ms(40.0, -100.0, 40.5, -100.0, us_per_km, 1.5, 2.0)  # 55.5 km: 2.82 ms
    far_ms = round_trip_ms(40.0, -100.0, 40.0, -90.0, us_per_km, 1.5, 2.0)  # 853.5 km: 14.55 ms
    assert near_ms == pytest.approx(2.816, abs=1e-3)
    assert far_ms == pytest.approx(14.546, abs=1e-3)

    result = sb.run(tmp_path, sla_scenario(sla_ms=10), catalog)  # far: 14.55 ms > 10 ms
    assert result.status == "optimal", result.messages
    latency = result.dataset["latency_ms"].sel(region="users")
    assert float(latency.sel(site="near")) == pytest.approx(near_ms, rel=1e-9)
    assert float(latency.sel(site="far")) == pytest.approx(far_ms, rel=1e-9)
    served = result.dataset["served_tokens_per_s"].sel(service="chat", region="users")
    # far is cheaper but out of reach: everything is served at near
    assert served.sel(site="far").values == pytest.approx([0.0, 0.0], abs=1e-9)
    assert served.sel(site="near").values == pytest.approx([1e6, 1e6], rel=REL)
    # (2) chips: 1e6 token/s x 2e11 FLOP = 200 PFLOPS / (1.979 PFLOPS x 0.5) = 202.12 chips
    need = 1e6 * 2e11 / 1e15 / (h100.fp8_pflops * 0.5)
    assert need == pytest.approx(202.1223, rel=1e-6)
    chips = result.dataset["inference_chips"].sum(("service", "system"))
    assert chips.sel(site="near").values == pytest.approx([need, need], rel=REL)
    assert chips.sel(site="far").values == pytest.approx([0.0, 0.0], abs=1e-9)
    assert result.kpis["latency_ms_mean"] == pytest.approx(near_ms, rel=1e-9)
    assert result.kpis["unserved_fraction"] == pytest.approx(0.0, abs=1e-12)

    # with a 20 ms SLA the cheaper far site is within reach and takes all the demand
    relaxed = sb.run(tmp_path, sla_scenario(sla_ms=10), catalog, overrides={"inference.chat.sla": 20})
    served = relaxed.dataset["served_tokens_per_s"].sel(service="chat", region="users")
    assert served.sel(site="far").values == pytest.approx([1e6, 1e6], rel=REL)
    assert relaxed.kpis["latency_ms_mean"] == pytest.approx(far_ms, rel=1e-9)


# ---- (1) the job window ---------------------------------------------------------------------


def test_training_runs_only_inside_its_window(tmp_path, catalog, h100):
    chips = 100 * h100.chips_per_system  # 800
    # goodput with free checkpoints (C = 0): the best interval is 0, where the exact
    # exponential model gives g = exp(-R / M); R = 30 min, M = 50,000 h / 800 chips =
    # 62.5 h: g = exp(-0.008) = 0.992032
    cluster_mtbf = h100.mtbf_hours / chips
    goodput = math.exp(-0.5 / cluster_mtbf)
    assert goodput == pytest.approx(0.992032, abs=1e-6)
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5, goodput)  # 1.76602 EFLOP/chip-h
    # window 02:00-05:00 = steps 2, 3, 4; the work needs every chip in all three steps
    work = 3 * chips * rate  # 4238.44 EFLOP
    job = sb.training_job(
        work,
        restart="30 min",
        max_chips=chips,
        window={"start": "2025-01-01T02:00:00+00:00", "end": "2025-01-01T05:00:00+00:00"},
    )
    data = sb.scenario({"a": sb.site(systems=100)}, hours=6, training={"pretrain": job})
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    assert float(result.inputs["goodput"].sel(job="pretrain").squeeze()) == pytest.approx(goodput)
    trained = result.dataset["training_chips"].sum(("job", "site", "system")).values
    assert trained == pytest.approx([0, 0, chips, chips, chips, 0], abs=1e-6)
    done = result.dataset["job_work_eflop"].sel(job="pretrain").values
    assert done.sum() == pytest.approx(work, rel=REL)
    assert done[[0, 1, 5]] == pytest.approx([0, 0, 0], abs=1e-9)
    progress = result.dataset["job_progress"].sel(job="pretrain").values
    assert progress == pytest.approx([0, 0, 1 / 3, 2 / 3, 1, 1], rel=REL, abs=1e-9)


# ---- (4) idle power and PUE -----------------------------------------------------------------


def test_installed_but_unused_chips_draw_idle_power_times_pue(tmp_path, catalog, h100):
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    data = sb.scenario(
        {
            "busy": sb.site(systems=10, price=40, carbon=100, pue=1.2),
            "idle": sb.site(lat=41.0, systems=100, price=70, carbon=300, pue=1.3),
        },
        hours=HOURS,
        # the job may only use "busy"; 10 servers x 8 chips x 4 h of work
        training={"pretrain": sb.training_job(80 * HOURS * rate, sites=["busy"])},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    assert chip_hours(result, "idle") == pytest.approx(0.0, abs=1e-9)
    # idle site: 800 chips x 0.3925 kW = 0.314 MW IT, x PUE 1.3 = 0.4082 MW, x 4 h = 1.6328 MWh
    idle_it_mw = 100 * h100.chips_per_system * h100.idle_kw / 1000
    assert idle_it_mw == pytest.approx(0.314)
    it = result.dataset["it_power_mw"].sel(site="idle").values
    facility = result.dataset["facility_power_mw"].sel(site="idle").values
    assert it == pytest.approx([idle_it_mw] * HOURS, rel=REL)
    assert facility == pytest.approx([1.3 * idle_it_mw] * HOURS, rel=REL)
    idle_mwh = 1.3 * idle_it_mw * HOURS
    assert idle_mwh == pytest.approx(1.6328)
    assert per_site(result, "energy_mwh", "idle") == pytest.approx(idle_mwh, rel=REL)
    assert per_site(result, "energy_cost_usd", "idle") == pytest.approx(70 * idle_mwh, rel=REL)
    assert per_site(result, "emissions_tco2", "idle") == pytest.approx(0.3 * idle_mwh, rel=REL)
    # busy site: all 80 chips train every hour: 80 x 0.969 kW = 0.07752 MW IT, x 1.2 = 0.093024 MW
    busy_mw = 1.2 * 80 * h100.training_kw / 1000
    assert busy_mw == pytest.approx(0.093024)
    assert per_site(result, "energy_mwh", "busy") == pytest.approx(busy_mw * HOURS, rel=REL)
    # objective: 40 x 0.372096 + 70 x 1.6328 = 14.88384 + 114.296 = 129.17984 USD
    assert result.kpis["objective"] == pytest.approx(40 * busy_mw * HOURS + 70 * idle_mwh, rel=REL)
    assert result.kpis["objective"] == pytest.approx(129.17984, rel=1e-6)


def test_a_scenario_with_no_work_pays_for_idle_chips_only(tmp_path, catalog, h100):
    data = sb.scenario({"a": sb.site(systems=50, price=80, carbon=200, pue=1.5)}, hours=3)
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    # 400 chips x 0.3925 kW x 1.5 = 0.2355 MW; x 3 h = 0.7065 MWh; x 80 USD/MWh = 56.52 USD
    mwh = 50 * h100.chips_per_system * h100.idle_kw / 1000 * 1.5 * 3
    assert mwh == pytest.approx(0.7065)
    assert result.kpis["energy_mwh"] == pytest.approx(mwh, rel=REL)
    assert result.kpis["objective"] == pytest.approx(80 * mwh, rel=REL)
    assert result.kpis["emissions_tco2"] == pytest.approx(0.2 * mwh, rel=REL)


def test_pue_multiplies_it_power(tmp_path, catalog, h100):
    chips = 100 * h100.chips_per_system
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    # the work takes every chip in every hour, so IT power is 800 x 0.969 kW = 0.7752 MW
    data = sb.scenario(
        {"a": sb.site(systems=100, price=50, carbon=100, pue=1.0)},
        hours=HOURS,
        training={"pretrain": sb.training_job(chips * HOURS * rate)},
    )
    it_mw = chips * h100.training_kw / 1000
    assert it_mw == pytest.approx(0.7752)
    energies = {}
    for pue in (1.0, 1.5):
        result = sb.run(tmp_path, data, catalog, overrides={"sites.a.pue": pue})
        assert result.status == "optimal", result.messages
        it = result.dataset["it_power_mw"].sel(site="a").values
        facility = result.dataset["facility_power_mw"].sel(site="a").values
        assert it == pytest.approx([it_mw] * HOURS, rel=REL)
        # facility = PUE x IT (no links): 0.7752 MW and 1.1628 MW
        assert facility == pytest.approx([pue * it_mw] * HOURS, rel=REL)
        energies[pue] = result.kpis["energy_mwh"]
        assert result.kpis["cost_usd"] == pytest.approx(50 * pue * it_mw * HOURS, rel=REL)
    assert energies[1.0] == pytest.approx(3.1008, rel=REL)  # 0.7752 MW x 4 h
    assert energies[1.5] == pytest.approx(4.6512, rel=REL)  # 1.5 x 3.1008


# ---- (2) unserved demand when capacity is short -----------------------------------------------


def test_unserved_demand_is_what_the_chips_cannot_serve(tmp_path, catalog, h100):
    penalty = 10.0  # USD per Mtoken, far above the energy a served Mtoken needs
    data = sb.scenario(
        {"a": sb.site(systems=100, price=50, carbon=100, availability=0.9, pue=1.2)},
        hours=HOURS,
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=50, efficiency=0.5)},
        regions={"users": {"lat": 40.2, "lon": -100.0, "demand": {"chat": "5e6 token/s"}}},
        objective={"unserved_penalty": f"{penalty} USD/Mtoken"},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    usable = 100 * h100.chips_per_system * 0.9  # 720 chips
    # 720 x 1.979 PFLOPS x 0.5 = 712.44 PFLOPS; 1 Mtoken/s needs 2e11 x 1e6 / 1e15 = 200 PFLOPS
    served_mtoken_s = usable * h100.fp8_pflops * 0.5 / (2e11 * 1e6 / 1e15)
    assert served_mtoken_s == pytest.approx(3.5622)
    unserved_mtoken_s = 5.0 - served_mtoken_s  # 1.4378 Mtoken/s
    served = result.dataset["served_tokens_per_s"].sum(("service", "region", "site")).values
    unserved = result.dataset["unserved_tokens_per_s"].sum(("service", "region")).values
    assert served == pytest.approx([served_mtoken_s * 1e6] * HOURS, rel=REL)
    assert unserved == pytest.approx([unserved_mtoken_s * 1e6] * HOURS, rel=REL)
    assert result.kpis["unserved_fraction"] == pytest.approx(unserved_mtoken_s / 5.0, rel=REL)
    # penalty: 10 USD x 1.4378 Mtoken/s x 3600 s x 4 h = 207,043.2 USD
    penalty_usd = penalty * unserved_mtoken_s * 3600 * HOURS
    assert penalty_usd == pytest.approx(207043.2)
    assert result.kpis["unserved_cost_term_usd"] == pytest.approx(penalty_usd, rel=REL)
    # energy: 800 installed chips idle + 720 serving (0.8925 - 0.3925 = 0.5 kW more), x PUE 1.2,
    # 4 h, 50 USD/MWh
    mw = 1.2 * (800 * h100.idle_kw + usable * h100.serving_extra_kw) / 1000  # 0.8088 MW
    assert mw == pytest.approx(0.8088)
    assert result.kpis["energy_cost_term_usd"] == pytest.approx(50 * mw * HOURS, rel=REL)
    assert result.kpis["objective"] == pytest.approx(penalty_usd + 50 * mw * HOURS, rel=REL)


# ---- (6) a DCI capacity that limits a cross-site split -----------------------------------------


def dci_scenario(fibre_pairs: int, participation: bool, rate: float = 1.7802) -> dict:
    # one hour; cheap has 800 chips, dear 1600; the job needs 1200 chip-hours of
    # 0.989 PFLOPS x 3.6 x MFU 0.5 = 1.7802 EFLOP each.
    # Gradient exchange of a split job: 2 x 5000 GB x 8 bit / 1 s = 80,000 Gb/s;
    # one 800ZR fibre pair carries 25,600 Gb/s, four carry 102,400 Gb/s; 0: no link at all.
    links = {"routes": [sb.route("cheap", "dear", length_km=50, pairs=fibre_pairs)]}
    return sb.scenario(
        {
            "cheap": sb.site(systems=100, price=30, carbon=100),
            "dear": sb.site(lat=40.3, systems=200, price=60, carbon=100),
        },
        hours=1,
        training={
            "pretrain": sb.training_job(1200 * rate, gradient_size="5000 GB", sync_interval="1 s")
        },
        links=links if fibre_pairs else None,
        solver={"participation": "exact" if participation else "relaxed"},
    )


def rules_broken(result) -> set[str]:
    """The rules the checker of geomodel.results.executable finds broken."""
    return {finding.rule for finding in check_executable(result.dataset, result.inputs)}


@pytest.mark.parametrize("participation", [True, False])
def test_a_job_at_two_unlinked_sites_stays_at_one_with_binary_site_use(
    tmp_path, catalog, h100, participation
):
    # No link: cheap (800 chips) cannot hold the 1200 chips alone, so with binary site
    # use all 1200 chip-hours go to dear. The LP relaxation (docs/model.md (6), one_group:
    # span_cheap + span_dear <= 1, span >= chips / U with U = 800 and 1600) may split
    # x at cheap and 1200 - x at dear while x / 800 + (1200 - x) / 1600 <= 1, i.e.
    # x <= 400: it puts 400 at cheap, over no link at all, which the checker finds.
    result = sb.run(tmp_path, dci_scenario(0, participation), catalog)
    assert result.status == "optimal", result.messages
    cheap = 0.0 if participation else 400.0
    assert chip_hours(result, "cheap") == pytest.approx(cheap, abs=1e-6)
    assert chip_hours(result, "dear") == pytest.approx(1200 - cheap, rel=REL)
    # energy: PUE 1.2 x (idle of every chip + (active - idle) of the working ones), 1 h
    working = {"cheap": cheap, "dear": 1200 - cheap}
    installed = {"cheap": 800, "dear": 1600}
    price = {"cheap": 30, "dear": 60}
    cost = sum(
        price[s] * 1.2 * (installed[s] * h100.idle_kw + working[s] * h100.working_extra_kw) / 1000
        for s in price
    )
    assert result.kpis["objective"] == pytest.approx(cost, rel=REL)
    assert rules_broken(result) == (set() if participation else {"unlinked_sites"})
    assert result.kpis["participation"] == ("exact" if participation else "relaxed")
    if participation:  # the relaxation is the LP above: 400 working chip-hours at 30, not 60
        relaxed = cost - 400 * 1.2 * h100.working_extra_kw / 1000 * (60 - 30)
        assert result.kpis["relaxation_objective"] == pytest.approx(relaxed, rel=REL)
        assert result.kpis["relaxation_gap"] == pytest.approx((cost - relaxed) / cost, rel=1e-5)


def test_dci_capacity_limits_a_cross_site_split_exactly_with_site_participation(tmp_path, catalog, h100):
    traffic = 2 * 5000 * 8 / 1  # 80,000 Gb/s
    assert sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5) == pytest.approx(1.7802)
    capacity = catalog.link_technology("smf_800zr").capacity_gbit_s_per_fibre_pair  # 25,600
    assert traffic > capacity

    # one fibre pair: the exchange does not fit, so the job stays at one site; cheap has
    # only 800 of the 1200 chips needed, so all 1200 chip-hours go to dear
    thin = sb.run(tmp_path, dci_scenario(1, participation=True), catalog)
    assert thin.status == "optimal", thin.messages
    assert thin.kpis["mip_gap"] == pytest.approx(0.0, abs=1e-9)
    assert chip_hours(thin, "cheap") == pytest.approx(0.0, abs=1e-6)
    assert chip_hours(thin, "dear") == pytest.approx(1200, rel=REL)
    # energy cost: PUE 1.2 x [idle of 800 + 1600 chips + 1200 x (training - idle)] + DCI
    link_mw = capacity * catalog.link_technology("smf_800zr").transceiver_power_w_per_gbit_s / 1e6
    cheap_mwh = 1.2 * 800 * h100.idle_kw / 1000 + link_mw / 2
    dear_mwh = 1.2 * (1600 * h100.idle_kw + 1200 * h100.working_extra_kw) / 1000 + link_mw / 2
    assert thin.kpis["objective"] == pytest.approx(30 * cheap_mwh + 60 * dear_mwh, rel=REL)

    # four fibre pairs (102,400 Gb/s): the split fits; cheap is full (800), dear does 400
    fat = sb.run(tmp_path, dci_scenario(4, participation=True), catalog)
    assert fat.status == "optimal", fat.messages
    assert chip_hours(fat, "cheap") == pytest.approx(800, rel=REL)
    assert chip_hours(fat, "dear") == pytest.approx(400, rel=REL)
    # the whole exchange crosses the link
    assert float(fat.dataset["link_traffic_gbit_s"].max()) >= traffic * (1 - 1e-9)
    cheap_mwh = 1.2 * 800 * h100.training_kw / 1000 + 4 * link_mw / 2
    dear_mwh = 1.2 * (1600 * h100.idle_kw + 400 * h100.working_extra_kw) / 1000 + 4 * link_mw / 2
    assert fat.kpis["objective"] == pytest.approx(30 * cheap_mwh + 60 * dear_mwh, rel=REL)


def test_the_lp_relaxation_of_the_split_understates_dci_needs(tmp_path, catalog):
    # docs/model.md (6): span_link: chips at s <= U[j,s] x span[j,s]; dp_traffic:
    # flow >= traffic x (span_a + span_b - 1). With continuous spans, the split
    # cheap 800 (span 800/800 = 1) + dear 400 (span 400/1600 = 0.25) needs only
    # 80,000 x (1 + 0.25 - 1) = 20,000 Gb/s <= 25,600: the LP splits the job like the
    # fat link does, although the full exchange (80,000 Gb/s) does not fit. (The prose of
    # docs/model.md says a split job pays "between half and all" of the exchange; by its
    # own formulas it pays a quarter here, and nothing when both spans are 0.5.)
    lp = sb.run(tmp_path, dci_scenario(1, participation=False), catalog)
    assert lp.status == "optimal", lp.messages
    assert lp.dataset.attrs["is_mip"] == 0
    assert chip_hours(lp, "cheap") == pytest.approx(800, rel=REL)
    assert chip_hours(lp, "dear") == pytest.approx(400, rel=REL)
    flow = float(lp.dataset["link_traffic_gbit_s"].max())
    assert 80_000 * (800 / 800 + 400 / 1600 - 1) - 1e-6 <= flow <= 25_600 + 1e-6
    assert flow < 80_000  # the split is reported with less DCI traffic than it needs
    # the checker reads the placement: 80,000 Gb/s over a 25,600 Gb/s link
    assert rules_broken(lp) == {"link_capacity"}
    # the relaxation is a lower bound: the LP objective is below the exact one, whose
    # plan keeps the job at dear and breaks no rule; its gap is measured from this LP
    exact = sb.run(tmp_path, dci_scenario(1, participation=True), catalog)
    assert lp.kpis["objective"] < exact.kpis["objective"]
    assert rules_broken(exact) == set()
    assert exact.kpis["relaxation_objective"] == pytest.approx(lp.kpis["objective"], rel=REL)


# ---- objective: a carbon price that flips the choice of site -----------------------------------


@pytest.mark.parametrize(("carbon_price", "winner"), [(60.0, "dirty"), (75.0, "clean")])
def test_a_carbon_price_flips_the_site_at_the_hand_computed_price(
    tmp_path, catalog, h100, carbon_price, winner
):
    # dirty: 30 USD/MWh, 400 kg/MWh; clean: 50 USD/MWh, 100 kg/MWh; same PUE and servers.
    # Per MWh: 30 + 0.4 c = 50 + 0.1 c  at  c = (50 - 30) / (0.4 - 0.1) = 66.67 USD/tCO2.
    flip = (50 - 30) / ((400 - 100) / 1000)
    assert flip == pytest.approx(66.6667, rel=1e-5)
    assert (carbon_price < flip) == (winner == "dirty")
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    data = sb.scenario(
        {
            "dirty": sb.site(systems=100, price=30, carbon=400),
            "clean": sb.site(lat=41.0, systems=100, price=50, carbon=100),
        },
        hours=HOURS,
        training={"pretrain": sb.training_job(1600 * rate)},  # 1600 chip-hours, fits either site
        objective={"carbon_price": f"{carbon_price} USD/tCO2"},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    loser = "clean" if winner == "dirty" else "dirty"
    assert chip_hours(result, winner) == pytest.approx(1600, rel=REL)
    assert chip_hours(result, loser) == pytest.approx(0.0, abs=1e-6)
    idle_mwh = 1.2 * 800 * h100.idle_kw / 1000 * HOURS
    work_mwh = 1.2 * 1600 * h100.working_extra_kw / 1000
    mwh = {winner: idle_mwh + work_mwh, loser: idle_mwh}
    unit_cost = {"dirty": 30 + 0.4 * carbon_price, "clean": 50 + 0.1 * carbon_price}
    assert result.kpis["objective"] == pytest.approx(sum(unit_cost[s] * mwh[s] for s in mwh), rel=REL)
    emissions = 0.4 * mwh["dirty"] + 0.1 * mwh["clean"]
    assert result.kpis["carbon_cost_term_usd"] == pytest.approx(carbon_price * emissions, rel=REL)


# ---- model extension: battery arbitrage over two price levels ----------------------------------


def battery_scenario(folder, battery: dict | None) -> dict:
    """40,000 idle H100 servers (125.6 MW at PUE 1) on two sources: cheap nuclear at
    20 USD/MWh in hours 0-1 only and gas at 100 USD/MWh throughout; no carbon."""
    cheap = sb.profile_csv(folder, "cheap.csv", [1, 1, 0, 0])
    flat = sb.profile_csv(folder, "flat.csv", [1, 1, 1, 1])
    site = sb.site(systems=40_000, pue=1.0, envelope_mw=400)
    site["power_sources"] = {
        "nuclear": sb.firm_supply(300, 20, 0, profile_csv=cheap, profile_column="cf"),
        "gas_ccgt": sb.firm_supply(200, 100, 0, profile_csv=flat, profile_column="cf"),
    }
    extra = {"extensions": {"battery": {"sites": {"s": battery}}}} if battery else {}
    return sb.scenario({"s": site}, hours=4, **extra)


def test_two_price_levels_without_a_battery(tmp_path, catalog, h100):
    result = sb.run(tmp_path, battery_scenario(tmp_path, None), catalog)
    assert result.status == "optimal", result.messages
    load_mw = 40_000 * h100.chips_per_system * h100.idle_kw / 1000  # 320,000 x 0.3925 kW
    assert load_mw == pytest.approx(125.6)
    # 2 h x 125.6 MW x 20 + 2 h x 125.6 MW x 100 = 5,024 + 25,120 = 30,144 USD
    assert result.kpis["objective"] == pytest.approx(30_144, rel=REL)
    generation = result.dataset["generation_mw"].sel(site="s")
    assert generation.sel(source="nuclear").values == pytest.approx([load_mw, load_mw, 0, 0], abs=1e-6)


def test_a_battery_buys_cheap_energy_and_sells_it_back_in_dear_hours(tmp_path, catalog, h100):
    # docs/model.md, Model extensions: a battery adds discharge - charge to the site
    # balance (extra_supply_mw). 400 MWh, 100 MW, round trip 0.9. Charging at full power
    # in the two cheap hours takes 200 MWh at 20 USD; 0.9 x 200 = 180 MWh come back in the
    # two dear hours (90 MW each on average, below the 125.6 MW load), replacing gas at
    # 100 USD. Each MWh bought returns 0.9 x 100 = 90 > 20 USD, so the battery charges as
    # hard as its power allows; 200 MWh x 0.9 <= 400 MWh, so energy does not bind, and it
    # ends as full as it started. Saving: 180 x 100 - 200 x 20 = 14,000 USD.
    battery = {"energy": "400 MWh", "power": "100 MW", "efficiency": 0.9}
    result = sb.run(tmp_path, battery_scenario(tmp_path, battery), catalog)
    assert result.status == "optimal", result.messages
    assert result.kpis["objective"] == pytest.approx(30_144 - 14_000, rel=REL)
    supply = result.dataset["extension_supply_mw"].sel(site="s").values
    assert supply[:2] == pytest.approx([-100, -100], rel=REL)  # charging at full power
    assert supply[2:].sum() == pytest.approx(180, rel=REL)  # 0.9 x 200 MWh back
    # the facility draws what it did without the battery
    assert result.kpis["energy_mwh"] == pytest.approx(4 * 125.6, rel=REL)
    gas = result.dataset["generation_mw"].sel(site="s", source="gas_ccgt").values
    assert gas[2:].sum() == pytest.approx(2 * 125.6 - 180, rel=REL)


# ---- typical-day segments: a job whose window edges fall inside steps -------------------------

#: 4 days as 1 typical day of 4 six-hour segments (nothing varies on a firm-powered site,
#: so the segments are equal); the job's window runs from 09:00 on day 0 to 15:00 on day 2
SEGMENTED = {"typical_days": 1, "segments": 4}
WINDOW = {"start": "2025-01-01T09:00:00+00:00", "end": "2025-01-03T15:00:00+00:00"}
WINDOW_HOURS = 15 + 24 + 15  # 54


def windowed(envelope_mw: float, compute_eflop: float, aggregation: dict | None) -> dict:
    data = sb.scenario(
        {"only": sb.site(systems=100, price=40, carbon=0, pue=1.2, envelope_mw=envelope_mw)},
        hours=96,
        training={"pretrain": sb.training_job(compute_eflop, window=WINDOW)},
    )
    if aggregation:
        data["time"]["aggregation"] = aggregation
    return data


@pytest.mark.parametrize("aggregation", [None, SEGMENTED], ids=["hourly", "1x4"])
def test_a_job_draws_power_only_in_its_window_hours(tmp_path, catalog, h100, aggregation):
    # The window's 54 hours fall 12, 15, 15 and 12 in the four segments (00-06: days 1 and
    # 2; 06-12: 3 + 6 + 6; 12-18: 6 + 6 + 3; 18-24: days 0 and 1), so in each segment the
    # job runs on only some of the 4 x 6 member hours. 40,000 EFLOP at 1.7802 EFLOP per
    # chip-hour is 22,469.4 chip-hours wherever they fall (one price), and they draw
    # power only while they run:
    result = sb.run(tmp_path, windowed(500, 40_000, aggregation), catalog)
    assert result.status == "optimal", result.messages
    if aggregation:
        job_hours = result.inputs["job_weight"] * result.inputs["dt_hours"]
        assert job_hours.values[0].tolist() == pytest.approx([12, 15, 15, 12])
    chip_hours = 40_000 / sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    assert chip_hours == pytest.approx(22_469.4, rel=1e-5)
    # job energy = 22,469.4 chip-h x 0.969 kW x PUE 1.2 = 26.127 MWh
    job_mwh = chip_hours * h100.training_kw * 1.2 / 1000
    assert float(result.dataset["job_energy_mwh"].sum()) == pytest.approx(job_mwh, rel=REL)
    # facility energy = 800 idle chips x 0.3925 kW x 96 h x 1.2 (36.17 MWh)
    #                 + the job's chip-hours x (0.969 - 0.3925) kW x 1.2 (15.54 MWh)
    idle_mwh = 800 * h100.idle_kw * 96 * 1.2 / 1000
    working_mwh = chip_hours * h100.working_extra_kw * 1.2 / 1000
    assert result.kpis["energy_mwh"] == pytest.approx(idle_mwh + working_mwh, rel=REL)
    assert result.kpis["cost_usd"] == pytest.approx(40 * (idle_mwh + working_mwh), rel=REL)


def test_the_envelope_holds_whenever_the_job_runs_not_on_average(tmp_path, catalog, h100):
    # Envelope 1.2 x (800 x 0.3925 + 400 x 0.8825) kW = 0.8004 MW: the envelope counts a
    # working chip at its nameplate (1.275 - 0.3925 kW over idle), so at most 400 chips may
    # work at once. In a segment where the job runs on half of the member hours, its mean
    # draw would let 800 chips work; the envelope must hold in the hours it runs.
    envelope_mw = 1.2 * (800 * h100.idle_kw + 400 * h100.nameplate_extra_kw) / 1000
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    most_eflop = 400 * WINDOW_HOURS * rate  # 400 chips x 54 h x 1.7802 = 38,452.3 EFLOP
    result = sb.run(tmp_path, windowed(envelope_mw, 0.99 * most_eflop, SEGMENTED), catalog)
    assert result.status == "optimal", result.messages
    chips = result.dataset["training_chips"].sum(("job", "site", "system"))
    assert chips.max() <= 400 * (1 + 1e-9)
    too_much = sb.run(tmp_path, windowed(envelope_mw, 1.01 * most_eflop, SEGMENTED), catalog)
    assert too_much.status == "infeasible"
