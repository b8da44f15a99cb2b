"""Problems found in a scenario, with where they are: file, line and field path.

:class:`ScenarioError`, which lists them, lives in :mod:`geomodel.errors` with every
other error meant for people; it is imported here too, where scenario code finds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from geomodel.errors import ScenarioError, in_reading_order

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Position:
    """Where a value came from: a file and a 1-based line, or a command-line override."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


class _NoValue:
    """No value to show (a missing field, a problem of the whole file)."""

    def __repr__(self) -> str:
        return "NO_VALUE"


#: The ``value`` of a :class:`Problem` that has none.
NO_VALUE = _NoValue()


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth a warning) in a scenario."""

    path: str
    message: str
    position: Position | None = None
    value: Any = NO_VALUE
    severity: Literal["error", "warning"] = "error"

    def __str__(self) -> str:
        where = f"{self.position}: " if self.position else ""
        field = f"{self.path}: " if self.path else ""
        got = "" if self.value is NO_VALUE else f" (got {_short(self.value)})"
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{where}{prefix}{field}{self.message}{got}"


def _short(value: Any, limit: int = 72) -> str:
    text = value.isoformat() if isinstance(value, date) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def dotted(path: Path) -> str:
    """``("sites", "a", "systems", 0)`` -> ``sites.a.systems[0]``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


__all__ = ["NO_VALUE", "Path", "Position", "Problem", "ScenarioError", "dotted", "in_reading_order"]
