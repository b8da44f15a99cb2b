"""Planning runs in the app (issue 16, item 6), under streamlit.testing: a plan's costs as
metrics, the Build tab (map sized by what was built, cost breakdown, the library's build
table), two plans compared, the planning knobs and their problems on the page.

The plan is small enough to solve by hand. Site ``a`` has 100 HGX H100 servers (800
chips) on a 10 MW firm source at 60 USD/MWh and 100 kgCO2e/MWh, PUE 1.2. A job needs
1,600 chips in each of its 2 hours (max_chips 1,600, goodput 1), so ``a`` must build 100
servers (300,000 USD each, 3,000 USD a year of O&M, 5 years, discount rate 0):
capex 100 x 300,000 / 5 = 6,000,000 USD a year, fixed O&M 300,000 USD a year. All 1,600
chips work, so the facility draws 1.2 x 1,600 x P_train, P_train the catalogue's
training power of an H100 (0.76 x 10.2 kW / 8 = 0.969 kW): 1.86048 MW, 3.72096 MWh in
2 h. At a carbon price of 100 USD/t the energy costs 60 x 3.72096 = 223.2576 USD and the
carbon 100 x 0.372096 t = 37.2096 USD; 2 h are 2 / 8760 of a year, so a year of them is
x 4,380: energy 977,868.3 and carbon 162,978.0 USD a year, 7,440,846.3 USD a year in
all.

``a`` may also build gas (CCGT, flat capacity factor 0.95) at 45 USD/MWh and
350 kgCO2e/MWh, 1,000,000 USD/MW over 20 years + 10,000 USD/MW a year = 60,000 USD per
MW a year. At 100 USD/t gas costs 45 + 35 = 80 USD/MWh against 70 from the firm source:
none is built. At 0 USD/t it costs 45 against 60, saving 15 x 0.95 x 8,760 = 124,830 USD
per MW a year, more than its 60,000: gas is built to carry the whole load, 1.86048 / 0.95 =
1.9584 MW (more would only be curtailed). The new site ``c`` could hold servers at the
same price but opens only by paying 1e12 USD: it stays closed.
"""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
import yaml
from streamlit.testing.v1 import AppTest

from geomodel.inputs.annuity import capital_recovery_factor
from geomodel.results.planning import build_rows
from geomodel.ui import state
from geomodel.ui.components.build_map import CLOSED, GROWN
from geomodel.ui.components.deck import RING_FILL, SITE_RADIUS, size_legend
from geomodel.ui.components.plan import BUILD_TABLE
from geomodel.ui.components.tables import shown_frame
from geomodel.ui.format import PLANNING_HEADLINE, format_metric, headline, kpi_label
from geomodel.ui.run_store import RunStore

from .conftest import APP, SCRIPT_TIMEOUT, number, page, section_errors, table_with, wait_for_run, widget

REL = 1e-6
YEAR_SHARE = 8760 / 2  #: a 2-hour horizon, scaled to a year
SERVERS, SERVER_CAPEX, SERVER_OM, SERVER_LIFE = 100, 300_000.0, 3_000.0, 5
GAS_USD_PER_MW_YEAR = 1_000_000 / 20 + 10_000
CARBON = "Carbon price (USD/tCO2)"
DISCOUNT = "Discount rate (1/year, real)"
CAP_A = "a: most hgx_h100_8"

