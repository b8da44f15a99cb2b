"""The ``extensions`` section: whose settings they are, and whether they hold (issue 24).

Items 1 and 7: settings no loaded plugin takes were ignored (the plan solved without
them); a plugin's own settings had no schema, units or line numbers. Item 6: a plugin's
scenario problems were all reported at the top of the file.
"""

from __future__ import annotations

import json

import pytest
from plugin_fixtures import settings_plugins as fixtures

from geomodel.catalog import build_catalog
from geomodel.errors import ScenarioError
from geomodel.inputs.build import build_inputs
from geomodel.scenario import load_scenario_text
from geomodel.testing import MINIMAL_PLUGINS, minimal_scenario, plugin_host

BATTERY = {"sites": {"site_a": {"energy": "0.2 MWh", "power": "0.1 MW"}}}


def yaml_text(data: dict) -> str:
    from io import StringIO

    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    out = StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def catalog_with(*plugins):
    return build_catalog(plugin_host(*MINIMAL_PLUGINS, *plugins))


def problems(text: str, catalog) -> list[str]:
    with pytest.raises(ScenarioError) as raised:
        load_scenario_text(text, ".", label="s.yaml", catalog=catalog)
    return [str(p) for p in raised.value.problems]


def test_a_misspelt_extension_is_an_error_at_its_line_naming_the_closest_plugin():
    text = yaml_text(minimal_scenario(extensions={"batery": BATTERY}))
    (found,) = problems(text, catalog_with("battery"))
    assert found == (
        f"s.yaml:{line_of(text, 'batery:')}: extensions.batery: no loaded plugin named 'batery' "
        "takes settings, so these settings would be ignored and the plan solved without them; "
        "did you mean 'battery'? (plugins that take settings: battery; see `geomodel plugins`)"
    )


def test_settings_for_a_plugin_that_is_not_loaded_are_an_error():
    """Before: validate exited 0 and the plan was solved without a battery."""
    text = yaml_text(minimal_scenario(extensions={"battery": BATTERY}))
    (found,) = problems(text, catalog_with())  # no battery plugin in this catalogue
    assert "extensions.battery: no loaded plugin named 'battery' takes settings" in found
    assert "(plugins that take settings: none;" in found


def test_settings_for_a_plugin_that_takes_none_are_an_error():
    text = yaml_text(minimal_scenario(extensions={"hw": {"x": 1}}))
    (found,) = problems(text, catalog_with(("hw", fixtures.OnlyHardware())))
    assert "extensions.hw: plugin 'hw' takes no settings (it implements none of" in found


def test_declared_settings_are_validated_with_units_defaults_and_the_scenarios_sites():
    settings = {"sites": {"site_a": {"energy": "0.5 GWh"}, "site_z": {"energy": 1, "eff": 2}}}
    text = yaml_text(minimal_scenario(extensions={"store": settings}))
    found = problems(text, catalog_with(("store", fixtures.Declared())))
    assert found == [
        f"s.yaml:{line_of(text, 'site_z:')}: extensions.store.sites.site_z: unknown site "
        "'site_z'; did you mean 'site_a'? (known sites: site_a) (got 'site_z')",
        f"s.yaml:{line_of(text, 'eff:')}: extensions.store.sites.site_z.eff: unknown field; "
        "did you mean 'efficiency'?",
    ]


def test_the_inputs_carry_declared_settings_validated_in_their_units_with_defaults():
    catalog = catalog_with(("store", fixtures.Declared()))
    data = minimal_scenario(extensions={"store": {"sites": {"site_a": {"energy": "0.5 GWh"}}}})
    scenario = load_scenario_text(yaml_text(data), ".", catalog=catalog)
    carried = json.loads(build_inputs(scenario, catalog).attrs["extensions_json"])
    assert carried == {
        "store": {"horizon_fill": 0.5, "sites": {"site_a": {"energy": 500.0, "efficiency": 0.9}}}
    }


