"""Built-in data-centre interconnect technologies, from ``plugins/data/link_technologies.csv``.

Standard single-mode fibre with 400ZR, 400ZR+ and 800ZR optics, and hollow-core
fibre with 800ZR optics. Every figure keeps its source in ``figure_sources``;
``docs/catalogues.md`` shows how each was derived.
"""

from __future__ import annotations

from geomodel.catalog.entries import LinkTechnology
from geomodel.hookspecs import hookimpl

from ._tables import entry_fields, figure_sources, read_table

GEOMODEL_PLUGIN_API = "1"


@hookimpl
def register_link_technologies() -> list[LinkTechnology]:
    """The built-in link technologies, one per table row."""
    fields = LinkTechnology.model_fields
    return [
        LinkTechnology(**entry_fields(row, fields), figure_sources=figure_sources(row, fields))
        for row in read_table("link_technologies")
    ]
