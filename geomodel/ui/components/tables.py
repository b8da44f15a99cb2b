"""Tables as a planner reads them: named columns with units, numbers rounded and grouped,
every cell's text on the page, and a CSV download of each.

``show_table`` takes a DataFrame with the library's column names and a spec of the
columns to show: each column's heading (with units) and its decimals (None for text).
The table is drawn as HTML (``st.table``): it wraps to the page's width instead of
scrolling sideways, shows every row (or a page of a long one), and its text is in the
page, where a reader, a screen reader and the browser test can find it. The CSV
download keeps the library's names and full precision (what a script reads).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from geomodel.ui.components.problems import plain
from geomodel.ui.format import MISSING, NAME, fixed, human

#: column -> (heading with units, or None to keep the column out of the table but in
#: its CSV; decimals to round to, :data:`NAME`, or None: as it is)
Spec = Mapping[str, tuple[str | None, int | str | None]]
#: rows of a long table shown at once (the CSV holds them all)
PAGE_ROWS = 50


def _text(value, decimals: int | str | None) -> str:
    """A cell as shown, Markdown-escaped: ``st.table`` reads cells as Markdown, and a
    cell may quote a file's own names (a job, a site)."""
    return _markdown_safe(_shown(value, decimals))


def _markdown_safe(text: str) -> str:
    """Escaped as messages are (``plain``); a lone dash would be a list item."""
    return "\\-" if text == MISSING else plain(text)


def _shown(value, decimals: int | str | None) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return MISSING
    if decimals == NAME:
        return human(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if decimals is not None and isinstance(value, int | float):
        return fixed(value, decimals)
    if isinstance(value, float):
        return fixed(value, 2) if abs(value) >= 1 or value == 0 else f"{value:.3g}"
    return str(value)


def shown_frame(frame: pd.DataFrame, spec: Spec) -> pd.DataFrame:
    """The spec'd columns under their headings, every cell as the text shown (Markdown-
    escaped; no streamlit needed: tests read this)."""
    columns = {c: spec[c] for c in spec if c in frame.columns and spec[c][0] is not None}
    return pd.DataFrame(
        {
            heading: [_text(v, decimals) for v in frame[column].tolist()]
            for column, (heading, decimals) in columns.items()
        },
        index=range(len(frame)),
    )


def numeric_headings(frame: pd.DataFrame, spec: Spec) -> list[str]:
    """Headings of the columns that hold numbers (aligned right)."""
    return [
        spec[c][0]
        for c in spec
        if c in frame.columns
        and spec[c][0] is not None
        and pd.api.types.is_numeric_dtype(frame[c])
        and not pd.api.types.is_bool_dtype(frame[c])
    ]


def show_table(frame: pd.DataFrame, spec: Spec, name: str, rows: int | None = PAGE_ROWS) -> None:
    """``frame``'s spec'd columns with headings and grouped, rounded numbers, at most
    ``rows`` of them (None: all), and a CSV download of the whole frame named ``name``."""
    shown = shown_frame(frame, spec)
    more = len(shown) - rows if rows is not None else 0
    if more > 0:
        shown = shown.head(rows)
    styled = shown.style.set_properties(
        subset=numeric_headings(frame, spec), **{"text-align": "right"}
    ).set_table_styles(
        [{"selector": "td, th", "props": [("white-space", "normal"), ("overflow-wrap", "anywhere")]}]
    )
    st.table(styled, hide_index=True)
    csv_columns = [c for c in spec if c in frame.columns]
    caption = f"{len(frame):,} rows; the first {rows:,} shown. " if more > 0 else ""
    left, right = st.columns([3, 1], vertical_alignment="center")
    if caption:
        left.caption(caption + "The CSV holds them all.")
    right.download_button(
        "CSV",
        data=frame[csv_columns].to_csv(index=False),
        file_name=f"{name}.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        type="tertiary",
        key=f"csv.{name}",
        help=f"Download this table ({len(frame):,} rows) as {name}.csv",
    )