@pytest.mark.parametrize(
    ("plugin", "said"),
    [
        (fixtures.NotAModel(), "its extension_settings returned dict, not a pydantic model class"),
        (fixtures.Raising(), "extension_settings: RuntimeError: settings model not ready"),
    ],
)
def test_a_plugin_whose_settings_model_is_broken_fails_a_scenario_that_gives_it_settings(plugin, said):
    text = yaml_text(minimal_scenario(extensions={"bad": {"x": 1}}))
    (found,) = problems(text, catalog_with(("bad", plugin)))
    assert f"s.yaml:{line_of(text, 'bad:')}: extensions.bad: " in found and said in found
    load_scenario_text(yaml_text(minimal_scenario()), ".", catalog=catalog_with(("bad", plugin)))


def test_a_plugin_problem_that_names_its_field_is_reported_at_that_line():
    """Item 6: reported at 's.yaml:1' whatever the field."""
    data = minimal_scenario(extensions={"checker": {"sites": {"site_a": 1}}})
    text = yaml_text(data)
    (found,) = problems(text, catalog_with(("checker", fixtures.SitePathChecker())))
    line = line_of(text, "site_a: 1")
    assert line > 1
    assert found == (
        f"s.yaml:{line}: extensions.checker.sites.site_a: too small (check by plugin 'checker')"
    )


def test_the_batterys_unknown_site_is_reported_at_that_site():
    settings = {"sites": {"site_b": {"energy": "1 MWh", "power": "1 MW"}}}
    text = yaml_text(minimal_scenario(extensions={"battery": settings}))
    (found,) = problems(text, catalog_with("battery"))
    assert found.startswith(f"s.yaml:{line_of(text, 'site_b:')}: extensions.battery.sites.site_b: ")
    assert "unknown site 'site_b'" in found


def test_the_batterys_settings_are_checked_field_by_field_at_their_lines():
    """The built-in battery declares its settings. Before, it parsed them itself: one
    problem per site at the site's line (the first it met), unknown fields without a
    did-you-mean, so a file with four mistakes told of one."""
    site = {"enrgy": "1 MWh", "power": "-1 MW", "efficiency": 1.5}
    text = yaml_text(minimal_scenario(extensions={"battery": {"sites": {"site_a": site}}}))
    found = problems(text, catalog_with("battery"))
    where = "extensions.battery.sites.site_a"
    assert len(found) == 4, found
    assert f"s.yaml:{line_of(text, 'site_a:')}: {where}.energy: required field is missing" in found
    assert any(
        p.startswith(f"s.yaml:{line_of(text, 'enrgy:')}: {where}.enrgy: unknown field")
        and "did you mean 'energy'?" in p
        for p in found
    ), found
    assert any(
        p.startswith(f"s.yaml:{line_of(text, 'power:')}: {where}.power: ") and "'-1 MW'" in p
        for p in found
    ), found
    assert any(
        p.startswith(f"s.yaml:{line_of(text, 'efficiency:')}: {where}.efficiency: ") and "1.5" in p
        for p in found
    ), found


def test_the_batterys_settings_reach_the_inputs_with_their_defaults_in_their_units():
    settings = {"sites": {"site_a": {"energy": "200 kWh", "power": "0.1 MW"}}}
    catalog = catalog_with("battery")
    text = yaml_text(minimal_scenario(extensions={"battery": settings}))
    scenario = load_scenario_text(text, ".", label="s.yaml", catalog=catalog)
    carried = json.loads(build_inputs(scenario, catalog).attrs["extensions_json"])["battery"]
    # 200 kWh = 0.2 MWh; efficiency 0.88, initial_soc 0.5 and cycle_cost 0 are the defaults
    assert carried == {
        "sites": {
            "site_a": {
                "energy": pytest.approx(0.2),
                "power": pytest.approx(0.1),
                "efficiency": 0.88,
                "initial_soc": 0.5,
                "cycle_cost": 0.0,
            }
        }
    }
