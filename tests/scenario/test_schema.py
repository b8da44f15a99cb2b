"""The schema: every bad value is a problem naming file:line, field path, value and what is allowed."""

from __future__ import annotations

import math

import pytest

from geomodel.scenario.schema import COOLING_PUE, TrainingJob

from .conftest import BASE, assert_names, errors, line_of, load, only_error


def test_the_base_scenario_is_valid(tmp_path, catalog):
    scenario = load(tmp_path, BASE, catalog)
    assert list(scenario.sites) == ["fra", "ams"]
    assert scenario.origin.warnings == []


def test_three_different_errors_in_one_file_are_three_problems(tmp_path, catalog):
    text = (
        BASE.replace("pue: 1.2", "pue: 0.9")
        .replace("    lat: 52.37\n", "")
        .replace("sla: 30 ms", "sla: 30 ms\n    effciency: 0.5")
    )
    found = errors(tmp_path, text, catalog)
    path = tmp_path / "scenario.yaml"
    assert [str(p) for p in found] == [
        f"{path}:{line_of(text, 'pue: 0.9')}: sites.fra.pue: must lie in [1, 3] (got 0.9)",
        f"{path}:{line_of(text, '  ams:')}: sites.ams.lat: required field is missing",
        f"{path}:{line_of(text, 'effciency:')}: inference.chat.effciency: unknown field; "
        "did you mean 'efficiency'?",
    ]


@pytest.mark.parametrize(
    ("old", "new", "path", "hint"),
    [
        ("name: tiny", "nmae: tiny", "nmae", "did you mean 'name'?"),
        ("    grid: grid_de", "    gird: grid_de", "sites.fra.gird", "did you mean 'grid'?"),
        ("    tp: 8", "    tp: 8\n    mfuu: 0.4", "training.pretrain.mfuu", "did you mean 'mfu'?"),
        ("  hours: 24", "  hours: 24\n  zzz: 1", "time.zzz", "known fields: start, hours, end"),
    ],
)
def test_an_unknown_key_suggests_the_closest_field(tmp_path, catalog, old, new, path, hint):
    text = BASE.replace(old, new, 1)
    problem = only_error(tmp_path, text, catalog)
    key = new.strip().splitlines()[-1].split(":")[0].strip()
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, f"{key}:"),
        path=path,
        allowed=hint,
    )


def test_a_missing_required_field_names_its_section_line(tmp_path, catalog):
    text = BASE.replace("    power_envelope: 20 MW\n", "", 1)
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "  fra:"),
        path="sites.fra.power_envelope",
        allowed="required field is missing",
    )


def test_a_missing_section_is_reported_at_the_top(tmp_path, catalog):
    text = BASE.replace("time:\n  start: 2025-01-01T00:00:00+00:00\n  hours: 24\n", "")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "time"
    assert problem.position.line == 1


@pytest.mark.parametrize(
    ("old", "new", "path", "value", "allowed"),
    [
        ("hours: 24", "hours: many", "time.hours", "many", "must be a whole number"),
        ("systems: {hgx_h100_8: 100}", "systems: [hgx_h100_8]", "sites.fra.systems", None, "mapping"),
        ("{hgx_h100_8: 100}", "{hgx_h100_8: ten}", "sites.fra.systems.hgx_h100_8", "ten", "whole"),
        ("tp: 8", "tp: 2.5", "training.pretrain.tp", 2.5, "must be a whole number"),
        ("jurisdiction: EU", "jurisdiction: [EU]", "sites.fra.jurisdiction", None, "must be text"),
        ("name: tiny", "name: {a: 1}", "name", None, "must be text"),
        ("sla: 30 ms", "sla: fast", "inference.chat.sla", "fast", "quantity in ms"),
    ],
)
def test_a_wrong_type_says_what_type_is_expected(tmp_path, catalog, old, new, path, value, allowed):
    text = BASE.replace(old, new, 1)
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, new),
        path=path,
        allowed=allowed,
        value=value,
    )


