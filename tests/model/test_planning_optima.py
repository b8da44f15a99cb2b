"""Hand-derived optima of planning mode (docs/model.md, "Planning"; docs/planning.md).

Each test builds a tiny scenario whose best build can be worked out on paper: the
derivation is in the test's docstring and the arithmetic next to each assertion. Costs
are written in the scenario (no catalogue figure), with a discount rate of 0 unless a
test says otherwise, so an asset's yearly cost is capex / lifetime + fixed O&M; a
horizon of H hours carries H / 8760 of it.

The load of a site is its installed chips idling: chips x idle kW x PUE, constant, read
from the catalogue's H100 figures (an input, not an output of the model).
"""

from __future__ import annotations

import pytest
import scenario_builder as sb

from geomodel.results.executable import check_executable

REL = 1e-6
HOURS_PER_YEAR = 8760.0


def idle_load_mw(h100, systems: int, pue: float) -> float:
    """docs/model.md (4): every installed chip draws its idle power, x PUE."""
    return systems * h100.chips_per_system * h100.idle_kw / 1000 * pue


def yearly_cost_for(horizon_cost_usd: float, hours: float) -> float:
    """The yearly cost whose share over ``hours`` is ``horizon_cost_usd`` (H / 8760 of it)."""
    return horizon_cost_usd * HOURS_PER_YEAR / hours


def built(result, name: str, **where) -> float:
    return float(result.dataset[name].sel(**where).sum())


# ---- solar: built exactly when it pays, to the size where the next MW stops paying ----

SOLAR_PROFILE = [1.0, 0.5, 0.25, 0.0]
GRID_PRICE = 50.0  # USD/MWh of the firm source the solar displaces
GRID_CARBON = 500.0  # kgCO2e/MWh
CARBON_PRICE = 100.0  # USD/tCO2e
#: value of a displaced MWh: 50 + 100 USD/t x 0.5 t/MWh = 100 USD/MWh
DISPLACED_USD_PER_MWH = GRID_PRICE + CARBON_PRICE * GRID_CARBON / 1000


def solar_scenario(
    tmp_path, solar_usd_per_year: float, discount_rate: float = 0.0, lifetime: float = 25.0
):
    """One site idling 2,000 H100 servers on a firm source (50 USD/MWh, 500 kg/MWh), with
    up to 100 MW of solar (price 0, carbon 0) on a 4-hour profile 1, 0.5, 0.25, 0.

    ``solar_usd_per_year`` is the fixed O&M a year; capex 0, so the yearly cost is exact.
    """
    profile = sb.profile_csv(tmp_path, "solar.csv", SOLAR_PROFILE)
    site = sb.site(systems=2000, price=GRID_PRICE, carbon=GRID_CARBON, supply_mw=100.0)
    site["build"] = {
        "power_sources": {
            "solar_pv": {
                "max": "100 MW",
                "capex": "0 USD/MW",
                "fixed_om": f"{solar_usd_per_year} USD/MW/year",
                "price": "0 USD/MWh",
                "carbon": "0 kgCO2/MWh",
                "profile_csv": profile,
                "profile_column": "cf",
            }
        }
    }
    return sb.scenario(
        {"s": site},
        hours=len(SOLAR_PROFILE),
        objective={"carbon_price": f"{CARBON_PRICE} USD/tCO2"},
        finance={"discount_rate": discount_rate, "lifetimes": {"solar": f"{lifetime} years"}},
    )