PLAN = {
    "name": "plan-hand",
    "time": {"start": "2025-01-01T00:00:00+00:00", "hours": 2, "resolution": "1 h"},
    "sites": {
        "a": {
            "lat": 40.0,
            "lon": -100.0,
            "power_envelope": "500 MW",
            "pue": 1.2,
            "availability": 1.0,
            "systems": {"hgx_h100_8": 100},
            "power_sources": {
                "nuclear": {"capacity": "10 MW", "price": "60 USD/MWh", "carbon": "100 kgCO2/MWh"}
            },
            "jurisdiction": "XX",
            "build": {
                "systems": {
                    "hgx_h100_8": {"max": 300, "capex": "300000 USD", "fixed_om": "3000 USD/year"}
                },
                "power_sources": {
                    "gas_ccgt": {
                        "max": "20 MW",
                        "capex": "1000000 USD/MW",
                        "fixed_om": "10000 USD/MW/year",
                        "price": "45 USD/MWh",
                        "carbon": "350 kgCO2/MWh",
                    }
                },
            },
        },
        "c": {
            "lat": 45.0,
            "lon": -110.0,
            "power_envelope": "0 MW",
            "pue": 1.2,
            "availability": 1.0,
            "systems": {},
            "power_sources": {
                "nuclear": {"capacity": "10 MW", "price": "60 USD/MWh", "carbon": "100 kgCO2/MWh"}
            },
            "jurisdiction": "XX",
            "build": {
                "new_site": True,
                "open_cost": "1e12 USD",
                "power_envelope": {"max": "50 MW", "capex": "0 USD/MW", "fixed_om": "0 USD/MW/year"},
                "systems": {
                    "hgx_h100_8": {"max": 1000, "capex": "300000 USD", "fixed_om": "3000 USD/year"}
                },
            },
        },
    },
    "training": {
        "pretrain": {
            # 1,600 chips x 2 h x 0.989 PFLOPS x 3.6 x MFU 0.5 (EFLOP)
            "compute": 1600 * 2 * 0.989 * 3.6 * 0.5,
            "gradient_size": "10 GB",
            "sync_interval": "10 s",
            "tp": 8,
            "mfu": 0.5,
            "restart": 0,
            "max_chips": 1600,
        }
    },
    "objective": {"carbon_price": 100, "latency_weight": 0, "unserved_penalty": 1000},
    "finance": {
        "discount_rate": 0.0,
        "lifetimes": {"systems": "5 years", "site": "100 years", "firm": "20 years"},
    },
    "solver": {"threads": 1, "time_limit": "60 s"},
}


def upload(at: AppTest, data: dict, name: str = "plan-hand.yaml") -> AppTest:
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    text = yaml.safe_dump(data, sort_keys=False).encode()
    at.file_uploader(key=state.UPLOAD).set_value((name, text, "application/x-yaml")).run()
    assert not at.exception, at.exception
    return at


def run(at: AppTest) -> str:
    """Press Run, wait, and return the run's scenario hash."""
    button = next(b for b in at.button if b.label.startswith("Run"))
    if button.label == "Run":
        button.click().run()
    wait_for_run(at)
    return at.session_state[state.LAST_RUN]


@pytest.fixture(scope="module")
def facility_mw(catalog) -> float:
    """1.2 x 1,600 training chips x the catalogue's training power of an H100 chip."""
    training_kw = catalog.hardware_system("hgx_h100_8").training_kw_per_chip
    assert training_kw == pytest.approx(0.76 * 10.2 / 8)  # 0.969 kW
    return 1.2 * 1600 * training_kw / 1000


@pytest.fixture(scope="module")
def plans(app_cache) -> dict[str, str]:
    """Three runs of the plan in one browser session: as the file (carbon 100 USD/t), with
    the carbon price knob at 0, and with the discount rate knob at 0.05."""
    at = upload(AppTest.from_file(str(APP), default_timeout=SCRIPT_TIMEOUT).run(), PLAN)
    found = {"file": run(at)}
    widget(at.number_input, CARBON).set_value(0.0).run()
    found["no carbon price"] = run(at)
    widget(at.number_input, CARBON).set_value(100.0).run()
    widget(at.number_input, DISCOUNT).set_value(0.05).run()
    found["discount 0.05"] = run(at)
    return found


def results_page(run_hash: str) -> AppTest:
    """A new browser session on the results of ``run_hash`` by its link (``?run=``: runs are
    private to the session that started them, and shared by link)."""
    at = AppTest.from_file(str(APP), default_timeout=SCRIPT_TIMEOUT)
    at.query_params[state.RUN_PARAM] = run_hash
    at.run()
    page(at, "results")
    assert not at.exception, at.exception
    return at


def deck_layers(chart) -> dict[str, dict]:
    spec = json.loads(chart.proto.json)
    return {layer["id"]: layer for layer in spec["layers"]}


def test_a_plan_shows_what_it_costs_first(plans, app_cache, facility_mw):
    record = RunStore(app_cache).record(plans["file"])
    assert record["planning"] is True
    kpis = record["kpis"]
    energy, carbon = 60 * facility_mw * 2, 100 * 0.1 * facility_mw * 2
    assert energy == pytest.approx(223.2576) and carbon == pytest.approx(37.2096)
    assert kpis["capex_usd_per_year"] == pytest.approx(SERVERS * SERVER_CAPEX / SERVER_LIFE, rel=REL)
    assert kpis["fixed_om_usd_per_year"] == pytest.approx(SERVERS * SERVER_OM, rel=REL)
    assert kpis["total_cost_usd_per_year"] == pytest.approx(7_440_846.336, rel=REL)
    at = results_page(plans["file"])
    shown = [m.label for m in at.metric]
    assert shown == [kpi_label(n) for n in headline(planning=True) if n in kpis]
    assert shown[: len(PLANNING_HEADLINE)] == list(PLANNING_HEADLINE.values())
    values = {m.label: m.value for m in at.metric}
    assert (
        values["Total (USD/year)"] == format_metric("total_cost_usd_per_year", 7_440_846.3) == "7.44 M"
    )
    assert values["USD per Mtoken"] == "-"  # nothing served


