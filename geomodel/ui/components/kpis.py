"""KPI metrics with units, and the full KPI table."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from geomodel.results.kpis import KPI_SPECS
from geomodel.ui.format import (
    HEADLINE,
    HIGHER_IS_BETTER,
    format_kpi,
    format_number,
    kpi_label,
    kpi_units,
    kpi_value,
)


def show_kpis(
    kpis: Mapping[str, Any], reference: Mapping[str, Any] | None = None, columns: int = 4
) -> None:
    """The headline KPIs as metrics; with ``reference``, each with its change from it."""
    names = [name for name in HEADLINE if name in kpis]
    for start in range(0, len(names), columns):
        cells = st.columns(columns)
        for cell, name in zip(cells, names[start : start + columns], strict=False):
            delta = None
            if reference is not None:
                now, then = kpi_value(name, kpis.get(name)), kpi_value(name, reference.get(name))
                if now is not None and then is not None:
                    delta = format_number(now - then)
                    delta = delta if delta.startswith("-") else f"+{delta}"
            cell.metric(
                kpi_label(name),
                format_kpi(name, kpis.get(name)),
                delta=delta,
                delta_color="normal" if name in HIGHER_IS_BETTER else "inverse",
                help=KPI_SPECS[name][1],
            )


def kpi_frame(kpis: Mapping[str, Any], as_text: bool = False) -> pd.DataFrame:
    """Every KPI with its units and description (the CSV download; ``as_text`` for a table
    on screen, where numbers and status words share a column)."""
    rows = [
        {
            "kpi": name,
            "value": format_number(kpis[name]) if as_text else kpis[name],
            "units": units,
            "description": description,
        }
        for name, (units, description) in KPI_SPECS.items()
        if name in kpis
    ]
    return pd.DataFrame(rows, columns=["kpi", "value", "units", "description"])


def comparison_frame(a: Mapping[str, Any], b: Mapping[str, Any]) -> pd.DataFrame:
    """KPIs of two runs side by side with the change from A to B."""
    rows = []
    for name in KPI_SPECS:
        if name not in a and name not in b:
            continue
        va, vb = a.get(name), b.get(name)
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (va, vb))
        change = float(vb) - float(va) if numeric else None
        relative = (
            change / abs(float(va)) * 100.0
            if numeric and change is not None and float(va) != 0 and not math.isnan(change)
            else None
        )
        rows.append(
            {
                "kpi": name,
                "units": kpi_units(name),
                "A": format_kpi(name, va),
                "B": format_kpi(name, vb),
                "B - A": None if change is None else format_kpi(name, change),
                "change (%)": None if relative is None else round(relative, 2),
            }
        )
    return pd.DataFrame(rows)
