"""What is on screen is what runs, and it stays (issue 15, items 1-3), under streamlit.testing.

A browser sends back the value of every widget it shows, by widget key, and Streamlit
forgets the keys of widgets a page run does not draw. The tests play both parts:
``session_state[key] = value`` for a value a browser still holds, and a visit to
another page for the forgetting.
"""

from __future__ import annotations

import pytest

from geomodel.scenario import load_scenario
from geomodel.ui import state
from geomodel.ui.paths import scenarios_dir, time_limit_cap

from .conftest import page, widget

CARBON = "Carbon price (USD/tCO2)"


def file_hash(name: str, catalog, variants=()) -> str:
    """The scenario hash of the file as the library (and the CLI) loads it."""
    return load_scenario(scenarios_dir() / name, variants, catalog=catalog).origin.scenario_hash


def as_list(value) -> list[str]:
    """AppTest keeps one query value as text and several as a list."""
    return value if isinstance(value, list) else [value]


def shown_hash(at) -> str:
    from geomodel.ui import loaders

    return loaders.scenario(at.session_state[state.RECIPE]).origin.scenario_hash


@pytest.mark.parametrize("name", ["us-100k-gpu.yaml", "europe-nordics.yaml"])
def test_switching_the_file_runs_that_file_whatever_the_browser_still_shows(app, catalog, name):
    at = app().run()
    horizon = widget(at.number_input, "Horizon (h)")
    limit = widget(at.number_input, "Time limit (s)")
    assert horizon.value == 48  # the quickstart's
    widget(at.selectbox, "Bundled scenario").set_value(name).run()
    scenario = load_scenario(scenarios_dir() / name, catalog=catalog)
    assert widget(at.number_input, "Horizon (h)").value == scenario.time.horizon_hours
    # the browser still shows the quickstart's values in its widgets and sends them back
    at.session_state[horizon.key] = 48
    at.session_state[limit.key] = 120.0
    at.run()
    assert not at.exception
    assert widget(at.number_input, "Horizon (h)").value == scenario.time.horizon_hours
    expected_limit = min(float(scenario.solver.time_limit), time_limit_cap())
    assert widget(at.number_input, "Time limit (s)").value == expected_limit
    recipe = at.session_state[state.RECIPE]
    assert recipe.overrides == {}
    assert recipe.label() == name
    assert shown_hash(at) == file_hash(name, catalog)


def test_edits_and_the_file_stay_across_a_visit_to_another_page(app, catalog):
    at = app().run()
    widget(at.selectbox, "Bundled scenario").set_value("europe-nordics.yaml").run()
    at.multiselect(key=state.variants_key("europe-nordics.yaml")).set_value(["eu_only"]).run()
    widget(at.number_input, CARBON).set_value(50.0).run()
    before = shown_hash(at)
    assert before != file_hash("europe-nordics.yaml", catalog, ["eu_only"])
    for other in ("tools", "results", "compare", "plugins"):
        page(at, other)
        page(at, "scenario")
        assert not at.exception
        assert widget(at.selectbox, "Bundled scenario").value == "europe-nordics.yaml"
        assert at.multiselect(key=state.variants_key("europe-nordics.yaml")).value == ["eu_only"]
        assert widget(at.number_input, CARBON).value == 50.0
        assert at.session_state[state.RECIPE].overrides == {"objective.carbon_price": 50.0}
        assert shown_hash(at) == before


def test_an_upload_stays_across_pages_until_removed(app):
    text = (scenarios_dir() / "quickstart.yaml").read_text().replace("name: quickstart", "name: mine")
    at = app().run()
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    at.file_uploader(key=state.UPLOAD).set_value(("mine.yaml", text.encode(), "application/x-yaml"))
    at.run()
    widget(at.number_input, CARBON).set_value(20.0).run()
    page(at, "tools")
    page(at, "scenario")
    assert not at.exception
    assert at.radio(key=state.SOURCE).value == "Upload YAML"
    recipe = at.session_state[state.RECIPE]
    assert (recipe.source, recipe.name, recipe.overrides) == (
        "upload",
        "mine.yaml",
        {"objective.carbon_price": 20.0},
    )
    assert any("uploaded earlier" in i.value for i in at.info)


def test_the_address_reopens_the_same_scenario(app, catalog):
    at = app().run()
    widget(at.selectbox, "Bundled scenario").set_value("europe-nordics.yaml").run()
    at.multiselect(key=state.variants_key("europe-nordics.yaml")).set_value(["eu_only"]).run()
    widget(at.number_input, CARBON).set_value(50.0).run()
    widget(at.slider, "Demand scale (x every region's demand)").set_value(1.5).run()
    params = {key: as_list(at.query_params[key]) for key in ("scenario", "variant", "set")}
    assert params["scenario"] == ["europe-nordics.yaml"]
    assert params["variant"] == ["eu_only"]
    assert "objective.carbon_price=50.0" in params["set"]
    wanted = shown_hash(at)

    reloaded = app()  # a new browser session opening that address
    for key, values in params.items():
        reloaded.query_params[key] = values
    reloaded.run()
    assert not reloaded.exception
    assert widget(reloaded.number_input, CARBON).value == 50.0
    assert widget(reloaded.slider, "Demand scale (x every region's demand)").value == 1.5
    assert shown_hash(reloaded) == wanted


def test_reset_returns_the_knobs_to_the_file(app, catalog):
    at = app().run()
    assert widget(at.button, "Reset the knobs to the file").disabled  # nothing to reset
    widget(at.number_input, CARBON).set_value(50.0).run()
    assert not widget(at.button, "Reset the knobs to the file").disabled  # at once
    widget(at.number_input, "Horizon (h)").set_value(24).run()
    assert at.session_state[state.RECIPE].label() == "quickstart.yaml · carbon_price=50, hours=24"
    widget(at.button, "Reset the knobs to the file").click().run()
    assert not at.exception
    assert widget(at.number_input, CARBON).value == 0.0
    assert widget(at.number_input, "Horizon (h)").value == 48
    assert at.session_state[state.RECIPE].overrides == {}
    assert shown_hash(at) == file_hash("quickstart.yaml", catalog)
