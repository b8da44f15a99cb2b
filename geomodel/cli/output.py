"""Print results as rich tables for people or JSON for scripts."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

JSON_HELP = "Print JSON instead of a table, for scripts."


def console(stderr: bool = False) -> Console:
    """A console sized for pipes too (no wrapping of tables at 80 columns in CI)."""
    probe = Console(stderr=stderr)
    return probe if probe.is_terminal else Console(width=200, stderr=stderr)


def print_json(data: Any) -> None:
    """Print ``data`` as JSON; NaN and infinity become null so any parser reads it."""
    print(json.dumps(_finite(data), indent=2, default=str))


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def format_value(value: Any) -> str:
    """Numbers with thousands separators and sensible precision; None as a dash."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isinf(value):
            return "inf"
        magnitude = abs(value)
        if magnitude >= 1000:
            return f"{value:,.0f}"
        if magnitude >= 10:
            return f"{value:,.1f}"
        if magnitude >= 0.01 or magnitude == 0:
            return f"{value:.3g}" if magnitude < 1 else f"{value:.2f}"
        return f"{value:.2e}"
    return str(value)


def print_table(
    rows: Sequence[Mapping[str, Any]],
    columns: Mapping[str, str],
    title: str | None = None,
) -> None:
    """Print ``rows`` with ``columns`` (key -> header, units in the header)."""
    table = Table(title=title, show_lines=False)
    for header in columns.values():
        table.add_column(header, overflow="fold")
    for row in rows:
        table.add_row(*(format_value(row.get(key)) for key in columns))
    console().print(table)
