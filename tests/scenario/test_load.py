"""load_scenario: variants, --set overrides, the scenario hash, text input."""

from __future__ import annotations

import pytest

from geomodel.scenario import ScenarioError, load_scenario, load_scenario_text
from geomodel.scenario.load import SetOptions, parse_overrides
from geomodel.scenario.problems import Position

from .conftest import BASE, errors, line_of, load, problems, write

VARIANTS = """\
variants:
  cheap_carbon:
    objective: {carbon_price: 20 USD/tCO2, latency_weight: 1}
  dear_carbon:
    objective: {carbon_price: 200 USD/tCO2}
    training:
      pretrain: {sites: [ams]}
  more_h100:
    sites:
      fra:
        systems: {hgx_h100_8: 150}
"""


def test_variants_deep_merge_in_the_order_given(tmp_path, catalog):
    text = BASE.replace("    tp: 8", "    tp: 8\n    sites: [fra, ams]") + VARIANTS
    one = load(tmp_path, text, catalog, variants=["cheap_carbon", "dear_carbon"])
    # Mappings merge: the latency weight of the first survives the second.
    assert one.objective.carbon_price == 200.0
    assert one.objective.latency_weight == 1.0
    # Lists replace: the job's sites are the variant's list, not a union.
    assert one.training["pretrain"].sites == ["ams"]
    # The rest of the job is untouched.
    assert one.training["pretrain"].tp == 8
    other = load(tmp_path, text, catalog, variants=["dear_carbon", "cheap_carbon"])
    assert other.objective.carbon_price == 20.0  # the last variant wins
    assert other.origin.variants == ("dear_carbon", "cheap_carbon")


def test_a_variant_merges_into_a_nested_mapping(tmp_path, catalog):
    text = BASE.replace("systems: {hgx_h100_8: 100}", "systems: {hgx_h100_8: 100, hgx_h200_8: 5}")
    scenario = load(tmp_path, text + VARIANTS, catalog, variants=["more_h100"])
    assert scenario.sites["fra"].systems == {"hgx_h100_8": 150, "hgx_h200_8": 5}
    assert scenario.sites["fra"].pue == 1.2


def test_an_unknown_variant_lists_the_known_ones(tmp_path, catalog):
    text = BASE + VARIANTS
    found = problems(tmp_path, text, catalog, variants=["cheap_carbon", "nope", "cheap"])
    assert [str(p) for p in found] == [
        f"{tmp_path / 'scenario.yaml'}:{line_of(text, 'variants:')}: variants: unknown variant "
        f"{name!r}; known variants: cheap_carbon, dear_carbon, more_h100"
        for name in ("nope", "cheap")
    ]


def test_asking_for_a_variant_when_none_is_defined(tmp_path, catalog):
    (problem,) = problems(tmp_path, BASE, catalog, variants=["x"])
    assert "unknown variant 'x'; known variants: none defined" in problem.message


def test_a_problem_in_an_applied_variant_names_the_variant_line(tmp_path, catalog):
    text = BASE + "variants:\n  bad:\n    objective: {carbon_price: -5}\n"
    (problem,) = errors(tmp_path, text, catalog, variants=["bad"])
    assert problem.path == "objective.carbon_price"
    assert problem.position == Position(str(tmp_path / "scenario.yaml"), line_of(text, "-5"))


def test_a_variant_that_is_not_a_mapping(tmp_path, catalog):
    text = BASE + "variants:\n  bad: 5\n"
    (problem,) = errors(tmp_path, text, catalog, variants=["bad"])
    assert problem.path == "variants.bad"
    assert "must be a mapping" in problem.message


def test_variants_not_applied_are_still_checked_and_warned_about(tmp_path, catalog):
    text = BASE + (
        "variants:\n"
        "  typo:\n    objective: {carbon_prize: 5}\n"
        "  renamed:\n    sites: {fra: {systems: {hgx_h10: 3}}}\n"
        "  fine:\n    objective: {carbon_price: 5}\n"
    )
    scenario = load(tmp_path, text, catalog)
    warnings = scenario.origin.warnings
    assert [(w.severity, w.path, w.position.line) for w in warnings] == [
        ("warning", "objective.carbon_prize", line_of(text, "carbon_prize")),
        ("warning", "sites.fra.systems.hgx_h10", line_of(text, "hgx_h10: 3")),
    ]
    assert warnings[0].message == "with variant 'typo': unknown field; did you mean 'carbon_price'?"
    assert "with variant 'renamed': unknown hardware system 'hgx_h10'" in warnings[1].message
    # Applied, the same variant is an error.
    (problem,) = errors(tmp_path, text, catalog, variants=["typo"])
    assert problem.message == "unknown field; did you mean 'carbon_price'?"


