"""docs/plugins.md tells plugin authors what geomodel really checks and builds
(issue 13, item 6): every entry field's allowed range, the renewable kinds, and the
model names an extension may use."""

from __future__ import annotations

import re
from pathlib import Path

import annotated_types
import pytest

import geomodel
from geomodel.catalog import HardwareSystem, LinkTechnology, PowerSource
from geomodel.inputs.build import build_inputs
from geomodel.model.build import build_model
from geomodel.results.kpis import RENEWABLE_KINDS

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


def table_row(field: str) -> list[str]:
    """The cells of the guide's field-table row for ``field`` (the first such row)."""
    for line in GUIDE.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.strip().startswith("|") and cells[0] == f"`{field}`":
            return cells
    raise AssertionError(f"docs/plugins.md has no table row for `{field}`")


def _number(value: float) -> str:
    """1000000 rather than 1e+06; 0.05 as it is."""
    return f"{int(value)}" if float(value) == int(value) else f"{value:.10g}"


def allowed_range(entry_class, field: str) -> str | None:
    """The field's numeric range in the guide's notation: (0, 100], [3, 6], > 0."""
    low = high = None
    for constraint in entry_class.model_fields[field].metadata:
        if isinstance(constraint, annotated_types.Gt):
            low = f"({_number(constraint.gt)}"
        elif isinstance(constraint, annotated_types.Ge):
            low = f"[{_number(constraint.ge)}"
        elif isinstance(constraint, annotated_types.Lt):
            high = f"{_number(constraint.lt)})"
        elif isinstance(constraint, annotated_types.Le):
            high = f"{_number(constraint.le)}]"
    if low and high:
        return f"{low}, {high}"
    if low:
        return f"> {low[1:]}" if low.startswith("(") else f">= {low[1:]}"
    return None


NUMERIC = [
    (entry_class, field)
    for entry_class in (HardwareSystem, LinkTechnology, PowerSource)
    for field, info in entry_class.model_fields.items()
    if allowed_range(entry_class, field)
]


@pytest.mark.parametrize(
    ("entry_class", "field"), NUMERIC, ids=[f"{c.__name__}.{f}" for c, f in NUMERIC]
)
def test_every_numeric_fields_allowed_range_is_the_codes(entry_class, field):
    """Before: only two ranges were given, and a transceiver above 10 W per Gb/s was
    refused with nothing in the guide to say so."""
    row = table_row(field)
    assert allowed_range(entry_class, field) in row[-1], (field, row)


def test_the_transceiver_limit_that_surprised_authors_is_documented():
    assert table_row("transceiver_power_w_per_gbit_s")[-1] == "[0, 10]"


def test_the_renewable_kinds_are_the_ones_the_kpi_counts():
    found = re.search(r"The kinds (.*?) count\s+as renewable", GUIDE, flags=re.DOTALL)
    assert found, "docs/plugins.md does not say which kinds count as renewable"
    assert set(re.findall(r"`(\w+)`", found.group(1))) == set(RENEWABLE_KINDS)


def test_fibre_kind_is_described_as_a_label_the_model_does_not_read():
    row = table_row("fibre_kind")
    assert "computes nothing from it" in row[1]
    assert "ultra_low_loss_smf" in row[1]


def documented_model_names() -> list[tuple[str, str]]:
    """(name, index) of every row of the 'What an extension may use' table."""
    section = GUIDE.split("#### What an extension may use")[1].split("\n## ")[0]
    return re.findall(r"^\| `model\.(\w+)` \| (`\[[^\]]*\]`)? ?\|", section, flags=re.MULTILINE)


@pytest.fixture(scope="module")
def model(catalog):
    """A model on which every documented component has rows. Not the quickstart: its one
    job fits on one site and its links never congest, so it has no ``span`` and no
    ``flow`` (docs/model.md (6) builds them only where their rows can bind). plan-small's
    training may span its three sites, and the fibre it may light to The Dalles can fill."""
    scenario = geomodel.load_scenario(ROOT / "scenarios" / "plan-small.yaml", catalog=catalog)
    return build_model(build_inputs(scenario, catalog))


def test_the_table_of_model_names_is_there():
    names = [name for name, _ in documented_model_names()]
    assert {"train", "serve", "it_power_mw", "extra_supply_mw", "extra_cost_kusd", "balance"} <= set(
        names
    )


@pytest.mark.parametrize(("name", "index"), documented_model_names())
def test_each_documented_model_name_exists_with_its_index(model, name, index):
    assert hasattr(model, name), f"the model has no `{name}`"
    if name in ("inputs", "sets", "weight_hours"):
        return
    component = getattr(model, name)
    arity = len(index.strip("`[]").split(",")) if index else 0
    keys = list(component.keys()) if component.is_indexed() else [None]
    assert keys, f"`{name}` is empty on plan-small"
    first = keys[0]
    got = 0 if first is None else (len(first) if isinstance(first, tuple) else 1)
    assert got == arity, f"`{name}` is indexed by {got} positions, the guide shows {index}"
