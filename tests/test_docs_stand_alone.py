"""The repository stands alone: a clone has no design notes or facts sheet beside it
(issue 24, item 16), so nothing in the README, the docs, the scenarios, the Python
sources or the data tables may point there, and the tables the docs and scenarios cite
are in the repository with their sources."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: the other files a user reads, by area; this file is left out, as it spells the pattern
SOURCES = {
    "scenarios": sorted(
        p for p in (ROOT / "scenarios").rglob("*") if p.suffix in {".yaml", ".md", ".py"}
    ),
    **{
        folder: sorted((ROOT / folder).rglob("*.py"))
        for folder in ("geomodel", "plugins", "bench", "examples")
    },
    "tests": sorted(p for p in (ROOT / "tests").rglob("*.py") if p != Path(__file__).resolve()),
    "app.py": [ROOT / "app.py"],
    # the data tables, whose source columns name where each figure came from
    "plugins/data": sorted((ROOT / "plugins" / "data").glob("*.csv")),
    "docs/data": sorted((ROOT / "docs" / "data").rglob("*.csv")),
}
#: what only the founders' workspace has: its design notes, its facts sheet, its folder,
#: and the sheet's tables by their bare names (the repository's copies are cited by path,
#: docs/data/sites.csv, or under their own names)
OUTSIDE = re.compile(
    r"shared/|DESIGN|\bFACTS\b|(?i:shared facts|facts[ -]sheet)"
    r"|(?<![\w/])(?:sites|links)\.csv|example_dci_routes"
)


def _outside_references(paths: list[Path]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(ROOT)) for p in DOCS])
def test_no_doc_refers_outside_the_repository(path):
    assert _outside_references([path]) == []


@pytest.mark.parametrize("area", SOURCES)
def test_no_scenario_or_source_file_refers_outside_the_repository(area):
    assert SOURCES[area], area  # a moved folder must not make the check pass vacuously
    assert _outside_references(SOURCES[area]) == []


@pytest.mark.parametrize(
    "line",
    [
        "# PUE 1.14 (FACTS 4.5: direct liquid 1.08-1.2)",
        "cited in a comment as `FACTS <section>`",
        '"""The placement model of DESIGN section 4."""',
        "x 4.9 us/km x 2 + 2 ms overhead (DESIGN 4).",
        "# Facts used (../shared/facts), each as it is cited:",
        "``python bench/make_hourly_2023.py /path/to/shared/facts/hourly/2023``",
        "# Sources. Sites: shared facts sites.csv where the campus is there",
        "# not in the facts sheet]. Here the whole run must finish in the week.",
        "8U server (shared facts hardware.csv) [estimate]",
        "  abilene:                           # sites.csv us_abilene_stargate",
        "# cluster reported at Qingyang (sites.csv [press]); 4.5 MW IT",
        "Seven campuses from `sites.csv`: three GB200 NVL72 campuses",
        "# A pair carries 25.6 Tb/s (links.csv); a frontier run's exchange is",
        "# the method of example_dci_routes.csv (Bozkurt et al. median conduit factor);",
        "    # example_dci_routes: 199.9 km great circle x 1.3 = 259.9 fibre km",
    ],
)
def test_the_pattern_catches_each_form_of_reference(line):
    assert OUTSIDE.search(line)


@pytest.mark.parametrize(
    "line",
    [
        'ARTIFACTS = REPO / "test-artifacts"',
        "  abilene:                           # docs/data/sites.csv us_abilene_stargate",
        "Seven campuses from [docs/data/sites.csv](../docs/data/sites.csv): three GB200",
        "# A pair carries 25.6 Tb/s (plugins/data/link_technologies.csv); a frontier run's",
        "# the method of docs/data/dci/example_routes.csv (Bozkurt et al.);",
    ],
)
def test_the_pattern_spares_the_repositorys_own_files(line):
    assert not OUTSIDE.search(line)


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


def test_the_sites_keep_their_sources_and_source_types():
    rows = list(csv.DictReader((ROOT / "docs/data/sites.csv").open(encoding="utf-8")))
    assert len(rows) == 33
    assert {r["source_type"] for r in rows} <= {"vendor", "paper", "agency", "press", "estimate"}
    assert all(r["source"] for r in rows if r["source_type"] != "estimate")
