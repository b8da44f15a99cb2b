"""A map on the page: one panel, or two side by side when an ocean lies between its sites,
each framed on its own sites and regions, and one legend under them."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from geomodel.ui.components.deck import HEIGHT, MapDrawing


def show_map(
    panels: list[tuple[frozenset[str], float]], draw: Callable[[frozenset[str], float], MapDrawing]
) -> MapDrawing:
    """Draw each panel (``draw(names to frame, width in pixels)``), then the legend."""
    cells = st.columns([w for _, w in panels], gap="small") if len(panels) > 1 else [st.container()]
    drawing = None
    for cell, (names, width) in zip(cells, panels, strict=True):
        drawing = draw(names if len(panels) > 1 else None, width)
        cell.pydeck_chart(drawing.deck, height=HEIGHT)
    st.html(drawing.legend)
    return drawing


def map_option(cell, label: str, choices: dict[str, str], key: str) -> str:
    """A row of radio buttons above a map: one of ``choices`` (key -> words)."""
    return cell.radio(label, list(choices), format_func=choices.get, horizontal=True, key=key)
