"""Scenario page: pick or upload a scenario, choose variants, turn the knobs, see the
map and the resolved YAML, and run it."""

from __future__ import annotations

import streamlit as st

from geomodel.scenario import ScenarioError
from geomodel.scenario.summary import summarize
from geomodel.ui import knobs, loaders, state
from geomodel.ui.components.deck import LINK_COLOUR_BY, SIZE_BY, scenario_deck
from geomodel.ui.components.knob_widgets import knob_widgets, show_grouped, show_section_problems
from geomodel.ui.components.problems import show_problems
from geomodel.ui.components.run_panel import run_panel
from geomodel.ui.format import format_number
from geomodel.ui.paths import MAX_UPLOAD_BYTES, bundled_scenarios, scenarios_dir, time_limit_cap
from geomodel.ui.recipe import Recipe, resolved_yaml, upload_text, variants_defined

BUNDLED, UPLOAD = "Bundled scenario", "Upload YAML"


def pick_source(folder) -> Recipe | None:
    """A bundled file or an upload (checked for size and encoding, parsed later, safely)."""
    source = st.radio("Scenario", [BUNDLED, UPLOAD], horizontal=True, key=state.SOURCE)
    if source == BUNDLED:
        names = bundled_scenarios(folder)
        if not names:
            st.error(f"No scenarios in {folder}.")
            return None
        name = st.selectbox("Bundled scenario", names, key=state.BUNDLED)
        return Recipe("bundled", name)
    uploaded = st.file_uploader(
        "Scenario YAML",
        type=["yaml", "yml"],
        key=state.UPLOAD,
        max_upload_size=max(1, MAX_UPLOAD_BYTES // (1024 * 1024)),
        help="Parsed safely (no tags, no imports); CSV files it names are read from the "
        "bundled scenarios folder only.",
    )
    if uploaded is None:
        st.info("Upload a scenario file (YAML), or pick a bundled one.")
        return None
    try:
        return Recipe("upload", uploaded.name, upload_text(uploaded.name, uploaded.getvalue()))
    except ScenarioError as error:
        show_problems(error.problems)
        return None


def main() -> None:
    st.title("Scenario")
    folder = scenarios_dir()
    catalog = loaders.catalog()
    recipe = pick_source(folder)
    if recipe is None:
        return
    variants = st.multiselect(
        "Variants (applied in order)",
        variants_defined(recipe, folder),
        key=state.variants_key(recipe.name),
    )
    recipe = recipe.with_variants(variants)
    try:
        base_scenario = loaders.scenario(recipe)
    except ScenarioError as error:
        errors = [p for p in error.problems if p.severity == "error"]
        st.error(
            f"{recipe.label()}: {len(errors)} problem{'s' if len(errors) != 1 else ''} found. "
            "Fix the file to turn the knobs and run it.",
            icon=":material/error:",
        )
        show_grouped(knobs.group_by_section(error.problems), folder)
        return

    state.reset_knobs(base_scenario.origin.scenario_hash)
    cap = time_limit_cap()
    left, right = st.columns([2, 3], gap="large")
    with left:
        st.subheader("Knobs")
        st.caption("They start from the file with its variants; changes become --set overrides.")
        values, slots = knob_widgets(base_scenario, catalog, knobs.defaults(base_scenario, cap), cap)
    current = recipe.with_overrides(knobs.overrides(base_scenario, values, cap))
    try:
        scenario = loaders.scenario(current)
        problems = list(scenario.origin.warnings)
    except ScenarioError as error:
        scenario, problems = None, error.problems
    show_section_problems(slots, knobs.group_by_section(problems), folder)
    state.put(state.RECIPE, current)

    with right:
        if scenario is None:
            st.error(
                "The scenario with these changes has problems (shown under the knobs); "
                "change them back to run it.",
                icon=":material/error:",
            )
            return
        st.subheader(scenario.name or recipe.name)
        if scenario.description:
            st.caption(scenario.description)
        run_panel(current, scenario.origin.scenario_hash, float(scenario.solver.time_limit))
        _summary(scenario, catalog)
        _map(current)
        _resolved(scenario, current)


def _summary(scenario, catalog) -> None:
    summary = summarize(scenario, catalog)
    cells = st.columns(5)
    cells[0].metric("Sites", summary["sites"])
    cells[1].metric("Chips", format_number(summary["chips"]))
    cells[2].metric("IT power at load (MW)", format_number(summary["it_mw_at_load"]))
    cells[3].metric("Power envelopes (MW)", format_number(summary["power_envelope_mw"]))
    cells[4].metric("Horizon (h)", f"{summary['hours']:g}")


def _map(recipe: Recipe) -> None:
    st.markdown("**Map**")
    left, right = st.columns(2)
    size_by = left.radio(
        "Size sites by", list(SIZE_BY), format_func=SIZE_BY.get, horizontal=True, key=state.MAP_SIZE
    )
    colour_by = right.radio(
        "Colour links by",
        list(LINK_COLOUR_BY),
        format_func=LINK_COLOUR_BY.get,
        horizontal=True,
        key=state.MAP_LINKS,
    )
    st.pydeck_chart(scenario_deck(loaders.inputs(recipe), size_by, colour_by), height=460)
    st.caption(
        "Sites: green is clean grid power, brown is carbon-heavy (mean kgCO2e/MWh); "
        "blue rings: user regions sized by demand; lines: DCI links. Hover for details."
    )


def _resolved(scenario, recipe: Recipe) -> None:
    text = resolved_yaml(scenario, recipe)
    with st.expander("Resolved scenario (YAML) and the equivalent command"):
        st.code(recipe.command(), language="bash")
        st.download_button(
            "Download the resolved scenario (YAML)",
            data=text,
            file_name=f"{scenario.name or 'scenario'}-resolved.yaml",
            mime="application/x-yaml",
            icon=":material/download:",
            on_click="ignore",
        )
        st.code(text, language="yaml")


main()
