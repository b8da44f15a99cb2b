"""Errors geomodel reports to people, not to programmers.

Each carries enough context (file, field, value, what is allowed) to be printed
as one clear line without a traceback; the CLI shows the traceback only with
``--debug``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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