def test_the_build_tab_shows_the_librarys_build_table(plans, app_cache):
    at = results_page(plans["file"])
    assert [t.label for t in at.tabs][:2] == ["Build", "Map"]
    build = table_with(at, "Annual cost (USD/year)")
    from geomodel.results.result import open_result

    result = open_result(RunStore(app_cache).result_path(plans["file"]))
    library = shown_frame(pd.DataFrame(build_rows(result.dataset, result.inputs)), BUILD_TABLE)
    pd.testing.assert_frame_equal(build.reset_index(drop=True), library)
    # and by hand: 100 servers at a, 30 M USD, 6.3 M USD a year; nothing at c
    assert build.to_dict("records") == [
        {
            "Asset": "systems",
            "What": "hgx h100 8",
            "Where": "a",
            "Amount": "100.00",
            "Units": "systems",
            "Capex (USD)": "30,000,000",
            "Annual cost (USD/year)": "6,300,000",
        }
    ]
    downloads = [d.label for d in at.get("download_button")]
    assert downloads == ["Results (NetCDF)", "KPI table (CSV)", "CSV", "CSV"]  # costs, build
    assert any("A relaxed plan (LP)" in c.value for c in at.caption)  # whole, though relaxed


def test_the_cost_breakdown_adds_up_to_the_total_cost_a_year(plans, app_cache, facility_mw):
    at = results_page(plans["file"])
    shown = table_with(at, "Share (%)").set_index("Part")
    costs = pd.DataFrame(
        {"usd_per_year": shown["USD/year"].map(number), "share (%)": shown["Share (%)"].map(number)}
    )
    expected = {
        "capex: systems": SERVERS * SERVER_CAPEX / SERVER_LIFE,
        "fixed O&M: systems": SERVERS * SERVER_OM,
        "energy": 60 * facility_mw * 2 * YEAR_SHARE,  # 977,868.3
        "carbon": 100 * 0.1 * facility_mw * 2 * YEAR_SHARE,  # 162,978.0
    }
    # shown rounded to whole dollars
    assert costs["usd_per_year"].drop("= total cost a year").to_dict() == pytest.approx(
        expected, abs=0.5
    )
    total = RunStore(app_cache).record(plans["file"])["kpis"]["total_cost_usd_per_year"]
    assert costs.loc["= total cost a year", "usd_per_year"] == pytest.approx(total, abs=0.5)
    assert sum(expected.values()) == pytest.approx(total, rel=REL)
    assert costs.loc["= total cost a year", "share (%)"] == 100.0
    assert costs.loc["capex: systems", "share (%)"] == pytest.approx(6e8 / 7_440_846.3, abs=0.05)


def test_the_build_map_sizes_each_site_by_what_was_built(plans):
    at = results_page(plans["file"])
    layers = deck_layers(at.get("deck_gl_json_chart")[0])
    after = {row["site"]: row for row in layers["after"]["data"]}
    built = {row["site"]: row for row in layers["built"]["data"]}
    small, extra = SITE_RADIUS
    # a: 1,600 chips after building, the largest (the full radius); 800 built, half the area
    assert after["a"]["radius"] == pytest.approx(small + extra)
    assert built["a"]["disc"] == pytest.approx(small + extra * math.sqrt(0.5))
    assert built["a"]["color"][:3] == list(GROWN)
    # c: a candidate that did not open: the smallest ring, no disc
    assert after["c"]["radius"] == pytest.approx(small) and built["c"]["disc"] == 0
    assert built["c"]["color"][:3] == list(CLOSED)
    assert "candidate, not opened" in built["c"]["tooltip"]
    legend = at.get("html")[0].proto.body
    assert "Ring: chips after building; disc: built" in legend
    assert "nothing built (a ring alone)" in legend
    r, g, b, alpha = RING_FILL  # its swatch looks like the ring
    assert f"background:rgba({r},{g},{b},{alpha / 255:.2f})" in legend
    assert "1,600 chips" in legend and "400 chips" in legend  # the largest, a quarter of it

    at.radio(key=state.RESULT_BUILD_SIZE).set_value("facility_mw").run()
    layers = deck_layers(at.get("deck_gl_json_chart")[0])
    assert all(row["disc"] == 0 for row in layers["built"]["data"])  # no facility MW built
    assert "Ring: facility power after building" in at.get("html")[0].proto.body
    assert "500 MW" in at.get("html")[0].proto.body  # a's envelope, the largest


