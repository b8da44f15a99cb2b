"""The app's plain-Python parts: knobs to overrides, recipes, uploads, formatting, the
Pareto filter and the map's frames (no streamlit session needed)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geomodel.results.kpis import KPI_SPECS
from geomodel.scenario import ScenarioError
from geomodel.scenario.load import load_scenario_text
from geomodel.ui import knobs
from geomodel.ui.components.charts import pareto_mask
from geomodel.ui.components.deck import link_frame, region_frame, scenario_deck, site_frame
from geomodel.ui.format import KPI_NAMES, format_kpi, format_number, kpi_label
from geomodel.ui.paths import MAX_UPLOAD_BYTES, bundled_scenarios, scenarios_dir
from geomodel.ui.recipe import Recipe, load_recipe, resolved_yaml, upload_text, variants_defined

CAP = 600.0


@pytest.fixture(scope="module")
def quickstart(catalog):
    return load_recipe(Recipe("bundled", "quickstart.yaml"), catalog, scenarios_dir())


def test_bundled_scenarios_start_with_the_quickstart():
    names = bundled_scenarios()
    assert names[0] == "quickstart.yaml"
    assert "us-100k-gpu.yaml" in names


def test_untouched_knobs_are_no_overrides(quickstart):
    assert knobs.overrides(quickstart, knobs.defaults(quickstart, CAP), CAP) == {}


def test_changed_knobs_become_set_overrides(quickstart, catalog):
    values = knobs.defaults(quickstart, CAP)
    values.carbon_price = 50.0
    values.hours = 24
    values.technology = "hcf_800zr"
    values.envelopes["ashburn"] = 80.0
    values.systems["abilene"]["gb200_nvl72"] = 300
    found = knobs.overrides(quickstart, values, CAP)
    assert found == {
        "objective.carbon_price": 50.0,
        "time.hours": 24,
        "links.mesh.technology": "hcf_800zr",
        "sites.ashburn.power_envelope": 80.0,
        "sites.abilene.systems.gb200_nvl72": 300,
    }
    recipe = Recipe("bundled", "quickstart.yaml").with_overrides(found)
    changed = load_recipe(recipe, catalog, scenarios_dir())
    assert changed.objective.carbon_price == 50.0
    assert changed.sites["abilene"].systems["gb200_nvl72"] == 300
    assert "--set objective.carbon_price=50.0" in recipe.command()


def test_demand_scale_applies_to_a_bare_quantity_too(quickstart, catalog):
    values = knobs.defaults(quickstart, CAP)
    values.demand_scale = 2.0
    found = knobs.overrides(quickstart, values, CAP)
    assert found["regions.dallas.demand.chat.scale"] == 2.0  # written "chat: 6e6 token/s"
    assert found["regions.new_york.demand.chat.scale"] == 2.0
    scaled = load_recipe(
        Recipe("bundled", "quickstart.yaml").with_overrides(found), catalog, scenarios_dir()
    )
    assert scaled.regions["dallas"].demand["chat"].scale == 2.0
    base = quickstart.origin.demand_series[("dallas", "chat")]
    assert np.allclose(scaled.origin.demand_series[("dallas", "chat")], 2 * base)


def test_time_limit_is_capped(quickstart):
    values = knobs.defaults(quickstart, 60.0)
    assert values.time_limit == 60.0
    assert knobs.overrides(quickstart, values, 60.0) == {"solver.time_limit": 60.0}


def test_problems_group_by_knob_section(catalog):
    text = (scenarios_dir() / "quickstart.yaml").read_text()
    text = text.replace("power_envelope: 60 MW", "power_envelope: -60 MW").replace(
        "sla: 35 ms", "sla: soon"
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, scenarios_dir(), "mine.yaml", catalog=catalog)
    groups = knobs.group_by_section(caught.value.problems)
    assert [p.path for p in groups["sites"]] == ["sites.ashburn.power_envelope"]
    assert [p.path for p in groups[knobs.OTHER]] == ["inference.chat.sla"]
    assert str(groups["sites"][0]).startswith("mine.yaml:")


def test_resolved_yaml_loads_to_the_same_scenario(catalog):
    recipe = Recipe("bundled", "quickstart.yaml", variants=("carbon_price_100",)).with_overrides(
        {"time.hours": 24, "sites.ashburn.power_envelope": 70.0}
    )
    scenario = load_recipe(recipe, catalog, scenarios_dir())
    text = resolved_yaml(scenario, recipe)
    again = load_scenario_text(text, scenarios_dir(), "resolved.yaml", catalog=catalog)
    assert again.origin.scenario_hash == scenario.origin.scenario_hash
    assert "variants:" not in text
    assert scenario.origin.scenario_hash in text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: x\nfoo: !!python/object/apply:os.system ['true']\n", "tag"),
        ("import: quickstart.yaml\nname: x\n", "imports are not allowed"),
        ("name: [unclosed\n", ""),
    ],
)
def test_uploads_are_parsed_safely(catalog, text, expected):
    with pytest.raises(ScenarioError) as caught:
        load_recipe(Recipe("upload", "up.yaml", text), catalog, scenarios_dir())
    assert expected in str(caught.value)


def test_uploads_read_files_only_from_the_bundled_folder(catalog):
    text = (scenarios_dir() / "europe-nordics.yaml").read_text()
    assert "csv: data/europe-chat-demand.csv" in text
    ok = load_recipe(Recipe("upload", "up.yaml", text), catalog, scenarios_dir())
    assert ok.origin.referenced_files
    outside = text.replace("csv: data/europe-chat-demand.csv", "csv: ../../../etc/passwd", 1)
    with pytest.raises(ScenarioError) as caught:
        load_recipe(Recipe("upload", "up.yaml", outside), catalog, scenarios_dir())
    assert "csv" in str(caught.value)


def test_upload_size_and_encoding_are_checked():
    assert upload_text("a.yaml", b"name: x\n") == "name: x\n"
    with pytest.raises(ScenarioError, match="at most"):
        upload_text("a.yaml", b"#" * (MAX_UPLOAD_BYTES + 1))
    with pytest.raises(ScenarioError, match="UTF-8"):
        upload_text("a.yaml", b"\xff\xfe")


def test_variants_are_listed_without_validating():
    assert variants_defined(Recipe("bundled", "quickstart.yaml"), scenarios_dir()) == [
        "carbon_price_100",
        "tight_sla",
    ]
    assert variants_defined(Recipe("upload", "x.yaml", "name: [bad"), scenarios_dir()) == []


def test_recipe_round_trips_through_a_dict():
    recipe = Recipe("upload", "x.yaml", "name: x", ("a",), json.dumps({"b": 1}))
    assert Recipe.from_dict(recipe.as_dict()) == recipe


def test_kpi_format():
    assert kpi_label("cost_usd") == "Energy cost (USD)"
    assert kpi_label("renewable_share") == "Renewables (%)"
    assert format_kpi("renewable_share", 0.76543) == "76.54"
    assert format_kpi("cost_usd", 171834.52) == "171,835"
    assert format_kpi("latency_ms_mean", float("nan")) == "-"
    assert format_kpi("latency_ms_mean", None) == "-"
    assert format_number(0.0004) == "4.00e-04"


def test_every_kpi_has_a_name_in_words():
    """A KPI the library adds must get a planner's name here (the fallback would show
    its snake_case name with a capital letter, issue 23 item 7)."""
    assert [name for name in KPI_SPECS if name not in KPI_NAMES] == []
    assert kpi_label("water_m3") == "Water used (m3)"
    assert kpi_label("chip_utilisation") == "Chip utilisation (%)"
    # the LP relaxation's KPIs (issue 22): a share, a cost, a time and a word
    assert kpi_label("relaxation_gap") == "Gap to the LP relaxation (%)"
    assert kpi_label("relaxation_objective") == "Objective of the LP relaxation (USD)"
    assert kpi_label("relaxation_seconds") == "LP relaxation time (s)"
    assert kpi_label("participation") == "Site use of synchronous jobs solved as"


def test_pareto_mask_keeps_the_non_dominated_points():
    x = np.array([1.0, 2.0, 3.0, 2.5, np.nan])
    y = np.array([5.0, 3.0, 1.0, 4.0, 0.0])
    assert pareto_mask(x, y).tolist() == [True, True, True, False, False]
    assert pareto_mask(x, y, maximise_y=True).tolist() == [True, False, False, False, False]


def test_map_frames_and_deck(quickstart, catalog):
    from geomodel.inputs.build import build_inputs

    inputs = build_inputs(quickstart, catalog)
    sites = site_frame(inputs)
    assert sites["site"].tolist() == ["abilene", "council_bluffs", "ashburn"]
    assert sites.loc[0, "chips"] == 43_200
    assert region_frame(inputs)["region"].tolist() == ["new_york", "chicago", "dallas"]
    assert set(link_frame(inputs)["technology"]) == {"smf_800zr"}
    deck = json.loads(scenario_deck(inputs, "mw", "technology").deck.to_json())
    assert deck["mapStyle"].startswith("data:application/json")  # no basemap download
    layers = {layer.get("id"): layer for layer in deck["layers"]}
    assert layers["sites"]["radiusUnits"] == "pixels"
    assert "abilene" in json.dumps(layers["sites"]["data"])
