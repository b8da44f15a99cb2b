"""The scenario page's views, cached by the recipe on screen: its map, its size and its
resolved YAML (a recipe names one scenario, so each is built once and reused on every
rerun; ``ui.figures`` does the same for results). Kept apart from ``ui.figures`` so that
the first page a visitor opens imports no charting library."""

from __future__ import annotations

import streamlit as st

from geomodel.scenario.summary import summarize
from geomodel.ui import loaders
from geomodel.ui.components.deck import MapDrawing, scenario_deck
from geomodel.ui.recipe import Recipe, resolved_yaml

ENTRIES = 32


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def scenario_map(recipe: Recipe, stamp: int, size_by: str, colour_by: str) -> MapDrawing:
    """The scenario map (``stamp``: the file's time, so an edited file draws anew)."""
    return scenario_deck(loaders.inputs(recipe), size_by, colour_by)


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def summary(recipe: Recipe, stamp: int) -> dict:
    return summarize(loaders.scenario(recipe), loaders.catalog())


@st.cache_data(max_entries=ENTRIES, show_spinner=False)
def scenario_yaml(recipe: Recipe, stamp: int) -> str:
    return resolved_yaml(loaders.scenario(recipe), recipe)