@pytest.mark.parametrize(
    ("horizon_cost", "regime"),
    [
        (176.0, 0),  # above 175: the first MW does not pay
        (174.0, 1),  # below 175: built up to the load
        (120.0, 1),
        (76.0, 1),
        (74.0, 2),  # below 75: on to twice the load
        (26.0, 2),
        (24.0, 4),  # below 25: on to four times the load (the 0.25 hour)
    ],
)
def test_solar_is_built_exactly_when_it_pays_and_to_where_the_next_mw_stops(
    tmp_path, catalog, h100, horizon_cost, regime
):
    """Solar of x MW gives min(x cf_t, L) MWh in hour t (no export: the rest is curtailed).

    The load is L = 2000 x 8 x 0.3925 kW x PUE 1.2 = 7.536 MW. The next MW of solar is
    worth the displaced energy and carbon, 100 USD/MWh, times the profile of the hours
    where it is not yet curtailed: sum of cf = 1 + 0.5 + 0.25 = 1.75 MWh while x < L,
    0.75 for L < x < 2L (the first hour saturates), 0.25 for 2L < x < 4L, 0 beyond.
    Its horizon cost k per MW (yearly cost x 4 / 8760) is compared with 175, 75, 25 USD:
    the optimum is x = 0 (k > 175), L, 2L or 4L (k < 25). The objective is then
    100 USD/MWh x the firm energy still bought + k x.
    """
    load = idle_load_mw(h100, 2000, 1.2)
    assert load == pytest.approx(7.536)
    data = solar_scenario(tmp_path, yearly_cost_for(horizon_cost, 4))
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    solar_mw = regime * load
    assert built(result, "built_source_mw", source="solar_pv") == pytest.approx(
        solar_mw, rel=REL, abs=1e-6
    )
    firm_mwh = sum(max(load - solar_mw * cf, 0.0) for cf in SOLAR_PROFILE)
    expected = DISPLACED_USD_PER_MWH * firm_mwh + horizon_cost * solar_mw
    assert result.kpis["objective"] == pytest.approx(expected, rel=REL)
    # the build's yearly cost: k x 8760 / 4 per MW, all fixed O&M (capex 0)
    assert result.kpis["fixed_om_usd_per_year"] == pytest.approx(
        yearly_cost_for(horizon_cost, 4) * solar_mw, rel=REL, abs=1e-6
    )
    assert result.kpis["fixed_om_cost_term_usd"] == pytest.approx(
        horizon_cost * solar_mw, rel=REL, abs=1e-9
    )


def test_the_annuity_is_the_capital_recovery_factor_of_the_discount_rate_and_lifetime(
    tmp_path, catalog, h100
):
    """Capex C at r = 5 % over 25 years costs C x r (1 + r)^25 / ((1 + r)^25 - 1) a year.

    1.05^25 = 3.3863549, so the factor is 0.05 x 3.3863549 / 2.3863549 = 0.0709525.
    C = 1,500,000 USD/MW: 106,428.7 USD/MW a year, 48.6 USD per MW over 4 hours, between
    25 and 75 USD: the solar is built to twice the load (test above) and pays
    48.6 x 2L in the objective, all in the investment term.
    """
    factor = 0.05 * 1.05**25 / (1.05**25 - 1)
    assert factor == pytest.approx(0.0709525, rel=1e-6)
    data = solar_scenario(tmp_path, 0.0, discount_rate=0.05, lifetime=25.0)
    data["sites"]["s"]["build"]["power_sources"]["solar_pv"]["capex"] = "1500000 USD/MW"
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    load = idle_load_mw(h100, 2000, 1.2)
    per_mw = 1_500_000 * factor * 4 / HOURS_PER_YEAR
    assert per_mw == pytest.approx(48.60, abs=0.01)
    assert built(result, "built_source_mw", source="solar_pv") == pytest.approx(2 * load, rel=REL)
    assert result.kpis["investment_cost_term_usd"] == pytest.approx(per_mw * 2 * load, rel=REL)
    assert result.kpis["capex_usd_per_year"] == pytest.approx(1_500_000 * factor * 2 * load, rel=REL)
    firm_mwh = sum(max(load - 2 * load * cf, 0.0) for cf in SOLAR_PROFILE)  # 0.5 L + 1 L
    assert result.kpis["objective"] == pytest.approx(
        DISPLACED_USD_PER_MWH * firm_mwh + per_mw * 2 * load, rel=REL
    )


# ---- a battery is built exactly when its arbitrage pays its annuity ----------------------

CHEAP, DEAR = 10.0, 100.0  # USD/MWh in hour 0 and hour 1
EFFICIENCY = 0.81  # round trip; 0.9 each way


