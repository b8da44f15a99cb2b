"""docs/catalogues.md holds the grid-region table generated from the catalogue, current."""

from __future__ import annotations

from pathlib import Path

from geomodel_builtins.power import grid_table

DOC = Path(__file__).parents[3] / "docs" / "catalogues.md"


def test_the_grid_table_in_the_docs_is_current():
    doc = DOC.read_text(encoding="utf-8")
    assert doc == grid_table.render(doc), (
        "run: python -m geomodel_builtins.power.grid_table docs/catalogues.md"
    )


def test_every_region_has_one_row_naming_its_series():
    rows = [line for line in grid_table.table().splitlines()[2:]]
    assert len(rows) == 42
    va = next(row for row in rows if row.startswith("| `grid_us_va_pjm` |"))
    # measured PJM price, mean 35.74; default adder 89.2 - 35.74; eGRID's 290 for the shape
    assert "| measured `US-MIDA-PJM` | 35.74 | 53.46 |" in va
    assert "| 35 | 290 D |" in va
