"""Errors geomodel reports to people, not to programmers.

Each carries enough context (file, field, value, what is allowed) to be printed
as one clear line without a traceback; the CLI shows the traceback only with
``--debug``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any, Protocol


class GeomodelError(Exception):
    """Base class of every error meant for the user."""


class UsageError(GeomodelError):
    """A command-line option or function argument has a bad value."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"{option}: {message}")


class UnknownNameError(GeomodelError, KeyError):
    """A catalogue name (hardware system, link technology, power source) is not known.

    ``note`` says why it may be missing (a plugin that tried to register it failed).
    """

    def __init__(self, kind: str, name: str, known: Iterable[str], note: str = "") -> None:
        self.kind = kind
        self.name = name
        self.known = sorted(known)
        self.closest = closest_names(name, self.known)
        hint = f"; did you mean {', '.join(self.closest)}?" if self.closest else ""
        why = f"; {note}" if note else ""
        super().__init__(f"unknown {kind} {name!r}{hint} (known: {len(self.known)} names){why}")

    def __str__(self) -> str:  # KeyError would add quotes around the message
        return self.args[0]


class Problem(Protocol):
    """What :class:`ScenarioError` reads of a problem
    (:class:`geomodel.scenario.problems.Problem` is one)."""

    severity: str
    position: Any


class ScenarioError(GeomodelError):
    """A scenario has problems (:class:`geomodel.scenario.problems.Problem`); all of them
    are listed, one per line.

    Errors come first, in file order and then line order, warnings after them.
    """

    def __init__(self, problems: Sequence[Problem], source: str | None = None) -> None:
        self.problems = in_reading_order(problems)
        self.source = source
        errors = [p for p in problems if p.severity == "error"]
        warnings = len(problems) - len(errors)
        head = f"{source}: " if source else ""
        noun = "problem" if len(errors) == 1 else "problems"
        also = f" (and {warnings} warning{'s' if warnings > 1 else ''})" if warnings else ""
        lines = [f"{head}{len(errors)} {noun} found{also}"] + [f"  {p}" for p in self.problems]
        super().__init__("\n".join(lines))


def in_reading_order(problems: Sequence[Problem]) -> list[Problem]:
    """Errors before warnings; within each, by file (first seen first), then by line."""
    files: dict[str, int] = {}
    for problem in problems:
        files.setdefault(problem.position.file if problem.position else "", len(files))

    def key(problem: Problem) -> tuple[int, int, int]:
        file = problem.position.file if problem.position else ""
        line = (problem.position.line or 0) if problem.position else 0
        return (problem.severity == "warning", files[file], line)

    return sorted(problems, key=key)


class PluginError(GeomodelError):
    """One or more plugins failed to load and strict mode is on."""


class ExtensionError(PluginError):
    """A plugin's ``extend_model`` raised: without its constraints the plan would be wrong."""


def closest_names(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names most similar to ``name``, best first (substring matches count)."""
    known = list(known)
    lowered = name.lower()
    close = difflib.get_close_matches(lowered, known, n=n, cutoff=0.5)
    containing = [k for k in known if lowered in k.lower() and k not in close]
    return (close + containing)[:n]