def battery_scenario(tmp_path, power_cost: float, energy_cost: float) -> dict:
    """One site idling 2,000 H100 servers; in hour 0 a cheap source (10 USD/MWh, profile
    1, 0) covers the load and more, in hour 1 only a firm source at 100 USD/MWh is left.
    A battery (efficiency 0.81) may be built; its power and energy cost ``power_cost``
    and ``energy_cost`` USD per MW and per MWh over the 2-hour horizon."""
    profile = sb.profile_csv(tmp_path, "cheap.csv", [1.0, 0.0])
    site = sb.site(systems=2000, price=DEAR, carbon=0.0, supply_mw=100.0)
    site["power_sources"]["solar_pv"] = sb.firm_supply(
        100.0, CHEAP, 0.0, profile_csv=profile, profile_column="cf"
    )
    site["build"] = {
        "battery": {
            "power": {
                "max": "100 MW",
                "capex": "0 USD/MW",
                "fixed_om": f"{yearly_cost_for(power_cost, 2)} USD/MW/year",
            },
            "energy": {
                "max": "100 MWh",
                "capex": "0 USD/MWh",
                "fixed_om": f"{yearly_cost_for(energy_cost, 2)} USD/MWh/year",
            },
            "efficiency": EFFICIENCY,
        }
    }
    return sb.scenario({"s": site}, hours=2, finance={"discount_rate": 0.0})


@pytest.mark.parametrize(
    ("power_cost", "energy_cost", "pays"),
    [(30.0, 30.0, True), (35.0, 39.0, True), (35.0, 40.2, False), (40.0, 40.0, False)],
)
def test_a_battery_is_built_exactly_when_its_arbitrage_pays_its_annuity(
    tmp_path, catalog, h100, power_cost, energy_cost, pays
):
    """Charging c MW in hour 0 stores 0.9 c MWh and gives back d = 0.81 c in hour 1 (the
    cycle closes over the horizon); it needs c MW of power and 0.9 c MWh of energy.
    Per MW charged the arbitrage earns 100 x 0.81 - 10 = 71 USD and the battery costs
    power_cost + 0.9 x energy_cost: it is built iff that is below 71 (35 + 0.9 x 39 =
    70.1 builds, 35 + 0.9 x 40.2 = 71.18 does not), and then as large as the load lets
    it discharge: d = L, so c = L / 0.81, P = c, E = 0.9 c.
    """
    load = idle_load_mw(h100, 2000, 1.2)
    result = sb.run(tmp_path, battery_scenario(tmp_path, power_cost, energy_cost), catalog)
    assert result.status == "optimal", result.messages
    without = (CHEAP + DEAR) * load
    if not pays:
        assert built(result, "built_battery_mw") == pytest.approx(0.0, abs=1e-6)
        assert result.kpis["objective"] == pytest.approx(without, rel=REL)
        return
    charge = load / EFFICIENCY
    assert built(result, "built_battery_mw") == pytest.approx(charge, rel=REL)
    assert built(result, "built_battery_mwh") == pytest.approx(0.9 * charge, rel=REL)
    discharge = result.dataset["storage_discharge_mw"].sel(site="s").values
    assert discharge == pytest.approx([0.0, load], abs=1e-6)
    margin = DEAR * EFFICIENCY - CHEAP - power_cost - 0.9 * energy_cost  # per MW charged
    assert result.kpis["objective"] == pytest.approx(without - margin * charge, rel=REL)


# ---- two sites with a DCI route, or one bigger site ---------------------------------------

DP_TRAFFIC_GBIT_S = 2 * 1000 * 8 / 10  # 2 x 1000 GB gradients x 8 bit / 10 s sync = 1600 Gb/s


def two_site_scenario(pair_cost: float) -> dict:
    """A job that needs 800 H100 chips (100 servers) in both of its 2 hours; nothing is
    installed. Site a may hold them all at 200 USD per server over the horizon; site b
    may hold 40 servers at 100 USD. Running at both needs DCI for the gradient exchange:
    1600 Gb/s on a 50 km 800ZR route, one whole pair of 25.6 Tb/s at ``pair_cost`` USD
    over the horizon. Energy is free, so only the build is paid."""
    sites = {}
    for name, lat, most, cost in (("a", 40.0, 1000, 200.0), ("b", 40.3, 40, 100.0)):
        site = sb.site(lat=lat, systems=0, price=0.0, carbon=0.0, supply_mw=100.0)
        site["build"] = {
            "systems": {
                sb.H100: {
                    "max": most,
                    "capex": "0 USD",
                    "fixed_om": f"{yearly_cost_for(cost, 2)} USD/year",
                }
            }
        }
        sites[name] = site
    rate = sb.job_rate_eflop_per_chip_hour(0.989, 0.5)
    job = sb.training_job(800 * 2 * rate, max_chips=800, gradient_size="1000 GB", sync_interval="10 s")
    return sb.scenario(
        sites,
        hours=2,
        training={"pretrain": job},
        links={
            "candidates": [
                {
                    "sites": ["a", "b"],
                    "technology": "smf_800zr",
                    "length": "50 km",
                    "max_pairs": 4,
                    "capex_per_pair_km": "0 USD/km",
                    "capex_per_pair": "0 USD",
                    "fixed_om_per_pair": f"{yearly_cost_for(pair_cost, 2)} USD/year",
                }
            ]
        },
        solver={"participation": "exact", "integer": {"whole_fibre_pairs": True}},
        finance={"discount_rate": 0.0},
    )


