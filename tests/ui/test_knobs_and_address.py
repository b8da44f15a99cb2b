"""Knob values from overrides and back, run labels that say the changes, page addresses,
upload names (plain Python, no streamlit session)."""

from __future__ import annotations

import pytest

from geomodel.scenario import Problem, ScenarioError
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


@pytest.fixture(scope="module")
def plan_small(catalog):
    return load_recipe(Recipe("bundled", "plan-small.yaml"), catalog, scenarios_dir())


def test_a_plan_has_planning_knobs_and_a_dispatch_scenario_has_none(plan_small, quickstart):
    values = knobs.defaults(plan_small, CAP)
    # as plan-small.yaml gives them: finance.discount_rate, and each site's build maxima
    assert values.discount_rate == 0.07
    assert values.envelope_caps == {"abilene": 300.0, "the_dalles": 150.0}
    assert values.system_caps == {"abilene": {"gb200_nvl72": 1000}, "the_dalles": {"gb200_nvl72": 800}}
    plain = knobs.defaults(quickstart, CAP)
    assert plain.discount_rate is None and not plain.envelope_caps and not plain.system_caps


def test_planning_knobs_become_overrides_and_come_back(plan_small):
    values = knobs.defaults(plan_small, CAP)
    values.discount_rate = 0.1
    values.envelope_caps["abilene"] = 250.0
    values.system_caps["the_dalles"]["gb200_nvl72"] = 400
    written = knobs.overrides(plan_small, values, CAP)
    assert written == {
        "finance.discount_rate": 0.1,
        "sites.abilene.build.power_envelope.max": 250.0,
        "sites.the_dalles.build.systems.gb200_nvl72.max": 400,
    }
    again, ignored = knobs.values_from_overrides(plan_small, written, CAP)
    assert ignored == [] and again == values
    # a build field no knob writes, or a site or system without a build option, is set apart
    _, ignored = knobs.values_from_overrides(
        plan_small,
        {
            "sites.council_bluffs.build.power_envelope.max": 120.0,
            "sites.abilene.build.systems.gb200_nvl72.capex": 1.0,
            "sites.abilene.build.systems.hgx_h100_8.max": 10,
        },
        CAP,
    )
    assert len(ignored) == 3
    assert describe_overrides(written) == [
        "discount_rate=0.1",
        "abilene.max MW=250",
        "the_dalles.max gb200_nvl72=400",
    ]


@pytest.mark.parametrize(
    ("path", "section"),
    [
        ("finance.discount_rate", "planning"),
        ("finance.lifetimes.solar", "planning"),
        ("sites.a.build.systems.gb200_nvl72.max", "planning"),
        ("sites.a.build", "planning"),
        ("links.candidates[0].sites[1]", "planning"),
        ("links.mesh.technology", "links"),
        ("sites.a.power_envelope", "sites"),
        ("sites.build.systems", "sites"),  # a site named "build"
        ("training.pretrain.compute", knobs.OTHER),
    ],
)
def test_planning_problems_go_under_planning(path, section):
    assert knobs.section_of(Problem(path, "bad")) == section
