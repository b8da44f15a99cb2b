"""Reading scenario YAML: syntax errors, duplicate keys, tags, imports, line numbers."""

from __future__ import annotations

import pytest

from geomodel.scenario import ScenarioError
from geomodel.scenario.files import MAX_VALUES, parse_text, read_document
from geomodel.scenario.problems import Position

from .conftest import BASE, line_of, load, write


def read_problems(path) -> list:
    with pytest.raises(ScenarioError) as raised:
        read_document(path)
    return raised.value.problems


def test_values_keep_the_file_and_line_they_came_from(tmp_path):
    path = write(tmp_path, "scenario.yaml", BASE)
    document = read_document(path)
    assert document.positions[("sites", "ams", "cooling")] == Position(
        str(path), line_of(BASE, "cooling: evaporative")
    )
    assert document.position(("sites", "fra", "systems", "hgx_h100_8")) == Position(
        str(path), line_of(BASE, "systems: {hgx_h100_8: 100}")
    )
    assert document.files == [path]


def test_files_are_named_as_the_user_named_the_top_file(tmp_path, monkeypatch):
    write(tmp_path, "study/scenario.yaml", "import: parts/sites.yaml\nname: x\n")
    write(tmp_path, "study/parts/sites.yaml", "sites: {a: {pue: 0.5}}\n")
    monkeypatch.chdir(tmp_path)
    document = read_document("study/scenario.yaml")
    assert document.positions[("sites", "a", "pue")] == Position("study/parts/sites.yaml", 1)
    assert document.positions[("name",)] == Position("study/scenario.yaml", 2)


def test_a_yaml_syntax_error_names_file_and_line(tmp_path):
    text = "name: x\ntime:\n  start: 2025-01-01T00:00:00Z\n  hours: [24\nsites: {}\n"
    path = write(tmp_path, "broken.yaml", text)
    (problem,) = read_problems(path)
    assert problem.position.file == str(path)
    assert problem.position.line in (4, 5)  # where the flow sequence opened or broke
    assert str(problem).startswith(f"{path}:{problem.position.line}: YAML syntax error")


def test_an_unclosed_quote_names_the_line_where_it_started(tmp_path):
    path = write(tmp_path, "broken.yaml", 'name: x\ndescription: "unfinished\nsites: {}\n')
    (problem,) = read_problems(path)
    assert "YAML syntax error" in problem.message
    assert "started at line 2" in problem.message


def test_an_empty_file_is_a_problem_naming_the_file(tmp_path):
    path = write(tmp_path, "empty.yaml", "# only a comment\n")
    (problem,) = read_problems(path)
    assert str(problem) == f"{path}: the file is empty; a scenario is a mapping of fields"


@pytest.mark.parametrize(
    ("text", "kind"), [("- a\n- b\n", "a list"), ("just words\n", "the text 'just words'")]
)
def test_the_top_level_must_be_a_mapping(tmp_path, text, kind):
    path = write(tmp_path, "list.yaml", text)
    (problem,) = read_problems(path)
    assert str(problem) == (
        f"{path}:1: the top level must be a mapping of fields (time:, sites:, ...), got {kind}"
    )


def test_every_duplicate_key_is_reported_with_both_lines_and_its_path(tmp_path):
    text = BASE.replace("    pue: 1.2\n", "    pue: 1.2\n    pue: 1.3\n", 1)
    text = text.replace("  ams:\n", "  fra:\n", 1)  # a second site with the name of the first
    text += "name: again\n"
    path = write(tmp_path, "scenario.yaml", text)
    found = read_problems(path)
    pue_1, pue_2 = line_of(text, "pue: 1.2"), line_of(text, "pue: 1.3")
    fra_1, fra_2 = line_of(text, "  fra:"), line_of(text, "  fra:", after=line_of(text, "  fra:"))
    name_1, name_2 = line_of(text, "name: tiny"), line_of(text, "name: again")
    assert [(p.path, p.position.line) for p in found] == [
        ("sites.fra.pue", pue_2),
        ("sites.fra", fra_2),
        ("name", name_2),
    ]
    assert f"duplicate key 'pue' (lines {pue_1} and {pue_2})" in found[0].message
    assert f"duplicate key 'fra' (lines {fra_1} and {fra_2})" in found[1].message
    assert f"duplicate key 'name' (lines {name_1} and {name_2})" in found[2].message


@pytest.mark.parametrize("section", ["sites", "regions", "training", "inference"])
def test_a_name_defined_twice_in_a_section_is_a_duplicate_key(tmp_path, section, catalog):
    first = {"sites": "  fra:", "regions": "  paris:", "training": "  pretrain:", "inference": "  chat:"}
    name_line = first[section]
    start = line_of(BASE, f"{section}:")
    lines = BASE.splitlines(keepends=True)
    at = line_of(BASE, name_line, after=start)
    block = [lines[at - 1]]
    for line in lines[at:]:
        if not line.startswith("    "):
            break
        block.append(line)
    end = at + len(block) - 1
    text = "".join(lines[:end] + block + lines[end:])
    with pytest.raises(ScenarioError) as raised:
        load(tmp_path, text, catalog)
    (problem,) = raised.value.problems
    name = name_line.strip(" :")
    assert problem.path == f"{section}.{name}"
    assert f"duplicate key {name!r} (lines {at} and {end + 1})" in problem.message


