"""Property tests (hypothesis) of planning mode on random small scenarios.

The scenarios are those of tests/model/test_properties.py (two sites, a job and a
demand) with build options added at random costs: more systems, solar, a battery and
facility power. Building is a choice: any plan of the scenario without the options is
still feasible with them (build nothing), so options never raise the optimum; and a
dearer build never lowers it.
"""

from __future__ import annotations

import copy

import pytest
import scenario_builder as sb
from hypothesis import event, given
from hypothesis import strategies as st
from invariants import check_invariants
from test_properties import FAST, prices, pues, two_sites

costs = st.floats(0.0, 4e6, allow_nan=False)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("planning_properties")


def with_build_options(data: dict, system_usd: float, solar_usd: float, battery_usd: float) -> dict:
    """Up to 100 more H100 servers and 60 MW more envelope at s0, solar and a battery at s1."""
    data = copy.deepcopy(data)
    data["sites"]["s0"]["build"] = {
        "systems": {sb.H100: {"max": 200, "capex": f"{system_usd / 10} USD"}},
        "power_envelope": {"max": "560 MW", "capex": f"{system_usd} USD/MW"},
    }
    data["sites"]["s1"]["build"] = {
        "power_sources": {
            "solar_pv": {"max": "5 MW", "capex": f"{solar_usd} USD/MW", "price": "0 USD/MWh"}
        },
        "battery": {
            "power": {"max": "2 MW", "capex": f"{battery_usd} USD/MW"},
            "energy": {"max": "8 MWh", "capex": f"{battery_usd / 4} USD/MWh"},
        },
    }
    data["finance"] = {"discount_rate": 0.05}
    return data


@FAST
@given(
    p0=prices,
    p1=prices,
    pue0=pues,
    pue1=pues,
    k=st.floats(0.2, 5.0),
    carbon=st.floats(0.0, 300.0),
    system_usd=costs,
    solar_usd=costs,
    battery_usd=costs,
)
def test_build_options_never_raise_the_objective_and_a_dearer_build_never_lowers_it(
    folder, catalog, h100, p0, p1, pue0, pue1, k, carbon, system_usd, solar_usd, battery_usd
):
    base = two_sites(p0, p1, pue0, pue1, k, h100)
    base["objective"]["carbon_price"] = f"{carbon} USD/tCO2"
    without = sb.run_text(folder, base, catalog)
    options = sb.run_text(folder, with_build_options(base, system_usd, solar_usd, battery_usd), catalog)
    dearer = sb.run_text(
        folder, with_build_options(base, 2 * system_usd, 2 * solar_usd, 2 * battery_usd), catalog
    )
    assert without.ok and options.ok and dearer.ok, options.messages + dearer.messages
    for result in (options, dearer):
        check_invariants(result)
    assert options.kpis["objective"] <= without.kpis["objective"] * (1 + 1e-9) + 1e-6
    assert dearer.kpis["objective"] >= options.kpis["objective"] * (1 - 1e-9) - 1e-6
    assert dearer.kpis["objective"] <= without.kpis["objective"] * (1 + 1e-9) + 1e-6
    builds = options.kpis["capex_usd_per_year"] > 0
    event("something is built" if builds else "nothing is built")
    if not builds:  # building nothing is the old plan
        assert options.kpis["objective"] == pytest.approx(without.kpis["objective"], rel=1e-7)


@FAST
@given(p0=prices, p1=prices, pue0=pues, pue1=pues, k=st.floats(0.2, 5.0))
def test_free_capacity_that_cannot_help_is_not_built(folder, catalog, h100, p0, p1, pue0, pue1, k):
    # At k <= 5 neither site is short of chips for what it does, and the 500 MW envelopes
    # never bind (the load is under 2 MW). Free servers at the site dearer per unit of work
    # (price x PUE) would only draw idle power, and free facility power relaxes nothing:
    # none is built and the objective is the old one. (Free servers at the cheaper site can
    # help: they take work from the dearer one; the test above covers that the objective
    # then falls.)
    base = two_sites(p0, p1, pue0, pue1, k, h100)
    dearer = "s0" if p0 * pue0 >= p1 * pue1 else "s1"
    data = copy.deepcopy(base)
    for name in ("s0", "s1"):
        data["sites"][name]["build"] = {
            "power_envelope": {"max": "900 MW", "capex": "0 USD/MW", "fixed_om": "0 USD/MW/year"}
        }
    data["sites"][dearer]["build"]["systems"] = {
        sb.H100: {"max": 300, "capex": "0 USD", "fixed_om": "0 USD/year"}
    }
    without = sb.run_text(folder, base, catalog)
    free = sb.run_text(folder, data, catalog)
    assert without.ok and free.ok, free.messages
    assert free.kpis["objective"] == pytest.approx(without.kpis["objective"], rel=1e-7)
    assert float(free.dataset["built_systems"].sum()) == pytest.approx(0.0, abs=1e-6)