ENVELOPE = "power_envelope: 20 MW"


@pytest.mark.parametrize(
    ("old", "new", "path", "value", "allowed"),
    [
        (ENVELOPE, "power_envelope: -20 MW", "sites.fra.power_envelope", "-20 MW", "at least 0 MW"),
        (ENVELOPE, "power_envelope: 0", "sites.fra.power_envelope", 0, "greater than 0 MW"),
        ("compute: 1e21 FLOP", "compute: -1e21", "training.pretrain.compute", -1e21, "greater than 0"),
        ("{hgx_h100_8: 100}", "{hgx_h100_8: -1}", "sites.fra.systems.hgx_h100_8", -1, "at least 0"),
        ("1e6 token/s", "-5 token/s", "regions.paris.demand.chat.constant", "-5 token/s", "at least 0"),
        ("pue: 1.2", "pue: .nan", "sites.fra.pue", math.nan, "finite number"),
        ("pue: 1.2", "pue: .inf", "sites.fra.pue", math.inf, "finite number"),
        ("lat: 50.11", "lat: .nan", "sites.fra.lat", math.nan, "finite number"),
        (ENVELOPE, "power_envelope: .inf", "sites.fra.power_envelope", math.inf, "finite number"),
        (ENVELOPE, "power_envelope: NaN MW", "sites.fra.power_envelope", "NaN MW", "finite number"),
        ("sla: 30 ms", "sla: -inf ms", "inference.chat.sla", "-inf ms", "finite number"),
    ],
)
def test_negative_nan_and_infinite_values_are_refused(tmp_path, catalog, old, new, path, value, allowed):
    text = BASE.replace(old, new, 1)
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == path, str(problem)
    assert problem.position.line == line_of(text, new), str(problem)
    assert allowed in problem.message, str(problem)
    if isinstance(value, float) and math.isnan(value):
        assert math.isnan(problem.value)
    else:
        assert problem.value == value


def test_a_pue_below_one_says_the_allowed_range(tmp_path, catalog):
    text = BASE.replace("pue: 1.2", "pue: 0.95")
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "pue: 0.95"),
        path="sites.fra.pue",
        allowed="must lie in [1, 3]",
        value=0.95,
    )


@pytest.mark.parametrize("value", [0, -0.1, 1.01, 40])
@pytest.mark.parametrize(
    ("anchor", "field", "path"),
    [
        ("    tp: 8", "mfu", "training.pretrain.mfu"),
        ("    efficiency: 0.3", "efficiency", "inference.chat.efficiency"),
        ("    jurisdiction: EU", "availability", "sites.fra.availability"),
        ("    jurisdiction: EU", "utilisation", "sites.fra.utilisation"),
    ],
)
def test_fractions_must_lie_in_zero_one(tmp_path, catalog, value, anchor, field, path):
    given = f"    {field}: {value}"
    replaced = given if anchor.startswith(f"    {field}:") else f"{anchor}\n{given}"
    text = BASE.replace(anchor, replaced, 1)
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, f"{field}: {value}"),
        path=path,
        allowed="must lie in (0, 1]",
        value=value,
    )


def test_a_fraction_of_exactly_one_is_allowed(tmp_path, catalog):
    text = BASE.replace("    tp: 8", "    tp: 8\n    mfu: 1")
    text = text.replace("efficiency: 0.3", "efficiency: 1")
    scenario = load(tmp_path, text, catalog)
    assert scenario.training["pretrain"].mfu == 1.0