def test_the_build_maps_size_legend_shows_round_amounts():
    """82,105 chips at the largest site (540.35 + 600 racks of 72, plan-small with room for
    1,200) show as 82,000, 21,000 (20,526.25) and 4,100 (4,105.25), each marker drawn for
    its rounded amount: radius small + extra x sqrt(amount / 82,105)."""
    small, extra = SITE_RADIUS
    legend = size_legend("e.g.", 82_105.0, "chips", figures=2)
    for amount in (82_000, 21_000, 4_100):
        diameter = 2 * (small + extra * math.sqrt(amount / 82_105))
        assert f"width:{diameter:.0f}px" in legend and f"{amount:,} chips" in legend
    assert "82,105" not in legend


def test_compare_lists_what_two_plans_build_differently(plans, app_cache, facility_mw):
    a, b = plans["file"], plans["no carbon price"]
    at = AppTest.from_file(str(APP), default_timeout=SCRIPT_TIMEOUT)
    at.query_params[state.COMPARE_A_PARAM], at.query_params[state.COMPARE_B_PARAM] = a, b  # a link
    at.run()
    page(at, "compare")
    assert at.selectbox(key=state.COMPARE_A).value == a and at.selectbox(key=state.COMPARE_B).value == b
    assert not at.exception, at.exception
    tables = [t.value for t in at.table]
    differs = next(t for t in tables if "Run A (USD/year)" in t.columns and len(t) == 1)
    gas_mw = facility_mw / 0.95
    assert gas_mw == pytest.approx(1.9584, abs=1e-4)
    row = differs.iloc[0]
    # the asset is the finance class the gas is priced under, as its 20-year lifetime
    # (finance.lifetimes.firm): the CCGT's cost entry's class (gas_ccgt_plant, issue 24 item 4)
    assert (row["Asset"], row["What"], row["Where"], row["Units"]) == ("firm", "gas ccgt", "a", "MW")
    assert (number(row["Run A"]), number(row["Run B"])) == (0.0, pytest.approx(gas_mw, abs=0.005))
    assert number(row["Run B (USD/year)"]) == pytest.approx(gas_mw * GAS_USD_PER_MW_YEAR, abs=0.5)
    # both builds in full: the servers are the same in both
    full = next(t for t in tables if "Run A (USD/year)" in t.columns and len(t) == 2).set_index("What")
    assert number(full.loc["hgx h100 8", "Run A"]) == number(full.loc["hgx h100 8", "Run B"]) == SERVERS
    # the yearly costs side by side; their totals are each plan's KPI
    costs = next(t for t in tables if "B - A (USD/year)" in t.columns).set_index("Part")
    kpis = {h: RunStore(app_cache).record(h)["kpis"] for h in (a, b)}
    assert number(costs.loc["= total cost a year", "Run A (USD/year)"]) == pytest.approx(
        kpis[a]["total_cost_usd_per_year"], abs=0.5
    )
    assert number(costs.loc["= total cost a year", "Run B (USD/year)"]) == pytest.approx(
        kpis[b]["total_cost_usd_per_year"], abs=0.5
    )
    assert number(costs.loc["carbon", "Run B (USD/year)"]) == 0  # no carbon price
    energy_b = number(costs.loc["energy", "Run B (USD/year)"])
    assert energy_b == pytest.approx(45 * facility_mw * 2 * YEAR_SHARE, abs=0.5)
    # the plans' maps, one above the other on one scale: a is 1,600 chips after building in both
    maps = at.get("deck_gl_json_chart")
    assert len(maps) == 2
    for chart in maps:
        assert deck_layers(chart)["after"]["data"][0]["radius"] == pytest.approx(sum(SITE_RADIUS))
    metric = {m.label: m for m in at.metric}["Total (USD/year)"]
    assert metric.delta.startswith("-")  # no carbon price: cheaper


