"""docs/scenarios.md documents every field of the schema, and nothing else.

The field tables are generated from the schema (geomodel.scenario.reference);
these tests fail when the page is stale, when a table names a field the schema
lacks or misses one it has, or when a field has no description or example.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import TypeAdapter

from geomodel.scenario import load_scenario_text
from geomodel.scenario.introspect import field_unit
from geomodel.scenario.reference import render, sections

DOC = Path(__file__).parents[2] / "docs" / "scenarios.md"
REGENERATE = "run: python -m geomodel.scenario.reference docs/scenarios.md"


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def documented_fields(doc: str) -> dict[str, list[str]]:
    """Section path -> field names, read from the page's tables."""
    found: dict[str, list[str]] = {}
    current = None
    for line in doc.splitlines():
        heading = re.match(r"^### (?:`(.+)`|top level)$", line)
        if heading:
            current = heading.group(1) or ""
            found[current] = []
        elif current is not None and (row := re.match(r"^\| `(\w+)` \|", line)):
            found[current].append(row.group(1))
    return found


def test_the_page_is_up_to_date_with_the_schema(doc):
    assert doc == render(doc), REGENERATE


def test_every_schema_field_is_documented_and_every_documented_field_exists(doc):
    documented = documented_fields(doc)
    schema = {path: list(model.model_fields) for path, model in sections()}
    missing = {
        f"{path}.{name}".lstrip(".")
        for path, names in schema.items()
        for name in names
        if name not in documented.get(path, [])
    }
    unknown = {
        f"{path}.{name}".lstrip(".")
        for path, names in documented.items()
        for name in names
        if name not in schema.get(path, [])
    }
    assert missing == set(), f"fields missing from docs/scenarios.md; {REGENERATE}"
    assert unknown == set(), f"docs/scenarios.md names fields the schema lacks; {REGENERATE}"


def test_every_field_has_a_description_and_an_example():
    for path, model in sections():
        for name, field in model.model_fields.items():
            assert field.description, f"{path}.{name} has no description"
            assert field.examples, f"{path}.{name} has no example"


def test_every_number_field_names_its_unit():
    for path, model in sections():
        for name, field in model.model_fields.items():
            annotation = str(field.annotation)  # whole words: a Literal's 'int8' is no number
            if re.search(r"\b(float|int)\b", annotation) and "dict" not in annotation:
                assert field_unit(field), f"{path}.{name} has no unit"


def test_the_documented_examples_are_valid(doc, tmp_path, catalog):
    blocks = re.findall(r"```yaml\n(# scenario:.*?)```", doc, re.DOTALL)
    assert blocks, "the page shows at least one whole scenario"
    for block in blocks:
        load_scenario_text(block, tmp_path, catalog=catalog)


def test_every_field_example_passes_the_field_validation():
    for path, model in sections():
        for name, field in model.model_fields.items():
            example = field.examples[0]
            if "..." in json.dumps(example):
                continue  # a section shown in outline; its own fields have examples
            adapter = TypeAdapter(Annotated[field.annotation, field])
            try:
                adapter.validate_python(example)
            except ValueError as error:
                raise AssertionError(f"the example of {path}.{name} is invalid: {error}") from None