@pytest.mark.parametrize(
    ("coordinates", "path", "value", "allowed"),
    [
        ("lat: 116.4\n    lon: 39.9", "sites.fra.lat", 116.4, "did you swap lat and lon?"),
        ("lat: -95\n    lon: 8.68", "sites.fra.lat", -95, "latitude must lie in [-90, 90]"),
        ("lat: 50.11\n    lon: 181", "sites.fra.lon", 181, "longitude must lie in [-180, 180]"),
        ("lat: 250\n    lon: 8.68", "sites.fra.lat", 250, "[-90, 90]"),
    ],
)
def test_latitude_and_longitude_out_of_range(tmp_path, catalog, coordinates, path, value, allowed):
    text = BASE.replace("lat: 50.11\n    lon: 8.68", coordinates, 1)
    problem = only_error(tmp_path, text, catalog)
    field = path.rsplit(".", 1)[1]
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, f"{field}: {value}"),
        path=path,
        allowed=allowed,
        value=value,
    )
    if value == 250:
        assert "swap" not in problem.message  # 250 is no longitude either


def test_a_region_out_of_range_is_found_too(tmp_path, catalog):
    text = BASE.replace("lat: 48.86", "lat: 91")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "regions.paris.lat"


def test_a_unit_of_the_wrong_dimension_names_both_dimensions(tmp_path, catalog):
    text = BASE.replace("power_envelope: 20 MW", "power_envelope: 250 MWh", 1)
    problem = only_error(tmp_path, text, catalog)
    assert_names(
        problem,
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "250 MWh"),
        path="sites.fra.power_envelope",
        allowed="expected a power in MW (e.g. '10 MW'), not an energy",
        value="250 MWh",
    )


def test_a_window_starting_after_it_ends_is_refused(tmp_path, catalog):
    window = "    window: {start: 2025-01-01T12:00:00Z, end: 2025-01-01T06:00:00Z}"
    text = BASE.replace("    tp: 8", "    tp: 8\n" + window)
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "training.pretrain.window"
    assert problem.position.line == line_of(text, "window:")
    assert "window start 2025-01-01 12:00:00+00:00 must be before end 2025-01-01 06:00:00+00:00" in (
        problem.message
    )


def test_an_end_before_the_start_is_refused(tmp_path, catalog):
    text = BASE.replace("  hours: 24", "  end: 2024-12-31T00:00:00+00:00")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "time"
    assert "must be after start" in problem.message


@pytest.mark.parametrize(
    ("start", "allowed"),
    [
        ("2025-01-01T00:00:00", "needs a UTC offset, e.g. 2025-01-01T00:00:00+00:00"),
        ("2025-01-01", "needs a UTC offset"),
        ("yesterday", "expected an ISO 8601 date-time with a UTC offset"),
        ("1735689600", "not a number"),  # pydantic would read it as Unix time
    ],
)
def test_the_start_needs_a_date_time_with_an_offset(tmp_path, catalog, start, allowed):
    text = BASE.replace("2025-01-01T00:00:00+00:00", start)
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "time.start"
    assert allowed in problem.message, str(problem)
    assert problem.position.line == line_of(text, "start:")


@pytest.mark.parametrize("resolution", ["5", "1.5 h", "0.5"])
def test_the_resolution_divides_a_day_in_whole_hours(tmp_path, catalog, resolution):
    text = BASE.replace("  hours: 24", f"  hours: 24\n  resolution: {resolution}")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "time"
    assert "whole hours dividing a day" in problem.message


@pytest.mark.parametrize(
    ("aggregation", "model_steps"),
    [
        ("{typical_days: 2}", 48),  # 2 typical days of 24 hourly steps
        ("{typical_days: 2, segments: 6}", 12),
        ("{typical_days: 4}", 96),  # as many typical days as days: the plain hours
        ("{typical_days: 9, segments: 6}", 24),  # at most one typical day a day: 4 x 6
    ],
)
def test_typical_days_and_segments_set_the_models_steps(tmp_path, catalog, aggregation, model_steps):
    text = BASE.replace("  hours: 24", f"  hours: 96\n  aggregation: {aggregation}")
    assert load(tmp_path, text, catalog).time.model_steps == model_steps


