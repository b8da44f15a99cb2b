"""KPI metrics with units, and the full KPI table."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd
import streamlit as st

from geomodel.results.kpis import KPI_SPECS
from geomodel.ui.format import (
    HIGHER_IS_BETTER,
    MISSING,
    fit_number,
    fixed,
    format_kpi,
    format_metric,
    headline,
    kpi_label,
    kpi_units,
    kpi_value,
)

#: what an unchanged KPI's delta says
UNCHANGED = "no change"


def kpi_delta(name: str, now: Any, then: Any) -> str | None:
    """The change of a KPI from ``then`` to ``now`` as shown (``+1.20``, ``-3.71 M``,
    ``no change`` within 1e-9), or None when either is missing."""
    a, b = kpi_value(name, now), kpi_value(name, then)
    if a is None or b is None:
        return None
    if math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9):
        return UNCHANGED
    text = fit_number(a - b)
    return text if text.startswith("-") else f"+{text}"


def show_kpis(
    kpis: Mapping[str, Any],
    reference: Mapping[str, Any] | None = None,
    columns: int = 4,
    planning: bool = False,
) -> None:
    """The headline KPIs as metrics (a plan's costs first); with ``reference``, each with
    its change from it."""
    names = [name for name in headline(planning) if name in kpis]
    for start in range(0, len(names), columns):
        cells = st.columns(columns)
        for cell, name in zip(cells, names[start : start + columns], strict=False):
            value = kpis.get(name)
            delta = kpi_delta(name, value, reference.get(name)) if reference is not None else None
            unchanged = delta == UNCHANGED
            shown = format_metric(name, value)
            exact = format_kpi(name, value)
            cell.metric(
                kpi_label(name),
                shown,
                delta=delta,
                delta_color="off" if unchanged else "normal" if name in HIGHER_IS_BETTER else "inverse",
                delta_arrow="off" if unchanged else "auto",
                help=KPI_SPECS[name][1] + ("" if shown == exact else f"; exactly {exact}"),
            )


def kpi_frame(kpis: Mapping[str, Any]) -> pd.DataFrame:
    """Every KPI with its library units and description (the CSV download)."""
    rows = [
        {"kpi": name, "value": kpis[name], "units": units, "description": description}
        for name, (units, description) in KPI_SPECS.items()
        if name in kpis
    ]
    return pd.DataFrame(rows, columns=["kpi", "value", "units", "description"])


def kpi_text_frame(kpis: Mapping[str, Any]) -> pd.DataFrame:
    """Every KPI as a table on screen shows it: its name, its value as text in the shown
    units (a share as a percentage: 52.95 with units %, never 0.530 with units 1; numbers
    and status words share the column), units and description."""
    rows = [
        {
            "kpi": name,
            "name": kpi_label(name, units=False),
            "value": format_kpi(name, kpis[name]),
            "units": kpi_units(name),
            "description": description,
        }
        for name, (_, description) in KPI_SPECS.items()
        if name in kpis
    ]
    return pd.DataFrame(rows, columns=["kpi", "name", "value", "units", "description"])


def _change(unchanged: bool, change: float | None, shown) -> str:
    """A change as text: ``no change``, a dash when there is none to give, else its value."""
    if unchanged:
        return UNCHANGED
    return MISSING if change is None else shown(change)


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
        unchanged = change is not None and math.isclose(float(va), float(vb), rel_tol=1e-9, abs_tol=1e-9)
        rows.append(
            {
                "kpi": name,
                "name": kpi_label(name, units=False),
                "description": KPI_SPECS[name][1],
                "units": kpi_units(name),
                "A": format_kpi(name, va),
                "B": format_kpi(name, vb),
                "B - A": _change(unchanged, change, lambda c, n=name: format_kpi(n, c)),
                "change (%)": _change(unchanged, relative, lambda c: fixed(c, 2)),
            }
        )
    return pd.DataFrame(rows)
