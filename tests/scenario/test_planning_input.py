"""Bad build options (planning mode): one problem each, naming file:line, the field, the
value and what is allowed; every problem of a file at once."""

from __future__ import annotations

import pytest

from .conftest import BASE, assert_names, errors, line_of, load, only_error

PLANNED = (
    BASE.replace(
        "    systems: {hgx_h100_8: 100}\n",
        """\
    systems: {hgx_h100_8: 100}
    build:
      systems:
        hgx_h100_8: {max: 400}
      power_envelope: {max: 60 MW}
      power_sources:
        solar_pv: {max: 50 MW, fixed_om: 20 USD/kW/year}
""",
    )
    + """\
finance:
  discount_rate: 0.05
  lifetimes: {solar: 30 years}
links:
  candidates:
    - {sites: [fra, ams], technology: smf_800zr, max_pairs: 2}
"""
)


def assert_only_problem_at_the_edit(tmp_path, catalog, old, new, path, allowed, value=None) -> None:
    """PLANNED with ``old`` made ``new`` has one problem, on the edited line, naming it all."""
    text = PLANNED.replace(old, new, 1)
    file, line = tmp_path / "scenario.yaml", line_of(text, new)
    problem = only_error(tmp_path, text, catalog)
    assert_names(problem, file=file, line=line, path=path, allowed=allowed, value=value)


def test_the_planned_scenario_is_valid(tmp_path, catalog):
    scenario = load(tmp_path, PLANNED, catalog)
    assert scenario.sites["fra"].build.systems["hgx_h100_8"].max == 400
    assert scenario.sites["fra"].build.power_sources["solar_pv"].fixed_om == pytest.approx(20_000)
    assert scenario.finance.lifetimes == {"solar": 30.0}
    assert scenario.origin.warnings == []


@pytest.mark.parametrize(
    ("old", "new", "path", "value", "allowed"),
    [
        (  # a maximum below what is installed
            "hgx_h100_8: {max: 400}",
            "hgx_h100_8: {max: 50}",
            "sites.fra.build.systems.hgx_h100_8.max",
            50,
            "max 50 systems is below the 100 installed (sites.fra.systems.hgx_h100_8)",
        ),
        (
            "power_envelope: {max: 60 MW}",
            "power_envelope: {max: 10 MW}",
            "sites.fra.build.power_envelope.max",
            10.0,
            "max 10 MW is below the installed power envelope 20 MW",
        ),
        (  # a negative, zero or sub-year lifetime (issue 24, item 14: 0.001 passed)
            "lifetimes: {solar: 30 years}",
            "lifetimes: {solar: -5 years}",
            "finance.lifetimes.solar",
            "-5 years",
            "at least 1",
        ),
        (
            "lifetimes: {solar: 30 years}",
            "lifetimes: {solar: 0}",
            "finance.lifetimes.solar",
            0,
            "at least 1",
        ),
        (
            "lifetimes: {solar: 30 years}",
            "lifetimes: {solar: 0.001 years}",
            "finance.lifetimes.solar",
            "0.001 years",
            "at least 1",
        ),
        (  # a discount rate outside [0, 0.3]
            "discount_rate: 0.05",
            "discount_rate: 0.35",
            "finance.discount_rate",
            0.35,
            "[0, 0.3]",
        ),
        (
            "discount_rate: 0.05",
            "discount_rate: -0.01",
            "finance.discount_rate",
            -0.01,
            "[0, 0.3]",
        ),
        (  # costs in wrong units
            "max: 60 MW}",
            "max: 60 MWh}",
            "sites.fra.build.power_envelope.max",
            "60 MWh",
            "expected a power in MW",
        ),
        (
            "fixed_om: 20 USD/kW/year",
            "fixed_om: 20 USD/kWh",
            "sites.fra.build.power_sources.solar_pv.fixed_om",
            "20 USD/kWh",
            "expected a cost in USD/MW/year (e.g. '10 USD/MW/year'); '20 USD/kWh' is not a yearly cost",
        ),
        (
            "fixed_om: 20 USD/kW/year",
            "capex: 1100 USD/kWh",
            "sites.fra.build.power_sources.solar_pv.capex",
            "1100 USD/kWh",
            "expected a cost per unit of power in USD/MW",
        ),
    ],
)
def test_a_bad_limit_lifetime_rate_or_unit_is_one_clear_problem(
    tmp_path, catalog, old, new, path, value, allowed
):
    assert_only_problem_at_the_edit(tmp_path, catalog, old, new, path, allowed, value)


