"""The flagship plan (scenarios/plan-100k-gpu.yaml), reduced, and what its variants must change.

The plan is solved as the file stands but on 3 typical days of 3 segments (9 steps
instead of 48), so the year's signals, sites, jobs and services are all there and
each solve takes seconds. Every expectation below is derived here, from the
scenario's figures and the catalogue, or proved from the structure of the LP; none
is a number read off an earlier solve:

* a carbon price never raises the optimum's emissions (an exchange argument), and at
  200 USD/t new capacity moves between sites that reach the same users to the one
  whose MWh of IT load is then cheaper (Hudson Valley to Toronto, computed from the
  inputs), and Lulea, the cheapest of all for training, trains more;
* a cap no site reaches leaves the plan as it is, and can cost only the LP's
  opening shares, bounded by hand; a cap that binds (30 MW added per site) moves
  the capacity it removes to other sites;
* without new European sites nothing is built at them, and Frankfurt, the only
  European site left within the chat SLA of every European metro, grows to at least
  the chips the European chat peak needs (a hand lower bound).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from geomodel.api import solve
from geomodel.geo import Location, geodesic_km
from geomodel.results.result import Result
from geomodel.scenario import load_scenario

FLAGSHIP = Path(__file__).resolve().parents[2] / "scenarios" / "plan-100k-gpu.yaml"
#: The expectations below are about optima, proved for the LP; binary site use (the
#: default, docs/model.md (6)) is solved to the scenario's MIP gap, so they are checked on
#: the relaxation (solver.participation: relaxed), whose optimum is exact. That every
#: variant's executable plan breaks no rule is tests/results/test_executable_examples.py's.
REDUCED = [
    "time.aggregation.typical_days=3",
    "time.aggregation.segments=3",
    "solver.participation=relaxed",
]
NEW_EUROPEAN = ("amsterdam", "loughton", "paris_saclay", "madrid", "lulea")
EUROPEAN_METROS = ("london", "paris", "frankfurt", "madrid", "stockholm")


@pytest.fixture(scope="module")
def plan(catalog):
    """Solve a variant of the reduced flagship once per module ('base': none)."""
    solved: dict[str, Result] = {}

    def get(variant: str) -> Result:
        if variant not in solved:
            scenario = load_scenario(
                FLAGSHIP,
                variants=[] if variant == "base" else [variant],
                overrides=REDUCED,
                catalog=catalog,
            )
            result = solve(scenario, catalog=catalog)
            assert result.ok, (variant, result.messages)
            solved[variant] = result
        return solved[variant]

    return get


def _sites(result: Result) -> list[str]:
    return [str(s) for s in result.inputs["site"].values]


def _added_mw(result: Result) -> dict[str, float]:
    return dict(zip(_sites(result), result.dataset["built_envelope_mw"].values.tolist(), strict=True))


def _training_chip_hours(result: Result) -> dict[str, float]:
    hours = (result.inputs["job_weight"] * result.inputs["dt_hours"]).values
    per_site = np.einsum("jsht,jt->s", result.dataset["training_chips"].values, hours)
    return dict(zip(_sites(result), per_site.tolist(), strict=True))


def _annual_mean(result: Result, name: str) -> np.ndarray:
    """(site,) mean over the year of an input series on steps, each step by its hours."""
    hours = (result.inputs["weight"] * result.inputs["dt_hours"]).values
    values = result.inputs[name].values
    values = values if values.ndim == 2 else values[:, None] * np.ones_like(hours)
    return (values * hours).sum(axis=1) / hours.sum()


@pytest.mark.parametrize("variant", ["base", "carbon_200", "cap_30mw_added", "no_new_sites_in_europe"])
def test_every_plan_serves_all_demand_and_does_all_the_training(plan, variant):
    """Unserved demand costs 100 USD/Mtoken; serving one on a new GB200 costs its rack's
    annuity, 3 M USD x CRF(7 %, 5 y) 0.2439 / 72 chips = 10,162 USD a chip-year, over
    what it serves in a year of its slowest service, code's ~280 tokens/s (the roofline,
    docs/compute.md) x 3.1536e7 s = ~8,800 Mtoken: ~1.2 USD/Mtoken, plus hall and
    energy of the same order. So no plan leaves demand unserved; and every job's work is
    a hard constraint."""
    result = plan(variant)
    assert result.kpis["unserved_fraction"] == pytest.approx(0.0, abs=1e-9)
    done = result.dataset["job_work_eflop"].values.sum(axis=1)  # (job, time) -> job
    required = result.inputs["work_eflop"].values
    assert np.all(done >= required * (1 - 1e-6))


def test_a_carbon_price_never_raises_emissions(plan):
    """Let (C1, E1) and (C2, E2) be the other costs and the emissions of optima at carbon
    prices p1 < p2 over the same feasible set. Optimality gives C1 + p1 E1 <= C2 + p1 E2 and
    C2 + p2 E2 <= C1 + p2 E1; adding them, (p2 - p1)(E2 - E1) <= 0, so E2 <= E1."""
    emissions = [plan(v).kpis["emissions_tco2"] for v in ("base", "carbon_100", "carbon_200")]
    tolerance = 1e-6 * emissions[0]
    assert emissions[1] <= emissions[0] + tolerance
    assert emissions[2] <= emissions[1] + tolerance
    assert emissions[2] < emissions[0]  # the price moves something: see the next test


def _it_mwh_usd(result: Result, carbon_usd_per_t: float) -> dict[str, float]:
    """What a MWh of IT load costs at each site over the year: PUE x (price + carbon price x carbon)."""
    price = _annual_mean(result, "grid_price_usd_per_mwh")
    carbon = _annual_mean(result, "grid_carbon_kg_per_mwh") / 1000.0
    pue = _annual_mean(result, "pue")
    return dict(zip(_sites(result), pue * (price + carbon_usd_per_t * carbon), strict=True))


def test_at_200_usd_per_tonne_new_capacity_moves_to_cleaner_grids(plan, catalog):
    """A rack, a hall MW and the land cost the same everywhere, so between two sites that
    reach the same users, new capacity goes where a MWh of IT load is cheaper. Hudson
    Valley (NYISO, 278 kg/MWh) and Toronto (73 kg/MWh) reach the same North-Eastern metros:
    at no carbon price Hudson Valley's MWh is the cheaper (69 against 75 USD before PUE),
    at 200 USD/t Toronto's (75 + 15 against 69 + 56), so the base builds at Hudson Valley
    and the carbon-priced plan at Toronto instead. Lulea (40 kg/MWh) is then the cheapest
    site of all for training, and trains more. In all, the new chips' mean grid carbon
    falls by more than a fifth."""
    base, carbon_200 = plan("base"), plan("carbon_200")
    scenario = load_scenario(FLAGSHIP, catalog=catalog)

    def reach(site_name: str) -> set[str]:
        site = scenario.sites[site_name]
        return {
            name
            for name, region in scenario.regions.items()
            if _round_trip_ms(
                Location(lat=region.lat, lon=region.lon), Location(lat=site.lat, lon=site.lon)
            )
            <= 40.0
        }

    assert reach("hudson_valley") == {"new_york", "chicago", "atlanta"}
    assert reach("hudson_valley") <= reach("toronto")
    at_0, at_200 = _it_mwh_usd(base, 0.0), _it_mwh_usd(carbon_200, 200.0)
    assert at_0["hudson_valley"] < at_0["toronto"]
    assert at_200["toronto"] < at_200["hudson_valley"]
    cheapest = min(at_200, key=at_200.get)
    assert cheapest == "lulea"
    assert min(v for s, v in at_200.items() if s != "lulea") - at_200["lulea"] > 5.0

    def built(result: Result) -> dict[str, float]:
        chips = result.dataset["built_chips"].sum("system").values
        return dict(zip(_sites(result), chips.tolist(), strict=True))

    before, after = built(base), built(carbon_200)
    assert before["hudson_valley"] > 1000 and before["toronto"] == pytest.approx(0.0, abs=1.0)
    assert after["toronto"] > 1000 and after["hudson_valley"] == pytest.approx(0.0, abs=1.0)
    assert _training_chip_hours(carbon_200)["lulea"] > 1.5 * _training_chip_hours(base)["lulea"]
    carbon = _annual_mean(base, "grid_carbon_kg_per_mwh")

    def mean_carbon(chips: dict[str, float]) -> float:
        weights = np.array([chips[s] for s in _sites(base)])
        return float((weights * carbon).sum() / weights.sum())

    assert mean_carbon(after) < 0.8 * mean_carbon(before)


def test_a_cap_no_site_reaches_costs_at_most_the_lp_opening_shares(plan):
    """The base adds far less than 300 MW at every site, so with every maximum cut to 300
    MW the base plan stays feasible: the same build, with a new site's opening share
    raised to at least its added MW / 300 (the LP's opening row, build <= most x open).
    The capped plan's feasible set lies inside the base's (smaller maxima, tighter
    opening rows), so  base <= capped <= base + sum over new sites of the opening
    annuity x the share the cap adds."""
    base, capped = plan("base"), plan("cap_300mw")
    added = _added_mw(base)
    assert max(added.values()) < 300.0
    inputs = base.inputs
    most = inputs["build_max_envelope_mw"].values
    extra = 0.0
    for s, name in enumerate(_sites(base)):
        if not inputs["site_new"].values[s] or most[s] <= 300.0:
            continue
        opened = float(base.dataset["site_opened"].values[s])
        raised = max(opened, added[name] / 300.0)
        annual = float(inputs["site_open_annuity_usd_per_year"].values[s])
        annual += float(inputs["site_open_fixed_om_usd_per_year"].values[s])
        extra += annual * (raised - opened) * float(inputs.attrs["horizon_years"])
    objective = base.kpis["objective"]
    assert capped.kpis["objective"] >= objective * (1 - 1e-7)
    assert capped.kpis["objective"] <= objective + extra + 1e-7 * objective


def test_a_binding_cap_moves_what_it_removes_to_other_sites(plan):
    """No site may add more than 30 MW. The base adds more than that at some site, so the
    cap binds and the optimum cannot fall (a smaller feasible set). The demand to serve
    and the work to do are the same, so what the cap removes from those sites must be
    built at others: the sites the base kept at or below 30 MW add more in all."""
    base, capped = plan("base"), plan("cap_30mw_added")
    before, after = _added_mw(base), _added_mw(capped)
    over = {s for s, mw in before.items() if mw > 30.0}
    assert over, "the cap does not bind"
    assert max(after.values()) <= 30.0 + 1e-6
    assert capped.kpis["objective"] >= base.kpis["objective"] * (1 - 1e-7)
    removed = sum(before[s] - after[s] for s in over)
    assert removed > 0
    others_before = sum(mw for s, mw in before.items() if s not in over)
    others_after = sum(mw for s, mw in after.items() if s not in over)
    assert others_after > others_before


def _round_trip_ms(a: Location, b: Location) -> float:
    """docs/fidelity.md: 2.36 ms + 2 d f(d) x 4.896 us/km, f(d) = 1.535 + 1.213 x 1000 / (d + 1000)."""
    d = geodesic_km(a, b)
    factor = 1.535 + (2.748 - 1.535) * 1000.0 / (d + 1000.0)
    return 2.36 + 2.0 * d * factor * 4.896 / 1000.0


def test_without_new_european_sites_frankfurt_serves_europe(plan, catalog):
    """Nothing is opened or built at the five new European sites. Every North American
    site is more than 90 ms from every European metro (the fitted round trip, computed
    here), beyond the 40 ms chat SLA, so all European chat is served at Frankfurt, the
    one European site left, and so is all European code (the same SLA). Its chips must
    cover the step of most European chat and code demand at the roofline's rates (the
    inputs'), 0.80 of them usable: a lower bound on the GB200 it must have. The optimum
    cannot fall (fewer options)."""
    base, result = plan("base"), plan("no_new_sites_in_europe")
    sites = _sites(result)
    ds = result.dataset
    for name in NEW_EUROPEAN:
        s = sites.index(name)
        assert float(ds["site_opened"].values[s]) == pytest.approx(0.0, abs=1e-9)
        assert float(ds["built_chips"].values[s].sum()) == pytest.approx(0.0, abs=1e-6)
        assert float(ds["built_source_mw"].values[s].sum()) == pytest.approx(0.0, abs=1e-6)
    scenario = load_scenario(
        FLAGSHIP, variants=["no_new_sites_in_europe"], overrides=REDUCED, catalog=catalog
    )
    american = [n for n, site in scenario.sites.items() if site.jurisdiction in ("US", "CA")]
    for metro in EUROPEAN_METROS:
        region = scenario.regions[metro]
        for name in american:
            site = scenario.sites[name]
            trip = _round_trip_ms(
                Location(lat=region.lat, lon=region.lon), Location(lat=site.lat, lon=site.lon)
            )
            assert trip > 90.0 > 40.0
    inputs = result.inputs
    services = [str(v) for v in inputs["service"].values]
    systems = [str(h) for h in inputs["system"].values]
    regions = [list(inputs["region"].values).index(m) for m in EUROPEAN_METROS]
    frankfurt = sites.index("frankfurt")
    served = ds["served_tokens_per_s"].values[:, regions]  # (service, region, site, time)
    for service in ("chat", "code"):  # agents (150 ms) may cross the ocean
        assert scenario.inference[service].sla == 40.0
        elsewhere = np.delete(served[services.index(service)], frankfurt, axis=1)
        assert float(np.abs(elsewhere).max()) == pytest.approx(0.0, abs=1e-3), service
    # GB200 Frankfurt must have: the step of most European chat and code, each at what a
    # GB200 serves of it, over the usable share, less what its 8,000 H100 serve at best
    # (an H100 is worth at most its best ratio of rates to a GB200's)
    rate = inputs["service_tokens_per_s_per_chip"].values  # (service, system)
    gb200, h100 = systems.index("gb200_nvl72"), systems.index("hgx_h100_8")
    usable = float(inputs["availability"].values[frankfurt])
    assert usable == pytest.approx(0.80)
    gb200_chip_steps = sum(
        inputs["demand_tokens_per_s"].values[services.index(s)][regions].sum(axis=0)
        / rate[services.index(s), gb200]
        for s in ("chat", "code")
    )
    h100_worth = max(
        rate[services.index(s), h100] / rate[services.index(s), gb200] for s in ("chat", "code")
    )
    installed_h100 = float(inputs["chips_installed"].values[frankfurt, h100])
    assert installed_h100 == 8000
    needed = float(gb200_chip_steps.max()) / usable - h100_worth * installed_h100
    frankfurt_gb200 = float(ds["built_chips"].values[frankfurt, gb200])
    assert needed > 0
    assert frankfurt_gb200 >= needed * (1 - 1e-6)
    assert math.isfinite(base.kpis["objective"])
    assert result.kpis["objective"] >= base.kpis["objective"] * (1 - 1e-7)
