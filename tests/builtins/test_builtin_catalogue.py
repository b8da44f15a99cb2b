"""The built-in catalogue as a whole: valid entries, typed sources, unique names, docs."""

from __future__ import annotations

import re
from pathlib import Path

from geomodel.catalog import CATALOG_KINDS, Catalog

BUILTIN_PLUGINS = {"hardware", "dci", "grid", "solar", "wind", "firm"}
TYPE_TAG = re.compile(r"\[(vendor|paper|agency|press|estimate)\]\s*$")
DOCS = Path(__file__).parents[2] / "docs" / "catalogues.md"


def builtin_entries(catalog: Catalog) -> list:
    return [
        catalog.entries(kind)[name]
        for (kind, name), plugin in catalog.provider.items()
        if plugin in BUILTIN_PLUGINS
    ]


def test_every_builtin_plugin_loads_without_failures(catalog: Catalog) -> None:
    assert set(catalog.plugins) >= BUILTIN_PLUGINS
    assert [f for f in catalog.failures if f.name in BUILTIN_PLUGINS] == []


def test_every_entry_carries_a_source_and_typed_figure_sources(catalog: Catalog) -> None:
    for entry in builtin_entries(catalog):
        assert entry.source.strip(), entry.name
        for field, text in entry.figure_sources.items():
            assert TYPE_TAG.search(text), f"{entry.name}.{field}: {text!r} lacks a [type] tag"


def test_names_are_unique_across_all_kinds(catalog: Catalog) -> None:
    names = [entry.name for entry in builtin_entries(catalog)]
    assert len(names) == len(set(names))
    assert sum(len(catalog.entries(kind)) for kind in CATALOG_KINDS) >= len(names)


def test_every_entry_is_documented_in_catalogues_md(catalog: Catalog) -> None:
    text = DOCS.read_text(encoding="utf-8")
    missing = [e.name for e in builtin_entries(catalog) if f"`{e.name}`" not in text]
    assert missing == []