def test_set_values_are_parsed_as_yaml(tmp_path, catalog):
    overrides = [
        "objective.carbon_price=50",
        "objective.unserved_penalty=2 USD/ktoken",
        "training.pretrain.sites=[ams]",
        "sites.fra.systems={hgx_h200_8: 5}",
        "solver.integer.dp_replicas=true",
        "name='2025'",
    ]
    scenario = load(tmp_path, BASE, catalog, overrides=overrides)
    assert scenario.objective.carbon_price == 50.0
    assert scenario.objective.unserved_penalty == pytest.approx(2000.0)  # USD/Mtoken
    assert scenario.training["pretrain"].sites == ["ams"]
    assert scenario.sites["fra"].systems == {"hgx_h100_8": 100, "hgx_h200_8": 5}  # merged
    assert scenario.solver.integer.dp_replicas is True
    assert scenario.name == "2025"
    assert parse_overrides(["description="]) == {"description": None}


def test_set_applies_after_the_variants(tmp_path, catalog):
    scenario = load(
        tmp_path,
        BASE + VARIANTS,
        catalog,
        variants=["dear_carbon"],
        overrides={"objective.carbon_price": 7},
    )
    assert scenario.objective.carbon_price == 7.0
    assert scenario.origin.overrides == {"objective.carbon_price": 7}


def test_every_bad_set_is_reported_at_once_by_its_text(tmp_path, catalog):
    found = problems(
        tmp_path, BASE, catalog, overrides=SetOptions(["solver.threads=[1", "nothing", "a..b=1"])
    )
    assert [(str(p.position), p.path) for p in found] == [
        ("--set solver.threads=[1", "solver.threads"),
        ("--set nothing", ""),
        ("--set a..b=1", ""),
    ]
    assert "YAML syntax error" in found[0].message
    assert found[1].message == "expected path.to.field=value"


def test_a_bad_value_given_with_set_names_the_option(tmp_path, catalog):
    found = errors(
        tmp_path, BASE, catalog, overrides=SetOptions(["objective.carbon_price=-1", "solver.thread=2"])
    )
    assert [str(p) for p in found] == [
        "--set objective.carbon_price: objective.carbon_price: must be at least 0 USD/tCO2 (got -1)",
        "--set solver.thread: solver.thread: unknown field; did you mean 'threads'?",
    ]


def hash_of(folder, text, catalog, **kwargs) -> str:
    return load(folder, text, catalog, **kwargs).origin.scenario_hash


def test_the_hash_ignores_order_comments_spelling_of_units_and_unused_variants(tmp_path, catalog):
    base = hash_of(tmp_path, BASE, catalog)
    assert len(base) == 64
    lines = BASE.splitlines(keepends=True)
    sites_at, regions_at = line_of(BASE, "sites:"), line_of(BASE, "regions:")
    sites = lines[sites_at - 1 : regions_at - 1]
    reordered = "# a comment\n" + "".join(lines[regions_at - 1 :] + sites + lines[: sites_at - 1])
    reordered = reordered.replace("20 MW", "0.02 GW  # same power", 1)
    reordered += "variants:\n  unused: {objective: {carbon_price: 1}}\n"
    assert hash_of(tmp_path, reordered, catalog) == base


def test_the_hash_changes_with_a_value_a_variant_or_a_referenced_file(tmp_path, catalog):
    base = hash_of(tmp_path, BASE, catalog)
    assert hash_of(tmp_path, BASE.replace("pue: 1.2", "pue: 1.25"), catalog) != base
    with_variant = BASE + VARIANTS
    assert hash_of(tmp_path, with_variant, catalog) == base
    applied = hash_of(tmp_path, with_variant, catalog, variants=["cheap_carbon"])
    assert applied != base
    changed = with_variant.replace("carbon_price: 20 USD/tCO2", "carbon_price: 21 USD/tCO2")
    assert hash_of(tmp_path, changed, catalog, variants=["cheap_carbon"]) != applied
    assert hash_of(tmp_path, BASE, catalog, overrides=["objective.carbon_price=3"]) != base

    csv = "time,v\n" + "".join(f"2025-01-01T{h:02d}:00:00+00:00,1000\n" for h in range(24))
    write(tmp_path, "d.csv", csv)
    text = BASE.replace("chat: 1e6 token/s", "chat: {csv: d.csv, column: v}")
    before = hash_of(tmp_path, text, catalog)
    write(tmp_path, "d.csv", csv + "2025-01-02T00:00:00+00:00,1000\n")  # a row past the horizon
    assert hash_of(tmp_path, text, catalog) != before