@pytest.mark.parametrize(("pair_cost", "split"), [(3900.0, True), (4100.0, False), (1000.0, True)])
def test_two_sites_with_a_route_beat_one_bigger_site_below_the_break_even_route_cost(
    tmp_path, catalog, h100, pair_cost, split
):
    """All at a: 100 servers x 200 = 20,000 USD. Split: 40 servers at b save
    40 x (200 - 100) = 4,000 USD but the job then spans both sites in every hour and
    its 1600 Gb/s exchange needs a whole pair (binary site use, whole pairs). Break-even
    pair cost: 4,000 USD. Below it: 60 x 200 + 40 x 100 + pair = 16,000 + pair cost.
    """
    assert DP_TRAFFIC_GBIT_S == 1600.0
    result = sb.run(tmp_path, two_site_scenario(pair_cost), catalog)
    assert result.status == "optimal", result.messages
    assert result.dataset.attrs["is_mip"] == 1
    assert result.kpis["mip_gap"] == pytest.approx(0.0, abs=1e-9)
    if split:
        assert built(result, "built_systems", site="b") == pytest.approx(40, abs=1e-6)
        assert built(result, "built_systems", site="a") == pytest.approx(60, abs=1e-6)
        assert built(result, "built_fibre_pairs") == pytest.approx(1, abs=1e-6)
        assert result.kpis["objective"] == pytest.approx(16_000 + pair_cost, rel=REL)
    else:
        assert built(result, "built_systems", site="a") == pytest.approx(100, abs=1e-6)
        assert built(result, "built_systems", site="b") == pytest.approx(0, abs=1e-6)
        assert built(result, "built_fibre_pairs") == pytest.approx(0, abs=1e-6)
        assert result.kpis["objective"] == pytest.approx(20_000, rel=REL)


def test_as_an_lp_the_route_is_sized_to_the_traffic(tmp_path, catalog, h100):
    """Without the integer options a split needs only 1600 / 25600 = 0.0625 of a pair, and
    spans are continuous: the LP may even split without the full exchange (docs/model.md
    (6)); its optimum is a lower bound of the MIP's, 16,000 + at most 0.0625 pairs."""
    data = two_site_scenario(3900.0)
    data["solver"] = {**data["solver"], "participation": "relaxed", "integer": {}}
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    assert built(result, "built_systems", site="b") == pytest.approx(40, abs=1e-6)
    assert built(result, "built_fibre_pairs") <= 0.0625 + 1e-9
    assert 16_000 - 1e-6 <= result.kpis["objective"] <= 16_000 + 0.0625 * 3900 + 1e-6


# ---- opening a new site: a binary decision with its fixed cost ---------------------------


def opening_scenario(open_cost: float, binary: bool = True) -> dict:
    """A job needs 800 H100 chips (100 servers) in both of its 2 hours. Site a (open)
    builds servers at 200 USD each over the horizon; the new site c at 100 USD, but
    opening it costs ``open_cost`` over the horizon (its land, paid once)."""
    a = sb.site(systems=0, price=0.0, carbon=0.0, supply_mw=100.0)
    a["build"] = {
        "systems": {
            sb.H100: {"max": 1000, "capex": "0 USD", "fixed_om": f"{yearly_cost_for(200, 2)} USD/year"}
        }
    }
    c = sb.site(lat=41.0, systems=0, price=0.0, carbon=0.0, supply_mw=100.0, envelope_mw=0.0)
    c["build"] = {
        "new_site": True,
        # land over 100 years at r = 0: a yearly cost of capex / 100
        "open_cost": f"{yearly_cost_for(open_cost, 2) * 100} USD",
        "power_envelope": {"max": "50 MW", "capex": "0 USD/MW", "fixed_om": "0 USD/MW/year"},
        "systems": {
            sb.H100: {"max": 1000, "capex": "0 USD", "fixed_om": f"{yearly_cost_for(100, 2)} USD/year"}
        },
    }
    rate = sb.job_rate_eflop_per_chip_hour(0.989, 0.5)
    job = sb.training_job(800 * 2 * rate, max_chips=800)
    return sb.scenario(
        {"a": a, "c": c},
        hours=2,
        training={"pretrain": job},
        solver={"integer": {"site_opening": binary}},
        finance={"discount_rate": 0.0, "lifetimes": {"site": "100 years"}},
    )


