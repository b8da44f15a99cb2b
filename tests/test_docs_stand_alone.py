"""The README and docs stand alone: a clone has no design notes or facts sheet beside it
(issue 24, item 16), so nothing in them may point there, and the tables they cite are
in the repository with their sources."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: what only the founders' workspace has: its design notes, its facts sheet, its folder
OUTSIDE = re.compile(r"shared/|DESIGN|FACTS\b")


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_no_doc_refers_outside_the_repository(path):
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_every_relative_link_of_a_doc_exists(path):
    text = path.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    missing = [t for t in targets if not (path.parent / t).exists()]
    assert missing == []


def test_the_example_routes_keep_their_method_and_source_type():
    rows = list(csv.DictReader((ROOT / "docs/data/dci/example_routes.csv").open(encoding="utf-8")))
    assert len(rows) == 23
    assert all(r["method"].startswith("computed: ") and r["source_type"] == "estimate" for r in rows)