def test_the_discount_rate_knob_turns_capex_into_its_annuity(plans, app_cache):
    """At r = 0.05 a 5-year asset's yearly payment is its capex x CRF(0.05, 5) = 0.2309748;
    the gas is still not built, so capex is the servers' alone."""
    record = RunStore(app_cache).record(plans["discount 0.05"])
    assert record["command"].endswith("--set finance.discount_rate=0.05")
    assert "discount_rate=0.05" in record["label"]
    crf = 0.05 * 1.05**5 / (1.05**5 - 1)
    assert crf == pytest.approx(0.2309748, abs=1e-7)
    assert crf == pytest.approx(capital_recovery_factor(0.05, 5))
    assert record["kpis"]["capex_usd_per_year"] == pytest.approx(SERVERS * SERVER_CAPEX * crf, rel=REL)


def test_planning_knobs_out_of_range_show_the_librarys_problem_under_planning(app):
    at = upload(app().run(), PLAN)
    widget(at.number_input, DISCOUNT).set_value(0.4).run()
    assert section_errors(at)["Planning"] == [  # the knob is a --set option, as the CLI says
        "--set finance.discount_rate: finance.discount_rate: must lie in [0, 0.3] 1/year (got 0.4)"
    ]
    assert not [b for b in at.button if b.label.startswith("Run")]  # nothing to run
    widget(at.number_input, DISCOUNT).set_value(0.05).run()
    widget(at.number_input, CAP_A).set_value(50).run()
    (problem,) = section_errors(at)["Planning"]
    assert "sites.a.build.systems.hgx_h100_8.max: max 50 systems is below the 100 installed" in problem
    # back within range: no problem, and the knobs are --set overrides
    widget(at.number_input, CAP_A).set_value(250).run()
    assert "Planning" not in section_errors(at)
    overrides = at.session_state[state.RECIPE].overrides
    assert overrides == {"finance.discount_rate": 0.05, "sites.a.build.systems.hgx_h100_8.max": 250}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"finance": {"discount_rate": 0.4, "lifetimes": {"solar": "-3 years"}}},
            [
                "plan.yaml:{discount_rate}: finance.discount_rate: must lie in [0, 0.3] 1/year "
                "(got 0.4)",
                "plan.yaml:{solar}: finance.lifetimes.solar: must be at least 1 (got '-3 years')",
            ],
        ),
        (
            {
                "links": {
                    "candidates": [{"sites": ["a", "lon"], "technology": "smf_800zr", "max_pairs": 2}]
                }
            },
            ["links.candidates[0].sites[1]: unknown site 'lon'"],
        ),
    ],
    ids=["finance", "route candidate"],
)
def test_a_file_with_bad_planning_fields_shows_each_problem_under_planning(app, change, expected):
    bad = {**json.loads(json.dumps(PLAN)), **change}
    at = upload(app().run(), bad, "plan.yaml")
    lines = yaml.safe_dump(bad, sort_keys=False).splitlines()
    # the line of each field in the file as uploaded
    where = {t.strip().split(":")[0]: n for n, t in enumerate(lines, 1) if ":" in t}
    errors = section_errors(at)["Planning"]
    assert len(errors) == len(expected), errors
    for line, error in zip(expected, errors, strict=True):
        assert line.format(**where) in error, (line, error)
    assert not at.number_input  # a file with problems shows them before any knob


def test_a_plan_against_a_run_that_builds_nothing_says_so(plans, app):
    """The same site without build options or the new site: a dispatch run (the 1,600
    chips installed), compared with the plan; builds are compared between plans only."""
    dispatch = json.loads(json.dumps(PLAN))
    dispatch["name"] = "dispatch"
    del dispatch["sites"]["c"], dispatch["sites"]["a"]["build"], dispatch["finance"]
    dispatch["sites"]["a"]["systems"] = {"hgx_h100_8": 200}
    at = upload(app().run(), dispatch, "dispatch.yaml")
    assert "Planning" not in [m.value.strip("*") for m in at.markdown]  # no planning knobs
    other = run(at)
    at.query_params[state.RUN_PARAM] = plans["file"]  # the plan, shared with this session by link
    page(at, "results")
    page(at, "compare")
    at.selectbox(key=state.COMPARE_A).set_value(other).run()
    at.selectbox(key=state.COMPARE_B).set_value(plans["file"]).run()
    assert not at.exception, at.exception
    assert "Builds are compared between two solved plans; run A is not one." in [
        i.value for i in at.info
    ]
    assert not at.get("deck_gl_json_chart")
    # the plan's costs are still shown as metrics, with their change from the dispatch run
    assert "Total (USD/year)" in [m.label for m in at.metric]
