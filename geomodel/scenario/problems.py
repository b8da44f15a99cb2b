"""Problems found in a scenario, with where they are: file, line and field path."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from geomodel.errors import GeomodelError

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


class ScenarioError(GeomodelError):
    """A scenario has problems; all of them are listed, one per line.

    Errors come first, in file order and then line order, warnings after them.
    """

    def __init__(self, problems: list[Problem], source: str | None = None) -> None:
        self.problems = in_reading_order(problems)
        self.source = source
        errors = [p for p in problems if p.severity == "error"]
        warnings = len(problems) - len(errors)
        head = f"{source}: " if source else ""
        noun = "problem" if len(errors) == 1 else "problems"
        also = f" (and {warnings} warning{'s' if warnings > 1 else ''})" if warnings else ""
        lines = [f"{head}{len(errors)} {noun} found{also}"] + [f"  {p}" for p in self.problems]
        super().__init__("\n".join(lines))


def in_reading_order(problems: list[Problem]) -> list[Problem]:
    """Errors before warnings; within each, by file (first seen first), then by line."""
    files: dict[str, int] = {}
    for problem in problems:
        files.setdefault(problem.position.file if problem.position else "", len(files))

    def key(problem: Problem) -> tuple[int, int, int]:
        file = problem.position.file if problem.position else ""
        line = (problem.position.line or 0) if problem.position else 0
        return (problem.severity == "warning", files[file], line)

    return sorted(problems, key=key)
