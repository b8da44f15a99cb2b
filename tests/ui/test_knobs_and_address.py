"""Knob values from overrides and back, run labels that say the changes, page addresses,
upload names (plain Python, no streamlit session)."""

from __future__ import annotations

import pytest

from geomodel.scenario import ScenarioError
from geomodel.ui import knobs
from geomodel.ui.paths import scenarios_dir
from geomodel.ui.recipe import (
    Recipe,
    address_params,
    describe_overrides,
    from_address,
    load_recipe,
    upload_label,
    upload_text,
)

CAP = 600.0


@pytest.fixture(scope="module")
def quickstart(catalog):
    return load_recipe(Recipe("bundled", "quickstart.yaml"), catalog, scenarios_dir())


def test_knob_values_come_back_from_their_overrides(quickstart):
    values = knobs.defaults(quickstart, CAP)
    values.hours, values.carbon_price, values.latency_weight = 24, 50.0, 0.0002
    values.technology, values.demand_scale, values.time_limit = "hcf_800zr", 1.5, 60.0
    values.envelopes["ashburn"] = 80.0
    values.systems["abilene"]["gb200_nvl72"] = 300
    written = knobs.overrides(quickstart, values, CAP)
    again, ignored = knobs.values_from_overrides(quickstart, written, CAP)
    assert ignored == []
    assert again == values


def test_overrides_no_knob_writes_are_set_apart(quickstart):
    found = {
        "objective.carbon_price": 10.0,
        "training.pretrain.work": "1 ZFLOP",  # no knob
        "sites.nowhere.power_envelope": 5.0,  # no such site
        "regions.dallas.demand.chat.scale": 2.0,  # one demand only: not the scale knob
        "time.hours": "many",  # not a number
    }
    values, ignored = knobs.values_from_overrides(quickstart, found, CAP)
    assert values.carbon_price == 10.0 and values.demand_scale == 1.0
    assert sorted(ignored) == sorted(
        [
            "training.pretrain.work",
            "sites.nowhere.power_envelope",
            "time.hours",
            "regions.dallas.demand.chat.scale",
        ]
    )


def test_labels_say_which_changes():
    overrides = {
        "objective.carbon_price": 50.0,
        "time.hours": 24,
        "time.end": None,
        "sites.abilene.systems.gb200_nvl72": 300,
        "sites.ashburn.power_envelope": 80.0,
        "regions.dallas.demand.chat.scale": 1.5,
        "regions.new_york.demand.chat.scale": 1.5,
    }
    assert describe_overrides(overrides) == [
        "carbon_price=50",
        "hours=24",
        "abilene.gb200_nvl72=300",
        "ashburn.power_envelope=80",
        "demand scale=1.5",
    ]
    recipe = Recipe("bundled", "quickstart.yaml", variants=("tight_sla",)).with_overrides(overrides)
    assert recipe.label() == (
        "quickstart.yaml + tight_sla · carbon_price=50, abilene.gb200_nvl72=300, "
        "ashburn.power_envelope=80, hours=24 (+1 more)"
    )  # a recipe keeps its overrides sorted by path; the demand scale comes last
    assert Recipe("bundled", "quickstart.yaml").label() == "quickstart.yaml"


def test_a_recipe_goes_through_the_address_and_back():
    recipe = Recipe("bundled", "europe-nordics.yaml", variants=("eu_only",)).with_overrides(
        {"objective.carbon_price": 50.0, "links.mesh.technology": "hcf_800zr", "time.end": None}
    )
    params = address_params(recipe)
    assert params["set"] == [
        'links.mesh.technology="hcf_800zr"',
        "objective.carbon_price=50.0",
        "time.end=null",
    ]
    back, found, unread = from_address(params)
    assert back == Recipe("bundled", "europe-nordics.yaml", variants=("eu_only",))
    assert back.with_overrides(found) == recipe and unread == []
    assert address_params(Recipe("upload", "x.yaml", "name: x")) == {}
    _, found, unread = from_address({"scenario": ["q.yaml"], "set": ["a=1", "oops", "b={"]})
    assert found == {"a": 1} and unread == ["oops", "b={"]


@pytest.mark.parametrize("name", ["../../etc/passwd", "passwd", "scenario.yaml.exe", "x.json"])
def test_an_upload_must_be_named_yaml(name):
    with pytest.raises(ScenarioError) as raised:
        upload_text(name, b"name: x\n")
    (problem,) = raised.value.problems
    assert problem.message == f"a scenario is a YAML file named *.yaml or *.yml (got {name!r})"
    assert problem.position.file == upload_label(name)
    assert "/" not in upload_label(name)


def test_upload_labels_keep_the_last_part_of_the_name():
    assert upload_label("../../etc/passwd") == "passwd"
    assert upload_label("C:\\Users\\me\\plan.yaml") == "plan.yaml"
    assert upload_label("plan.YML") == "plan.YML"
    assert upload_text("plan.YML", b"name: x\n") == "name: x\n"
