"""YAML alias bombs are refused before anything expands them (issue 15, item 9).

Timing lives in bench/yaml_bombs.py; here the refusal, its words, and the proof that
the expanding code never runs (it is replaced by a function that fails the test).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import geomodel.scenario.files as files
from geomodel.scenario import ScenarioError, load_scenario, load_scenario_text
from geomodel.scenario.files import parse_text
from geomodel.scenario.problems import Position
from geomodel.scenario.yaml_guard import MAX_ALIAS_VALUES, check_expansion


def bomb(levels: int, width: int = 9) -> str:
    """``levels`` anchors, each a list of ``width`` aliases of the one before: the last
    stands for width**levels scalars (10 levels of 9: 3.5e9 values in ~530 bytes)."""
    lines = ["a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * width) + "]")
    lines.append(f"name: [*a{levels - 1}]")
    return "\n".join(lines) + "\n"


@pytest.fixture
def nothing_expands(monkeypatch):
    """Fail the test if the tree is walked with its aliases expanded or built."""

    def expanded(*_args, **_kwargs):
        raise AssertionError("the aliases were expanded")

    monkeypatch.setattr(files, "_duplicate_keys", expanded)
    monkeypatch.setattr(files._Plain, "convert", expanded)


def test_a_ten_level_bomb_is_refused_before_expansion(nothing_expands):
    text = bomb(10)
    assert len(text) < 600
    with pytest.raises(ScenarioError) as raised:
        parse_text(text, "bomb.yaml")
    (problem,) = raised.value.problems
    # written: the root mapping, 10 lists, 9 scalars of a0, the list of name = 21 nodes.
    # a0 expands to 10 values, a1 to 1 + 9 x 10 = 91, a2 to 820, a3 to 7,381, a4 to
    # 66,430 and a5 to 1 + 9 x 66,430 = 597,871: a5 is the first node past 21 + 100,000.
    assert problem.message.startswith(
        "YAML aliases expand the file to more than 100,021 values (21 written, "
        "at most 100,000 more repeated by aliases); refused before expanding them"
    )
    assert problem.path == "a5"
    assert problem.position == Position("bomb.yaml", 6)


def test_the_cli_and_the_app_loaders_refuse_it_too(tmp_path, catalog, nothing_expands):
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb(10))
    with pytest.raises(ScenarioError, match="refused before expanding"):
        load_scenario(path, catalog=catalog)
    with pytest.raises(ScenarioError, match="refused before expanding"):
        load_scenario_text(bomb(10), tmp_path, "upload.yaml", catalog=catalog)


def test_geomodel_validate_answers_with_one_line(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb(12))
    done = subprocess.run(
        [sys.executable, "-m", "geomodel", "validate", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "refused before expanding them" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_the_count_follows_the_expansion_by_hand():
    # a: 1 list + 3 scalars = 4 values; b: 1 list + 2 x 4 = 9; the root 1: 14 in all.
    # Written nodes: root, a's list, 3 scalars, b's list = 6, so aliases add 8.
    text = "a: &a [1, 2, 3]\nb: [*a, *a]\n"
    root = files.YAML(typ="rt").compose(text)
    check_expansion(root, "t.yaml", limit=14, alias_limit=8)
    with pytest.raises(ScenarioError, match="more than 13 values"):
        check_expansion(root, "t.yaml", limit=13, alias_limit=8)
    with pytest.raises(ScenarioError, match=r"more than 13 values \(6 written, at most 7 more"):
        check_expansion(root, "t.yaml", limit=14, alias_limit=7)
    assert parse_text(text, "t.yaml").data == {"a": [1, 2, 3], "b": [[1, 2, 3], [1, 2, 3]]}


@pytest.mark.parametrize("text", ["a: &a [1, *a]\n", "a: &a {b: *a}\n"])
def test_a_recursive_alias_is_refused(text, nothing_expands):
    with pytest.raises(ScenarioError) as raised:
        parse_text(text, "r.yaml")
    (problem,) = raised.value.problems
    assert "recursive YAML alias" in problem.message
    assert problem.position == Position("r.yaml", 1)


def test_reuse_within_the_budget_still_works():
    # one 24-value daily shape aliased by 1,000 regions adds 24,000 values: allowed
    shape = "[" + ", ".join(["1"] * 24) + "]"
    regions = "\n".join(f"  r{i}: {{daily_shape: *shape}}" for i in range(1000))
    text = f"shape: &shape {shape}\nregions:\n{regions}\n"
    document = parse_text(text, "ok.yaml")
    assert document.data["regions"]["r999"]["daily_shape"] == [1] * 24
    assert MAX_ALIAS_VALUES > 1000 * 24