def test_segments_are_at_most_the_hours_of_a_day(tmp_path, catalog):
    text = BASE.replace("  hours: 24", "  hours: 96\n  aggregation: {typical_days: 2, segments: 30}")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "time.aggregation.segments"
    assert problem.value == 30
    assert "[1, 24]" in problem.message
    assert problem.position.line == line_of(text, "aggregation:")


@pytest.mark.parametrize("field", ["segments", "typical_days"])
def test_true_is_not_a_count(tmp_path, catalog, field):
    other = {"segments": "typical_days: 2", "typical_days": "segments: 6"}[field]
    text = BASE.replace("  hours: 24", f"  hours: 96\n  aggregation: {{{other}, {field}: true}}")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == f"time.aggregation.{field}"
    assert "expected a whole number, not true" in problem.message


def test_typical_days_need_hourly_steps_and_say_so(tmp_path, catalog):
    text = BASE.replace(
        "  hours: 24", "  hours: 96\n  resolution: 2 h\n  aggregation: {typical_days: 2}"
    )
    problem = only_error(tmp_path, text, catalog)
    assert "use time.resolution 1 h, not 2 h" in problem.message


def test_a_bad_name_says_what_names_may_contain(tmp_path, catalog):
    text = BASE.replace("  ams:", "  'ams west':")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.ams west"
    assert problem.value == "ams west"
    assert "letters, digits" in problem.message


DEMAND = "chat: 1e6 token/s"
COMPUTE = "compute: 1e21 FLOP"
CHAT = "regions.paris.demand.chat"


@pytest.mark.parametrize(
    ("old", "new", "path", "message"),
    [
        ("    grid: grid_de\n", "    grid_import_limit: 5 MW\n", "sites.fra", "needs a 'grid'"),
        (DEMAND, "chat: {constant: 5, mean: 5}", CHAT, "'mean' goes with 'daily_shape' only"),
        (DEMAND, "chat: {constant: 5, column: a}", CHAT, "'csv' and 'column' go together"),
        (DEMAND, "chat: {daily_shape: [1, 2]}", CHAT, "daily_shape needs 24 values"),
        (COMPUTE, "params: 1e9", "training.pretrain", "give 'compute' or both"),
        (COMPUTE, COMPUTE + "\n    tokens: 1e12", "training.pretrain", "'tokens' needs 'params'"),
        (
            "active_params: 8e9",
            "flop_per_token: 1e9 FLOP\n    active_params: 8e9",
            "inference.chat",
            "one of",
        ),
    ],
)
def test_fields_that_go_together(tmp_path, catalog, old, new, path, message):
    text = BASE.replace(old, new, 1)
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == path
    assert message in problem.message, str(problem)


def test_a_route_takes_length_or_route_factor(tmp_path, catalog):
    route = "{sites: [fra, ams], technology: smf_800zr, length: 500 km, route_factor: 1.2}"
    route = f"links:\n  routes:\n    - {route}\n"
    problem = only_error(tmp_path, BASE + route, catalog)
    assert problem.path == "links.routes[0]"
    assert "not both" in problem.message


def test_quantities_with_units_are_converted_at_load_time(tmp_path, catalog):
    text = (
        BASE.replace("power_envelope: 20 MW", "power_envelope: 0.25 GW", 1)
        .replace("compute: 1e21 FLOP", "compute: 1.2e25 FLOP")
        .replace("sla: 30 ms", "sla: 0.015 s")
        .replace("gradient_size: 14 GB", "gradient_size: 14000 MB")
    )
    scenario = load(tmp_path, text, catalog)
    assert scenario.sites["fra"].power_envelope == pytest.approx(250.0)
    assert scenario.training["pretrain"].compute == pytest.approx(1.2e7)  # EFLOP
    # 15 ms: Paris reaches ams at 12.4 ms round trip (test_checks)
    assert scenario.inference["chat"].sla == pytest.approx(15.0)
    assert scenario.training["pretrain"].gradient_gb == pytest.approx(14.0)