@pytest.mark.parametrize(("open_cost", "opens"), [(9_000.0, True), (11_000.0, False)])
def test_a_new_site_opens_exactly_when_its_savings_pay_its_fixed_cost(
    tmp_path, catalog, h100, open_cost, opens
):
    """The job runs on one site (no link): all 100 servers at a cost 20,000 USD; at c
    10,000 + the opening cost. c opens iff its cost is below 10,000 (binary opening)."""
    result = sb.run(tmp_path, opening_scenario(open_cost), catalog)
    assert result.status == "optimal", result.messages
    opened = float(result.dataset["site_opened"].sel(site="c"))
    if opens:
        assert opened == pytest.approx(1.0)
        assert built(result, "built_systems", site="c") == pytest.approx(100, abs=1e-6)
        assert result.kpis["objective"] == pytest.approx(10_000 + open_cost, rel=REL)
    else:
        assert opened == pytest.approx(0.0, abs=1e-9)
        assert built(result, "built_systems", site="a") == pytest.approx(100, abs=1e-6)
        assert result.kpis["objective"] == pytest.approx(20_000, rel=REL)


def test_the_lp_opens_a_new_site_in_part_and_bounds_the_mip_from_below(tmp_path, catalog, h100):
    """As an LP, ``build <= 1000 x open``: 100 servers at c need open = 0.1, paying a tenth
    of the 11,000: 10,000 + 1,100 < 20,000, so the LP builds at c where the MIP does not."""
    result = sb.run(tmp_path, opening_scenario(11_000.0, binary=False), catalog)
    assert result.status == "optimal", result.messages
    assert float(result.dataset["site_opened"].sel(site="c")) == pytest.approx(0.1, rel=REL)
    assert result.kpis["objective"] == pytest.approx(10_000 + 1_100, rel=REL)


def half_open_scenario() -> dict:
    """A job needs 1200 H100 chips in its one hour (max_chips 1200). Site a has 100 servers
    (800 chips) installed and nothing to build; the new site c builds servers at 100 USD
    each over the hour (at most 1000) and opening it costs 1,000 USD over the hour; a
    candidate 50 km 800ZR link a-c lights at most 2 pairs of 25,600 Gb/s at 100 USD a
    pair. The job's exchange is 2 x 8000 GB x 8 / 10 s = 12,800 Gb/s: half a pair.
    Energy is free. Opening and pairs are continuous (the LP's opening share)."""
    a = sb.site(systems=100, price=0.0, carbon=0.0, supply_mw=100.0)
    c = sb.site(lat=40.3, systems=0, price=0.0, carbon=0.0, supply_mw=100.0, envelope_mw=0.0)
    c["build"] = {
        "new_site": True,
        "open_cost": f"{yearly_cost_for(1000, 1) * 100} USD",  # 100 years at r = 0
        "power_envelope": {"max": "50 MW", "capex": "0 USD/MW", "fixed_om": "0 USD/MW/year"},
        "systems": {
            sb.H100: {"max": 1000, "capex": "0 USD", "fixed_om": f"{yearly_cost_for(100, 1)} USD/year"}
        },
    }
    rate = sb.job_rate_eflop_per_chip_hour(0.989, 0.5)
    job = sb.training_job(1200 * rate, max_chips=1200, gradient_size="8000 GB", sync_interval="10 s")
    link = {
        "sites": ["a", "c"],
        "technology": "smf_800zr",
        "length": "50 km",
        "max_pairs": 2,
        "capex_per_pair_km": "0 USD/km",
        "capex_per_pair": "0 USD",
        "fixed_om_per_pair": f"{yearly_cost_for(100, 1)} USD/year",
    }
    return sb.scenario(
        {"a": a, "c": c},
        hours=1,
        training={"pretrain": job},
        links={"candidates": [link]},
        solver={"participation": "exact"},
        finance={"discount_rate": 0.0, "lifetimes": {"site": "100 years"}},
    )


