"""The scenario page under streamlit.testing: pick, variants, knobs, problems, map, YAML."""

from __future__ import annotations

import pytest

from geomodel.ui import state
from geomodel.ui.paths import bundled_scenarios, scenarios_dir

from .conftest import metrics, run_button, section_errors, unescape, widget


def test_opens_on_the_quickstart_ready_to_run(app):
    at = app().run()
    assert not at.exception
    assert at.title[0].value == "Scenario"
    assert widget(at.selectbox, "Bundled scenario").value == "quickstart.yaml"
    assert run_button(at).label.startswith("Run")
    shown = metrics(at)
    assert shown["Sites"] == "3"
    assert shown["Chips"] == "83,200"
    assert shown["Horizon (h)"] == "48"
    assert len(at.get("deck_gl_json_chart")) == 1
    assert at.session_state[state.RECIPE].overrides == {}


def test_a_knob_becomes_an_override_in_the_resolved_scenario(app):
    at = app().run()
    widget(at.number_input, "Carbon price (USD/tCO2)").set_value(50.0).run()
    widget(at.slider, "Demand scale (x every region's demand)").set_value(1.5).run()
    assert not at.exception
    recipe = at.session_state[state.RECIPE]
    assert recipe.overrides["objective.carbon_price"] == 50.0
    assert recipe.overrides["regions.new_york.demand.chat.scale"] == 1.5
    commands = [c.value for c in at.code if c.language == "bash"]
    assert "--set objective.carbon_price=50.0" in commands[0]
    yaml_text = next(c.value for c in at.code if c.language == "yaml")
    assert "carbon_price: 50.0" in yaml_text
    assert [d.label for d in at.get("download_button")] == ["Download the resolved scenario (YAML)"]


def test_a_variant_moves_the_knobs_to_its_values(app):
    at = app().run()
    at.multiselect(key=state.variants_key("quickstart.yaml")).set_value(["carbon_price_100"]).run()
    assert not at.exception
    assert widget(at.number_input, "Carbon price (USD/tCO2)").value == 100.0
    assert at.session_state[state.RECIPE].variants == ("carbon_price_100",)
    assert at.session_state[state.RECIPE].overrides == {}


def test_a_knob_that_breaks_the_scenario_shows_the_problem_under_its_section(app):
    at = app().run()
    widget(at.selectbox, "Bundled scenario").set_value("europe-nordics.yaml").run()
    widget(at.number_input, "Horizon (h)").set_value(2000).run()
    assert not at.exception
    errors = section_errors(at)
    assert any("does not cover the horizon" in e for e in errors["Demand"]), errors
    assert any("has problems" in e.value for e in at.error)
    assert not [b for b in at.button if b.label.startswith("Run")]  # nothing to run


def test_an_upload_with_problems_lists_each_under_its_section(app):
    text = (scenarios_dir() / "quickstart.yaml").read_text()
    text = text.replace("power_envelope: 100 MW", "power_envelope: -100 MW")
    text = text.replace("carbon_price: 0 USD/tCO2", "carbon_price: cheap")
    text = text.replace("sla: 35 ms", "sla: soon")
    at = app().run()
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    at.file_uploader(key=state.UPLOAD).set_value(("mine.yaml", text.encode(), "application/x-yaml"))
    at.run()
    assert not at.exception
    errors = section_errors(at)
    line = {key: _line_of(text, key) for key in ("-100 MW", "cheap", "soon")}
    assert errors["Sites"] == [
        f"mine.yaml:{line['-100 MW']}: sites.council_bluffs.power_envelope: "
        "must be at least 0 MW (got '-100 MW')"
    ]
    assert errors["Objective"][0].startswith(f"mine.yaml:{line['cheap']}: objective.carbon_price:")
    assert errors["Other sections"][0].startswith(f"mine.yaml:{line['soon']}: inference.chat.sla:")
    assert "3 problems found" in unescape(at.error[0].value)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_unsafe_upload_is_refused(app, tmp_path):
    at = app().run()
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    marker = tmp_path / "pwned"
    evil = f"name: x\nboom: !!python/object/apply:os.system ['touch {marker}']\n".encode()
    at.file_uploader(key=state.UPLOAD).set_value(("evil.yaml", evil, "application/x-yaml")).run()
    assert not at.exception
    assert any("tag" in unescape(e.value) for e in at.error)
    assert not marker.exists()
    good = (scenarios_dir() / "quickstart.yaml").read_bytes()
    at.file_uploader(key=state.UPLOAD).set_value(("good.yaml", good, "application/x-yaml")).run()
    assert not at.error
    assert at.session_state[state.RECIPE].source == "upload"


def test_map_options(app):
    at = app().run()
    at.radio(key=state.MAP_SIZE).set_value("mw").run()
    at.radio(key=state.MAP_LINKS).set_value("technology").run()
    assert not at.exception
    assert len(at.get("deck_gl_json_chart")) == 1


@pytest.mark.parametrize("name", bundled_scenarios())
def test_every_bundled_scenario_opens_with_its_knobs_and_map(app, name):
    at = app().run()
    widget(at.selectbox, "Bundled scenario").set_value(name).run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    assert run_button(at).label.startswith("Run")
    assert len(at.get("deck_gl_json_chart")) == 1
