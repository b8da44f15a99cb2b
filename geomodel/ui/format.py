"""Numbers as the app shows them: KPI labels with units and values with sensible precision."""

from __future__ import annotations

import math
from typing import Any

from geomodel.results.kpis import KPI_SPECS

#: what a missing number (None, NaN) shows as, as in the CLI
MISSING = "-"
#: a table column of identifiers (sites, sources, systems) shown as words (``human``)
NAME = "name"

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
#: every KPI's name as a planner reads it (units are added from the KPI's own)
KPI_NAMES: dict[str, str] = {
    **HEADLINE,
    "negative_price_earnings_usd": "Earned at negative prices",
    "capex_usd_per_year": "Capex a year",
    "fixed_om_usd_per_year": "Fixed O&M a year",
    "opex_usd": "Energy and carbon cost",
    "total_cost_usd_per_year": "Total cost a year",
    "usd_per_eflop": "Cost per EFLOP trained",
    "usd_per_mtoken": "Cost per Mtoken served",
    "installed_capital_usd_per_year": "Installed fleet's capital a year",
    "usd_per_eflop_full": "Cost per EFLOP trained, installed fleet included",
    "usd_per_mtoken_full": "Cost per Mtoken served, installed fleet included",
    "chip_utilisation": "Chip utilisation",
    "achievable_utilisation": "Achievable chip utilisation",
    "water_m3": "Water used",
    "energy_cost_term_usd": "Objective: energy cost",
    "carbon_cost_term_usd": "Objective: carbon cost",
    "latency_cost_term_usd": "Objective: latency cost",
    "unserved_cost_term_usd": "Objective: unserved penalty",
    "extension_cost_term_usd": "Objective: extensions",
    "investment_cost_term_usd": "Objective: annuity of the build",
    "fixed_om_cost_term_usd": "Objective: fixed O&M of the build",
    "storage_cost_term_usd": "Objective: battery wear",
    "transfer_cost_term_usd": "Objective: data transfer",
    "water_cost_term_usd": "Objective: water",
    "idle_energy_mwh": "Idle energy",
    "idle_energy_share": "Idle share of energy",
    "transfer_gb": "Data moved",
    "transfer_cost_usd": "Data transfer cost",
    "transfer_energy_mwh": "Data transfer energy",
    "transfer_emissions_tco2": "Data transfer emissions",
    "solver_status": "Solver status",
    "mip_gap": "MIP gap",
    "build_seconds": "Model build time",
    "solve_seconds": "Solve time",
    "participation": "Site use of synchronous jobs solved as",
    "relaxation_objective": "Objective of the LP relaxation",
    "relaxation_gap": "Gap to the LP relaxation",
    "relaxation_seconds": "LP relaxation time",
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


def kpi_label(name: str, units: bool = True) -> str:
    """``"Energy cost (USD)"``, ``"USD per EFLOP"``; without ``units``, the name alone."""
    if units and name in PLANNING_HEADLINE:
        return PLANNING_HEADLINE[name]
    label = KPI_NAMES.get(name, human(name).capitalize())
    shown = kpi_units(name)
    return f"{label} ({shown})" if shown and units else label


def kpi_value(name: str, value: Any) -> float | None:
    """The number in the shown units (fractions x 100), or None."""
    if value is None or isinstance(value, str | bool):
        return None
    number = float(value)
    if math.isnan(number):
        return None
    return number * 100.0 if KPI_SPECS.get(name, ("",))[0] == "1" else number


def format_number(value: Any) -> str:
    """Thousands separators from 1,000; two decimals from 1; a dash for none; never "-0"."""
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
        text = f"{number:,.0f}"
    elif magnitude >= 100:
        text = f"{number:.1f}"
    elif magnitude >= 1:
        text = f"{number:.2f}"
    elif magnitude == 0:
        text = "0"
    elif magnitude >= 0.001:
        text = f"{number:.3f}"
    else:
        text = f"{number:.2e}"
    return unsigned_zero(text)


def unsigned_zero(text: str) -> str:
    """``"-0"``, ``"-0.00"`` (a tiny negative rounded away) as ``"0"``, ``"0.00"``."""
    return text[1:] if text.startswith("-") and not text.strip("-0.,") else text


def fixed(value: Any, decimals: int) -> str:
    """A number with thousands separators and ``decimals`` decimals; a dash for none."""
    if value is None or isinstance(value, bool):
        return MISSING if value is None else str(value)
    if isinstance(value, str):
        return value
    number = float(value)
    if math.isnan(number):
        return MISSING
    return unsigned_zero(f"{number:,.{decimals}f}")


def human(name: str) -> str:
    """An identifier as words: ``council_bluffs`` -> ``council bluffs``, a link
    ``the_dalles--abilene`` -> ``the dalles to abilene``."""
    return str(name).replace("--", " to ").replace("_", " ")


#: below this share of a chart's largest value, a value is solver round-off: drawn as 0
NOISE = 1e-9


def denoised(values, scale: float | None = None):
    """``values`` (an array) with solver round-off set to 0: anything smaller in size than
    :data:`NOISE` x ``scale`` (default: the largest size among them), so a load that is 0
    is drawn as 0 and no axis shows ``-2f`` (femto) or ``-0``."""
    import numpy as np

    array = np.asarray(values, dtype=float)
    largest = float(np.nanmax(np.abs(array))) if array.size and scale is None else (scale or 0.0)
    tolerance = max(NOISE * largest, 1e-12)
    return np.where(np.abs(array) < tolerance, 0.0, array)


def format_kpi(name: str, value: Any) -> str:
    """A KPI's value as shown in its metric (status words as they are)."""
    if isinstance(value, str):
        return value
    return format_number(kpi_value(name, value))


#: longest metric value shown in full; longer numbers are shown compact (3.71 M)
METRIC_CHARS = 7
_SCALES = ((1e9, "bn"), (1e6, "M"), (1e3, "k"))


def compact_number(value: float) -> str:
    """Three significant digits with a k/M/bn suffix: ``3.71 M``, ``65.6 k``, ``1.09 bn``."""
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
