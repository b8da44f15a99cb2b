"""``geomodel size``, ``reliability`` and ``dci``: the analytic tools of DESIGN section 6."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the analytic-tool commands to the CLI."""