def test_the_6nd_rule_and_the_defaults_derived_from_parameters():
    job = TrainingJob(params=70e9, tokens=15e12)
    assert job.compute_eflop == pytest.approx(6 * 70e9 * 15e12 / 1e18)  # 6.3e6 EFLOP
    assert job.gradient_gb == pytest.approx(140.0)  # 2 bytes (BF16) per parameter
    assert job.checkpoint_gb == pytest.approx(980.0)  # 14 bytes per parameter
    given = TrainingJob(compute="2e24 FLOP", gradient_size="10 GB")
    assert given.compute_eflop == pytest.approx(2e6)
    assert given.checkpoint_gb == 0.0


def test_cooling_kinds_set_the_pue(tmp_path, catalog):
    scenario = load(tmp_path, BASE, catalog)
    # evaporative: Google's 2023 fleet PUE; a site's own pue wins over its kind's
    assert scenario.sites["ams"].effective_pue == COOLING_PUE["evaporative"] == 1.1
    assert scenario.sites["fra"].effective_pue == 1.2
    assert scenario.sites["fra"].cooling == "evaporative"  # the default kind
    assert COOLING_PUE == {"evaporative": 1.1, "air": 1.3, "liquid": 1.14}


def test_a_kind_with_its_own_pue_and_a_site_with_neither(tmp_path, catalog):
    both = load(tmp_path, BASE.replace("    pue: 1.2\n", "    pue: 1.2\n    cooling: liquid\n"), catalog)
    assert (both.sites["fra"].cooling, both.sites["fra"].effective_pue) == ("liquid", 1.2)
    neither = load(tmp_path, BASE.replace("    pue: 1.2\n", ""), catalog)
    assert neither.sites["fra"].effective_pue == COOLING_PUE["evaporative"]


def test_an_unknown_cooling_kind_lists_the_kinds(tmp_path, catalog):
    text = BASE.replace("cooling: evaporative", "cooling: water")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.ams.cooling"
    assert "water" in str(problem)
    assert all(f"'{kind}'" in problem.message for kind in ("air", "evaporative", "liquid"))


def test_a_negative_water_cap_and_an_unknown_cooling_kind_are_one_line_each_at_once(tmp_path, catalog):
    text = BASE.replace("    pue: 1.2\n", "    pue: 1.2\n    water_cap: -5 m3/year\n").replace(
        "cooling: evaporative", "cooling: swamp"
    )
    found = errors(tmp_path, text, catalog)
    assert sorted(p.path for p in found) == ["sites.ams.cooling", "sites.fra.water_cap"]
    by_path = {p.path: p for p in found}
    assert_names(
        by_path["sites.fra.water_cap"],
        file=tmp_path / "scenario.yaml",
        line=line_of(text, "water_cap:"),
        path="sites.fra.water_cap",
        allowed="must be at least 0 m3/year",
        value="-5 m3/year",
    )
    cooling = by_path["sites.ams.cooling"]
    assert "swamp" in str(cooling) and "'evaporative'" in cooling.message
    assert all("\n" not in str(p) for p in found)  # one line each


def test_utilisation_defaults_to_080_and_reads_its_former_name(tmp_path, catalog):
    scenario = load(tmp_path, BASE, catalog)
    assert {site.utilisation for site in scenario.sites.values()} == {0.80}
    text = BASE.replace("    jurisdiction: EU", "    jurisdiction: EU\n    availability: 0.9", 1)
    assert load(tmp_path, text, catalog).sites["fra"].utilisation == 0.9


def test_utilisation_and_its_former_name_together_is_one_clear_line(tmp_path, catalog):
    text = BASE.replace(
        "    jurisdiction: EU", "    jurisdiction: EU\n    availability: 0.9\n    utilisation: 0.8", 1
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra"
    assert "give 'utilisation' or its former name 'availability', not both" in problem.message
