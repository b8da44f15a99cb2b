"""The one merge rule of imports, variants and overrides: mappings merge, the rest replaces."""

from __future__ import annotations

from geomodel.scenario.merge import deep_merge, nest


def test_mappings_merge_key_by_key_and_lists_and_scalars_replace():
    base = {"a": {"x": 1, "y": [1, 2], "z": {"deep": 1, "keep": 2}}, "b": 5}
    top = {"a": {"y": [3], "z": {"deep": 9}}, "b": {"now": "a mapping"}, "c": None}
    assert deep_merge(base, top) == {
        "a": {"x": 1, "y": [3], "z": {"deep": 9, "keep": 2}},
        "b": {"now": "a mapping"},
        "c": None,
    }


def test_a_scalar_replaces_a_mapping():
    assert deep_merge({"a": {"x": 1}}, {"a": 3}) == {"a": 3}


def test_neither_argument_is_changed():
    base = {"a": {"x": [1]}}
    top = {"a": {"y": [2]}}
    merged = deep_merge(base, top)
    merged["a"]["x"].append(99)
    merged["a"]["y"].append(99)
    assert base == {"a": {"x": [1]}}
    assert top == {"a": {"y": [2]}}


def test_nest_turns_a_dotted_path_into_mappings():
    assert nest("objective.carbon_price", 50) == {"objective": {"carbon_price": 50}}
    assert nest("name", "x") == {"name": "x"}