def test_keys_merged_from_an_anchor_take_the_line_of_their_mapping(tmp_path):
    text = "base: &b {pue: 1.2}\nsites:\n  a:\n    <<: *b\n    lat: 1\n"
    document = parse_text(text, "t.yaml")
    assert document.data["sites"]["a"] == {"lat": 1, "pue": 1.2}
    assert document.positions[("sites", "a", "pue")] == Position("t.yaml", 3)


@pytest.mark.parametrize(
    "value",
    ["!!python/object/apply:os.system ['true']", "!custom {a: 1}", "!!binary aGVsbG8=", "!!set {a}"],
)
def test_tags_and_non_plain_values_are_refused(value):
    with pytest.raises(ScenarioError) as raised:
        parse_text(f"name: x\ndescription: {value}\n", "t.yaml")
    (problem,) = raised.value.problems
    assert problem.path == "description"
    assert problem.position == Position("t.yaml", 2)
    assert "not allowed" in problem.message


def test_an_alias_bomb_is_refused(monkeypatch):
    import geomodel.scenario.files as files

    monkeypatch.setattr(files, "MAX_VALUES", 1000)
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for level in "bcdef":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [" + ", ".join([f"*{previous}"] * 10) + "]")
    with pytest.raises(ScenarioError) as raised:
        parse_text("\n".join(lines) + "\n", "bomb.yaml")
    assert "more than 1,000 values" in raised.value.problems[0].message
    assert MAX_VALUES >= 100_000  # the real budget leaves room for year-long inline lists


def test_imports_are_relative_to_the_importing_file_and_merge_under_it(tmp_path):
    write(tmp_path, "main.yaml", "import: [parts/common.yaml]\nname: main\nsolver: {threads: 2}\n")
    common = "import: more/deeper.yaml\nsolver: {threads: 1, mip_gap: 0.1}\n"
    write(tmp_path, "parts/common.yaml", common)
    write(tmp_path, "parts/more/deeper.yaml", "description: from deep\nname: deep\n")
    document = read_document(tmp_path / "main.yaml")
    assert document.data == {
        "description": "from deep",
        "name": "main",
        "solver": {"threads": 2, "mip_gap": 0.1},
    }
    assert document.positions[("solver", "mip_gap")] == Position(str(tmp_path / "parts/common.yaml"), 2)
    assert "import" not in document.data
    assert [p.name for p in document.files] == ["deeper.yaml", "common.yaml", "main.yaml"]


def test_every_missing_import_is_reported_with_its_line(tmp_path):
    path = write(tmp_path, "main.yaml", "name: x\nimport:\n  - nothere.yaml\n  - sub/none.yaml\n")
    found = read_problems(path)
    assert [str(p) for p in found] == [
        f"{path}:3: import[0]: imported file does not exist (got 'nothere.yaml')",
        f"{path}:4: import[1]: imported file does not exist (got 'sub/none.yaml')",
    ]


def test_a_circular_import_shows_the_chain_at_the_line_that_closes_it(tmp_path):
    top = write(tmp_path, "top.yaml", "import: sub/a.yaml\n")
    write(tmp_path, "sub/a.yaml", "name: a\nimport: ../b.yaml\n")
    write(tmp_path, "b.yaml", "import: [sub/a.yaml]\n")
    (problem,) = read_problems(top)
    folder = tmp_path
    chain = " -> ".join(str(folder / p) for p in ["top.yaml", "sub/a.yaml", "b.yaml", "sub/a.yaml"])
    assert str(problem) == f"{folder / 'b.yaml'}:1: import[0]: circular import: {chain}"


def test_a_file_importing_itself_is_circular(tmp_path):
    path = write(tmp_path, "self.yaml", "import: self.yaml\n")
    (problem,) = read_problems(path)
    assert "circular import" in problem.message


def test_an_import_escaping_the_scenario_folder_is_refused(tmp_path):
    write(tmp_path, "outside.yaml", "name: outside\n")
    path = write(tmp_path, "study/main.yaml", "name: x\nimport: ../outside.yaml\n")
    (problem,) = read_problems(path)
    assert problem.path == "import[0]"
    assert problem.position == Position(str(path), 2)
    assert "escapes the scenario's folder" in problem.message
    assert problem.value == "../outside.yaml"


def test_an_import_that_is_not_a_file_name_is_refused(tmp_path):
    path = write(tmp_path, "main.yaml", "import: {a: 1}\n")
    (problem,) = read_problems(path)
    assert problem.path == "import"
    assert "list of file names" in problem.message


def test_an_imported_file_with_its_own_problems_names_itself(tmp_path):
    main = write(tmp_path, "main.yaml", "import: [a.yaml, b.yaml]\n")
    write(tmp_path, "a.yaml", "x: 1\nx: 2\n")
    write(tmp_path, "b.yaml", "y: [\n")
    found = read_problems(main)
    assert [p.position.file for p in found] == [str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")]


def test_a_file_that_is_not_utf8_is_a_problem(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    (problem,) = read_problems(path)
    assert "not UTF-8" in problem.message


def test_a_file_that_is_not_utf8_names_the_line_and_column(tmp_path):
    """Issue 13, item 15: the third line's 'caf' + a Latin-1 e-acute (0xe9)."""
    path = tmp_path / "latin.yaml"
    path.write_bytes("name: x\ndescription: ok\n# caf\xe9 au lait\n".encode("latin-1"))
    (problem,) = read_problems(path)
    assert problem.position == Position(str(path), 3)
    assert problem.message == (
        "the file is not UTF-8 text: byte 0xe9 at column 6 (invalid continuation byte); save it as UTF-8"
    )
