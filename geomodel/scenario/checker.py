"""The collector every scenario check writes to: problems with their file and line.

Each check module (``checks``, ``build_checks``, ``job_checks``, ...) takes a
:class:`Checker`; :func:`geomodel.scenario.checks.check_scenario` runs them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from geomodel.catalog import Catalog
from geomodel.errors import closest_names
from geomodel.scenario.files import Document
from geomodel.scenario.problems import Path, Problem, dotted
from geomodel.scenario.schema import Scenario


@dataclass
class Checker:
    """Collects problems with their positions in the scenario's files."""

    scenario: Scenario
    catalog: Catalog
    document: Document
    problems: list[Problem] = field(default_factory=list)

    def add(self, path: Path, message: str, value: object = None, warning: bool = False) -> None:
        extra = {} if value is None else {"value": value}
        self.problems.append(
            Problem(
                dotted(path),
                message,
                self.document.position(path),
                severity="warning" if warning else "error",
                **extra,
            )
        )

    def known(self, path: Path, name: str, names: dict | list, kind: str) -> bool:
        """True if ``name`` is in ``names``; otherwise a problem with the closest names."""
        if name in names:
            return True
        close = closest_names(name, list(names))
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        if not names:
            listing = f" (no {kind}s are loaded; see `geomodel plugins`)"
        else:
            listing = "" if close else f" (known: {', '.join(sorted(names)[:12])})"
        catalog_kind = _CATALOG_KINDS.get(kind)
        note = self.catalog.failure_note(catalog_kind, name) if catalog_kind else ""
        self.add(path, f"unknown {kind} {name!r}{hint}{listing}" + (f"; {note}" if note else ""))
        return False


#: the words ``Checker.known`` uses for a kind -> the catalogue kind it looks in
_CATALOG_KINDS = {
    "hardware system": "hardware systems",
    "link technology": "link technologies",
    "power source": "power sources",
    "grid power source": "power sources",
    "language model": "language models",
}