def test_load_scenario_text_reads_files_inside_its_folder(tmp_path, catalog):
    csv = "time,v\n" + "".join(f"2025-01-01T{h:02d}:00:00+00:00,1000\n" for h in range(24))
    write(tmp_path, "d.csv", csv)
    text = BASE.replace("chat: 1e6 token/s", "chat: {csv: d.csv, column: v}")
    scenario = load_scenario_text(text, tmp_path, label="upload.yaml", catalog=catalog)
    assert scenario.origin.path is None
    assert scenario.origin.demand_series[("paris", "chat")].iloc[0] == 1000.0
    assert scenario.origin.scenario_hash == load(tmp_path, text, catalog).origin.scenario_hash


def test_load_scenario_text_refuses_imports(tmp_path, catalog):
    write(tmp_path, "other.yaml", "name: x\n")
    with pytest.raises(ScenarioError) as raised:
        load_scenario_text("import: other.yaml\n" + BASE, tmp_path, catalog=catalog)
    (problem,) = raised.value.problems
    assert problem.path == "import"
    assert problem.message == "imports are not allowed in text input"
    assert problem.position == Position("<uploaded>", 1)


def test_load_scenario_text_refuses_paths_escaping_its_folder(tmp_path, catalog):
    write(tmp_path, "secret.csv", "time,v\n")
    text = BASE.replace("chat: 1e6 token/s", "chat: {csv: ../secret.csv, column: v}")
    with pytest.raises(ScenarioError) as raised:
        load_scenario_text(text, tmp_path / "uploads", label="upload.yaml", catalog=catalog)
    (problem,) = raised.value.problems
    assert problem.path == "regions.paris.demand.chat.csv"
    assert "escapes the scenario's folder" in problem.message
    assert problem.position == Position("upload.yaml", line_of(text, "../secret.csv"))


def test_the_python_api_takes_set_strings_or_a_mapping(tmp_path, catalog):
    path = write(tmp_path, "scenario.yaml", BASE)
    as_strings = load_scenario(path, overrides=["objective.carbon_price=9"], catalog=catalog)
    as_mapping = load_scenario(path, overrides={"objective.carbon_price": 9}, catalog=catalog)
    assert as_strings.objective.carbon_price == as_mapping.objective.carbon_price == 9.0
    assert as_strings.origin.scenario_hash == as_mapping.origin.scenario_hash


def test_variant_warnings_wait_until_the_base_is_valid(tmp_path, catalog):
    text = BASE.replace("{hgx_h100_8: 100}", "{hgx_h10: 100}") + VARIANTS
    found = problems(tmp_path, text, catalog)
    assert [p.severity for p in found] == ["error"]  # no copy per variant as warnings


def test_set_does_not_take_over_the_lines_of_the_sections_it_passes(tmp_path, catalog):
    text = BASE.replace("    power_envelope: 20 MW\n", "", 1)
    (problem,) = errors(tmp_path, text, catalog, overrides=["sites.fra.pue=1.3"])
    assert problem.path == "sites.fra.power_envelope"
    assert problem.position == Position(str(tmp_path / "scenario.yaml"), line_of(text, "  fra:"))
    (added,) = errors(tmp_path, BASE, catalog, overrides=SetOptions(["sites.new.pue=1.3"]))
    assert str(added.position) == "--set sites.new.pue"


# --- issue 13, items 15 and 17: overrides of things that do not exist, in the API's words ---


def test_a_set_into_a_site_that_does_not_exist_says_so_once(tmp_path, catalog):
    """Before: four 'required field is missing' lines (lat, lon, power_envelope, systems)."""
    (problem,) = errors(tmp_path, BASE, catalog, overrides=SetOptions(["sites.nowhere.pue=1.2"]))
    assert str(problem.position) == "--set sites.nowhere.pue"
    assert problem.path == "sites.nowhere"
    assert problem.message.startswith("unknown site 'nowhere' (known: fra, ams)")
    (typo,) = errors(tmp_path, BASE, catalog, overrides=SetOptions(["training.pretrian.tp=4"]))
    assert typo.message.startswith("unknown training job 'pretrian'; did you mean 'pretrain'?")


def test_other_problems_of_the_overrides_come_with_it(tmp_path, catalog):
    found = errors(
        tmp_path, BASE, catalog, overrides=SetOptions(["sites.nowhere.pue=1.2", "sites.fra.pue=0.5"])
    )
    assert [p.path for p in found] == ["sites.nowhere", "sites.fra.pue"]


def test_a_whole_new_site_may_still_be_added(tmp_path, catalog):
    new = (
        "{lat: 48.0, lon: 11.0, grid: grid_de, power_envelope: 5 MW, pue: 1.3, "
        "systems: {hgx_h100_8: 10}}"
    )
    scenario = load(tmp_path, BASE, catalog, overrides=SetOptions([f"sites.muc={new}"]))
    assert scenario.sites["muc"].power_envelope == 5.0