def test_fibre_pairs_towards_a_new_site_open_it_as_far_as_they_need(tmp_path, catalog, h100):
    """docs/model.md (P5): pairs <= 2 x open_c, as systems <= 1000 x open_c.
    All at c: 150 servers x 100 + open 150 / 1000 = 0.15 x 1,000 = 15,150 USD. Split (binary
    site use): 800 chips at a, 400 = 50 servers at c, the whole exchange, 12,800 / 25,600 =
    0.5 pair, so open_c >= max(50 / 1000, 0.5 / 2) = 0.25: 5,000 + 50 + 250 = 5,300 USD.
    Without the fibre's row the site would open at 0.05 with half a pair towards it.
    The relaxation (site use continuous too): x chips at c (x >= 400, a holds 800), spans
    (1200 - x) / 800 and x / 1200, pairs 0.5 x (spans - 1) = 0.25 - x / 4800, open the larger
    of x / 8000 and pairs / 2; 12.5 x + 100 pairs + 1000 open rises with x, so x = 400:
    5,000 + 16.67 + 83.33 = 5,100 USD."""
    result = sb.run(tmp_path, half_open_scenario(), catalog)
    assert result.status == "optimal", result.messages
    assert built(result, "built_systems", site="c") == pytest.approx(50, rel=REL)
    assert built(result, "built_fibre_pairs") == pytest.approx(0.5, rel=REL)
    assert float(result.dataset["site_opened"].sel(site="c")) == pytest.approx(0.25, rel=REL)
    assert result.kpis["objective"] == pytest.approx(5_300, rel=REL)
    assert result.kpis["relaxation_objective"] == pytest.approx(5_100, rel=REL)
    assert result.kpis["relaxation_gap"] == pytest.approx(200 / 5_300, rel=1e-5)
    assert check_executable(result.dataset, result.inputs) == []
    # the checker reads the same rule from the numbers: a pair more than 2 x 0.25 allows
    beyond = result.dataset.copy(deep=True)
    beyond["built_fibre_pairs"][:] = 0.6
    (finding,) = check_executable(beyond, result.inputs)
    assert finding.rule == "opening_share"
    assert finding.sites == ("c",)
    assert "opened at 0.25" in finding.text


# ---- whole racks --------------------------------------------------------------------------


def rack_scenario(whole: bool) -> dict:
    """A job needs 100 GB200 chips in each of its 2 hours; an NVL72 rack (72 chips, one
    system) costs 1,000 USD over the horizon; energy is free."""
    site = sb.site(systems=0, price=0.0, carbon=0.0, supply_mw=100.0)
    site["systems"] = {}
    site["build"] = {
        "systems": {
            "gb200_nvl72": {
                "max": 10,
                "capex": "0 USD",
                "fixed_om": f"{yearly_cost_for(1000, 2)} USD/year",
            }
        }
    }
    rate = sb.job_rate_eflop_per_chip_hour(2.5, 0.5)
    job = sb.training_job(100 * 2 * rate, max_chips=100)
    return sb.scenario(
        {"s": site},
        hours=2,
        training={"pretrain": job},
        solver={"integer": {"whole_systems": whole}},
        finance={"discount_rate": 0.0},
    )


@pytest.mark.parametrize(("whole", "racks"), [(False, 100 / 72), (True, 2.0)])
def test_rack_scale_systems_are_built_in_whole_racks(tmp_path, catalog, whole, racks):
    """100 chips need 100 / 72 = 1.389 racks as an LP and 2 whole racks with whole_systems;
    the objective is 1,000 USD per rack."""
    result = sb.run(tmp_path, rack_scenario(whole), catalog)
    assert result.status == "optimal", result.messages
    assert built(result, "built_systems") == pytest.approx(racks, rel=REL)
    assert built(result, "built_chips") == pytest.approx(72 * racks, rel=REL)
    # a fractional rack where whole racks were asked is what the checker names
    fractional = result.dataset.copy(deep=True)
    fractional["built_systems"][:] = 100 / 72
    rules = [finding.rule for finding in check_executable(fractional, result.inputs)]
    assert rules == (["fractional_build"] if whole else [])
    assert result.kpis["objective"] == pytest.approx(1000 * racks, rel=REL)
    assert result.dataset.attrs["is_mip"] == int(whole)
