"""Tables as a planner reads them: named columns with units, numbers rounded and grouped.

``show_table`` takes a DataFrame with the library's column names and a spec of the
columns to show: each column's heading (with units) and its decimals (None for
text). The DataFrame keeps its names (a CSV download or a test reads those); only
the display changes. Tables stretch to the page's width and scroll inside it.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

#: column -> (heading with units, or None to keep the column but not show it;
#: decimals to round to, or None: as it is)
Spec = Mapping[str, tuple[str | None, int | None]]


def rounded(frame: pd.DataFrame, spec: Spec) -> pd.DataFrame:
    """The spec's columns, numbers rounded to their decimals (no streamlit needed)."""
    shown = frame[[c for c in spec if c in frame.columns]].copy()
    for column, (_, decimals) in spec.items():
        if decimals is not None and column in shown and pd.api.types.is_numeric_dtype(shown[column]):
            shown[column] = shown[column].round(decimals)
    return shown


def full_height(frame: pd.DataFrame) -> int:
    """Pixels that show every row of ``frame`` without scrolling (a heading and rows of
    35 px): for short tables whose last row is the total."""
    return 35 * (len(frame) + 1) + 3


def show_table(frame: pd.DataFrame, spec: Spec, height: int | str = "auto") -> None:
    """``frame``'s spec'd columns with headings and grouped, rounded numbers."""
    shown = rounded(frame, spec)
    config = {
        column: (
            None
            if heading is None
            else st.column_config.NumberColumn(heading, format="localized")
            if pd.api.types.is_numeric_dtype(shown[column])
            and not pd.api.types.is_bool_dtype(shown[column])
            else st.column_config.TextColumn(heading)
        )
        for column, (heading, _) in spec.items()
        if column in shown.columns
    }
    st.dataframe(shown, hide_index=True, column_config=config, width="stretch", height=height)