@pytest.mark.parametrize(
    ("old", "new", "path", "allowed"),
    [
        (  # a build option for a system or source that does not exist
            "hgx_h100_8: {max: 400}",
            "hgx_h100_9: {max: 400}",
            "sites.fra.build.systems.hgx_h100_9",
            "unknown hardware system 'hgx_h100_9'; did you mean hgx_h100_8",
        ),
        (
            "solar_pv: {max: 50 MW",
            "solar_pvv: {max: 50 MW",
            "sites.fra.build.power_sources.solar_pvv",
            "unknown power source 'solar_pvv'; did you mean solar_pv",
        ),
        (  # a route candidate between unknown sites
            "sites: [fra, ams]",
            "sites: [fra, lon]",
            "links.candidates[0].sites[1]",
            "unknown site 'lon'; known sites: fra, ams",
        ),
        (
            "technology: smf_800zr",
            "technology: smf_900zr",
            "links.candidates[0].technology",
            "unknown link technology 'smf_900zr'; did you mean smf_800zr",
        ),
        (  # a lifetime for an asset class nothing has
            "lifetimes: {solar: 30 years}",
            "lifetimes: {solr: 30 years}",
            "finance.lifetimes.solr",
            "unknown asset class 'solr'; did you mean solar",
        ),
        (  # an option the catalogue cannot price
            "solar_pv: {max: 50 MW, fixed_om: 20 USD/kW/year}",
            "hydro: {max: 50 MW, fixed_om: 20 USD/kW/year}",
            "sites.fra.build.power_sources.hydro",
            "no capex known for power source 'hydro' in the cost catalogue: give capex",
        ),
    ],
)
def test_an_unknown_name_or_a_missing_cost_is_one_clear_problem(
    tmp_path, catalog, old, new, path, allowed
):
    assert_only_problem_at_the_edit(tmp_path, catalog, old, new, path, allowed)


def test_a_built_source_the_site_contracts_shares_its_price(tmp_path, catalog):
    text = PLANNED.replace(
        "    systems: {hgx_h100_8: 100}\n",
        "    systems: {hgx_h100_8: 100}\n    power_sources: {solar_pv: {capacity: 5 MW}}\n",
        1,
    ).replace("solar_pv: {max: 50 MW,", "solar_pv: {max: 50 MW, price: 0 USD/MWh,")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.build.power_sources.solar_pv.price"
    assert "built solar_pv shares the price of the installed solar_pv" in problem.message


def test_a_new_site_with_installed_systems_is_refused(tmp_path, catalog):
    text = PLANNED.replace("    build:\n", "    build:\n      new_site: true\n", 1)
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.build.new_site"
    assert "a new site has nothing installed, but sites.fra.systems lists hgx_h100_8" in problem.message


def test_every_problem_of_a_file_is_reported_at_once(tmp_path, catalog):
    text = (
        PLANNED.replace("hgx_h100_8: {max: 400}", "hgx_h100_8: {max: 50}")
        .replace("discount_rate: 0.05", "discount_rate: 0.5")
        .replace("sites: [fra, ams]", "sites: [fra, lon]")
    )
    found = errors(tmp_path, text, catalog)
    assert [p.path for p in found] == ["finance.discount_rate"]  # the schema stops first
    text = PLANNED.replace("hgx_h100_8: {max: 400}", "hgx_h100_8: {max: 50}").replace(
        "sites: [fra, ams]", "sites: [fra, lon]"
    )
    found = errors(tmp_path, text, catalog)
    assert {p.path for p in found} == {
        "sites.fra.build.systems.hgx_h100_8.max",
        "links.candidates[0].sites[1]",
    }