def test_api_overrides_are_named_as_the_argument_not_as_set(tmp_path, catalog):
    (by_mapping,) = errors(tmp_path, BASE, catalog, overrides={"objective.carbon_price": -1})
    assert str(by_mapping).startswith(
        "overrides['objective.carbon_price']: objective.carbon_price: must be at least 0"
    )
    (by_list,) = errors(tmp_path, BASE, catalog, overrides=["objective.carbon_price=-1"])
    assert str(by_list.position) == "overrides['objective.carbon_price']"
    with pytest.raises(ScenarioError) as raised:
        load(tmp_path, BASE, catalog, overrides=["nothing"])
    assert str(raised.value).splitlines() == [
        "overrides: 1 problem found",
        "  overrides item 'nothing': expected path.to.field=value",
    ]
    assert "--set" not in str(raised.value)


def test_a_set_mapping_names_the_option_for_every_field_inside_it(tmp_path, catalog):
    (problem,) = errors(
        tmp_path, BASE, catalog, overrides=SetOptions(["sites.fra.systems={hgx_h100_8: true}"])
    )
    assert str(problem) == (
        "--set sites.fra.systems: sites.fra.systems.hgx_h100_8: expected a whole number, "
        "not true (got True)"
    )


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("2025-02-29T00:00:00-05:00", "February 2025 has 28 days, not 29"),
        ("2025-01-01T00:00:00-25:00", "a UTC offset of -25:00 is beyond what a clock can show"),
        ("2025-13-01T00:00:00+00:00", "there is no month 13 (1-12)"),
        ("2025-01-01T25:00:00+00:00", "there is no hour 25 (0-23)"),
    ],
)
def test_a_date_time_no_calendar_has_is_one_line_in_yaml_and_in_set(tmp_path, catalog, written, reason):
    # issue 24, item 13: unquoted YAML timestamps went to the YAML library, which raised
    # ValueError (exit 3, "Internal error"); now the schema reports them with the line
    rule = "time.start: expected an ISO 8601 date-time with a UTC offset, e.g. 2025-01-01T00:00:00+00:00"
    text = BASE.replace("start: 2025-01-01T00:00:00+00:00", f"start: {written}")
    (problem,) = errors(tmp_path, text, catalog)
    assert str(problem).startswith(f"{tmp_path / 'scenario.yaml'}:3: {rule}; {reason}")
    assert str(problem).endswith(f"(got '{written}')")
    (from_set,) = problems(tmp_path, BASE, catalog, overrides=SetOptions([f"time.start={written}"]))
    assert str(from_set).startswith(f"--set time.start: {rule}; {reason}")


def test_a_variant_asked_for_twice_is_applied_once_with_a_warning(tmp_path, catalog):
    # issue 24, item 14: `--variant v --variant v` passed silently
    text = BASE + VARIANTS
    scenario = load(tmp_path, text, catalog, variants=["cheap_carbon", "cheap_carbon"])
    assert scenario.origin.variants == ("cheap_carbon",)
    (warning,) = [str(w) for w in scenario.origin.warnings if "asked for" in str(w)]
    line = line_of(text, "cheap_carbon:")
    assert warning == (
        f"{tmp_path / 'scenario.yaml'}:{line}: warning: variants.cheap_carbon: variant "
        "'cheap_carbon' is asked for 2 times; applied once, where first given"
    )


def test_a_start_year_far_from_the_data_is_a_named_warning(tmp_path, catalog):
    # issue 24, item 14: a start in 1899 (a typo for 2025?) ran on the 2020s' figures silently
    text = BASE.replace("start: 2025-01-01T00:00:00+00:00", "start: 1899-01-01T00:00:00+00:00")
    (warning,) = [str(w) for w in load(tmp_path, text, catalog).origin.warnings]
    assert warning.startswith(
        f"{tmp_path / 'scenario.yaml'}:3: warning: time.start: the year 1899 lies outside 2000-2100"
    )


@pytest.mark.parametrize("path", ["training.pretrain.sites.0", "training.pretrain.sites[0]"])
def test_set_on_a_list_item_says_lists_are_replaced_whole(tmp_path, catalog, path):
    # issue 24, item 15: was "must be a list" at the list's line, or "unknown field"
    text = BASE.replace("    tp: 8", "    tp: 8\n    sites: [fra, ams]")
    (problem,) = problems(tmp_path, text, catalog, overrides=SetOptions([f"{path}=ams"]))
    assert str(problem) == (
        f"--set {path}: training.pretrain.sites: is a list, and an override replaces a list "
        "whole: give all of it (training.pretrain.sites=[...]) or edit the item in the file"
    )
    whole = load(tmp_path, text, catalog, overrides=SetOptions(["training.pretrain.sites=[ams]"]))
    assert whole.training["pretrain"].sites == ["ams"]
