"""Numbers as the app shows them: KPI labels with units and values with sensible precision."""

from __future__ import annotations

import math
from typing import Any

from geomodel.results.kpis import KPI_SPECS

#: what a missing number (None, NaN) shows as, as in the CLI
MISSING = "-"

#: KPIs shown as metrics at the top of a result, with a short label
HEADLINE: dict[str, str] = {
    "energy_mwh": "Energy",
    "cost_usd": "Energy cost",
    "emissions_tco2": "Emissions",
    "latency_ms_mean": "Mean latency",
    "latency_ms_p95": "P95 latency",
    "unserved_fraction": "Unserved",
    "renewable_share": "Renewables",
    "objective": "Objective",
}
#: KPIs shown first for a plan (a run with build options), with their whole label (units
#: included: a metric beside the knobs holds about 17 characters): what the plan costs a
#: year and per unit of compute (docs/planning.md, "Results")
PLANNING_HEADLINE: dict[str, str] = {
    "total_cost_usd_per_year": "Total (USD/year)",
    "capex_usd_per_year": "Capex (USD/year)",
    "fixed_om_usd_per_year": "O&M (USD/year)",
    "usd_per_eflop": "USD per EFLOP",
    "usd_per_mtoken": "USD per Mtoken",
}
#: KPIs where a larger value is better (metric deltas are coloured accordingly)
HIGHER_IS_BETTER = frozenset({"renewable_share"})


def kpi_units(name: str) -> str:
    """Units shown for a KPI: fractions ("1") as percent."""
    units = KPI_SPECS.get(name, ("", ""))[0]
    return "%" if units == "1" else units


def headline(planning: bool = False) -> list[str]:
    """The KPIs shown as metrics: a plan's costs first, then those of every run."""
    return [*(PLANNING_HEADLINE if planning else ()), *HEADLINE]


def kpi_label(name: str) -> str:
    """``"Energy cost (USD)"``, ``"USD per EFLOP"``."""
    if name in PLANNING_HEADLINE:
        return PLANNING_HEADLINE[name]
    label = HEADLINE.get(name, name.replace("_", " "))
    units = kpi_units(name)
    return f"{label} ({units})" if units else label


def kpi_value(name: str, value: Any) -> float | None:
    """The number in the shown units (fractions x 100), or None."""
    if value is None or isinstance(value, str | bool):
        return None
    number = float(value)
    if math.isnan(number):
        return None
    return number * 100.0 if KPI_SPECS.get(name, ("",))[0] == "1" else number


def format_number(value: Any) -> str:
    """Thousands separators from 1,000; two decimals from 1; a dash for none."""
    if value is None:
        return MISSING
    if isinstance(value, str):
        return value
    number = float(value)
    if math.isnan(number):
        return MISSING
    if math.isinf(number):
        return "∞" if number > 0 else "-∞"
    magnitude = abs(number)
    if magnitude >= 1000:
        return f"{number:,.0f}"
    if magnitude >= 100:
        return f"{number:.1f}"
    if magnitude >= 1:
        return f"{number:.2f}"
    if magnitude == 0:
        return "0"
    if magnitude >= 0.001:
        return f"{number:.3f}"
    return f"{number:.2e}"


def format_kpi(name: str, value: Any) -> str:
    """A KPI's value as shown in its metric (status words as they are)."""
    if isinstance(value, str):
        return value
    return format_number(kpi_value(name, value))


#: longest metric value shown in full; longer numbers are shown compact (3.71 M)
METRIC_CHARS = 7
_SCALES = ((1e9, "G"), (1e6, "M"), (1e3, "k"))


def compact_number(value: float) -> str:
    """Three significant digits with a k/M/G suffix: ``3.71 M``, ``65.6 k``."""
    magnitude = abs(value)
    for scale, suffix in _SCALES:
        if magnitude >= scale:
            scaled = value / scale
            digits = 2 if abs(scaled) < 10 else 1 if abs(scaled) < 100 else 0
            return f"{scaled:.{digits}f} {suffix}"
    return format_number(value)


def format_metric(name: str, value: Any) -> str:
    """A KPI as its metric shows it: :func:`format_kpi`, or compact when that is longer
    than :data:`METRIC_CHARS` characters (so it fits a metric at 1280 px)."""
    full = format_kpi(name, value)
    number = kpi_value(name, value)
    if len(full) <= METRIC_CHARS or number is None or math.isinf(number):
        return full
    return compact_number(number)


def fit_number(value: Any) -> str:
    """:func:`format_number`, compact when longer than :data:`METRIC_CHARS` characters."""
    full = format_number(value)
    if len(full) <= METRIC_CHARS or isinstance(value, str) or value is None:
        return full
    return compact_number(float(value))