def test_an_envelope_of_zero_needs_an_envelope_to_build(tmp_path, catalog):
    text = BASE.replace("power_envelope: 20 MW", "power_envelope: 0 MW", 1)
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "power_envelope: 0 MW"),
        path="sites.fra.power_envelope",
        allowed="must be greater than 0 MW (0 only for a site whose build.power_envelope adds it)",
        value=0,
    )


def test_the_summary_says_what_may_be_built_beyond_what_is_installed(tmp_path, catalog):
    from geomodel.scenario.summary import summarize

    found = summarize(load(tmp_path, PLANNED, catalog), catalog)["may_build"]
    # 400 servers at most, 100 installed; 60 MW at most, 20 installed
    assert found == {
        "systems": {"hgx_h100_8": 300},
        "power_envelope_mw": 40.0,
        "power_sources_mw": {"solar_pv": 50.0},
        "new_sites": 0,
        "route_candidates": 1,
    }
    assert summarize(load(tmp_path, BASE, catalog), catalog)["may_build"] == {}


# --- issue 24, item 5: a lifetime override changes the annuity, or is refused ------------


def test_a_lifetime_for_a_sources_kind_priced_under_another_class_is_refused_naming_it(
    tmp_path, catalog
):
    """The built-in ``nuclear`` source is priced by ``nuclear_large``, of asset class
    ``firm``: ``finance.lifetimes.nuclear`` was accepted and changed nothing."""
    text = PLANNED.replace("solar_pv: {max: 50 MW,", "nuclear: {max: 50 MW,").replace(
        "lifetimes: {solar: 30 years}", "lifetimes: {nuclear: 30 years}"
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "finance.lifetimes.nuclear"
    assert problem.position.line == line_of(text, "lifetimes: {nuclear")
    assert "unknown asset class 'nuclear'" in problem.message
    assert "'nuclear' (kind nuclear) is priced under 'firm': set finance.lifetimes.firm" in (
        problem.message
    )
    fixed = text.replace("lifetimes: {nuclear: 30 years}", "lifetimes: {firm: 30 years}")
    assert load(tmp_path, fixed, catalog).finance.lifetimes == {"firm": 30.0}


def test_a_lifetime_no_build_option_of_the_scenario_uses_is_refused(tmp_path, catalog):
    text = PLANNED.replace("lifetimes: {solar: 30 years}", "lifetimes: {wind: 30 years}")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "finance.lifetimes.wind"
    assert problem.message.startswith(
        "no build option of this scenario is priced under asset class 'wind', so this lifetime "
        "would change nothing; its options use dci_equipment, facility, fibre, grid_connection, solar, "
        "systems"
    )


def test_a_lifetime_in_a_scenario_that_builds_nothing_is_a_warning(tmp_path, catalog):
    scenario = load(tmp_path, BASE + "finance:\n  lifetimes: {solar: 30 years}\n", catalog)
    (warning,) = scenario.origin.warnings
    assert warning.severity == "warning" and warning.path == "finance.lifetimes.solar"
    assert "the scenario builds nothing (no build options), so this lifetime changes nothing" in (
        warning.message
    )


def test_a_built_source_carries_the_finance_class_it_is_priced_under(tmp_path, catalog):
    from geomodel.inputs.build import build_inputs

    text = PLANNED.replace("solar_pv: {max: 50 MW,", "nuclear: {max: 50 MW,").replace(
        "lifetimes: {solar: 30 years}", "lifetimes: {firm: 30 years}"
    )
    inputs = build_inputs(load(tmp_path, text, catalog), catalog)
    classes = inputs["build_source_asset_class"]
    assert str(classes.sel(site="fra", source="nuclear").item()) == "firm"
    assert inputs.attrs["lifetimes_years_json"].count('"firm": 30.0') == 1
