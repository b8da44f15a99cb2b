"""How problems are shown: file:line, field path, message, value; errors first, by line."""

from __future__ import annotations

from datetime import UTC, datetime

from geomodel.scenario.problems import Position, Problem, ScenarioError, dotted


def test_a_problem_reads_file_line_path_message_and_value():
    problem = Problem("sites.a.pue", "must lie in [1, 3]", Position("s.yaml", 7), 0.9)
    assert str(problem) == "s.yaml:7: sites.a.pue: must lie in [1, 3] (got 0.9)"
    assert str(Problem("", "the file is empty", Position("s.yaml"))) == "s.yaml: the file is empty"


def test_values_are_shown_short_and_dates_as_iso():
    long = Problem("name", "too long", value="x" * 100)
    assert str(long).endswith("xxx...)") and len(str(long)) < 100  # 72 characters of value
    when = Problem("time.start", "bad", value=datetime(2025, 1, 1, tzinfo=UTC))
    assert str(when) == "time.start: bad (got 2025-01-01T00:00:00+00:00)"


def test_paths_are_dotted_with_list_indices():
    assert dotted(("links", "routes", 0, "sites", 1)) == "links.routes[0].sites[1]"


def test_errors_come_first_by_file_and_line_and_warnings_are_counted_apart():
    found = [
        Problem("b", "late", Position("main.yaml", 9)),
        Problem("w", "careful", Position("main.yaml", 1), severity="warning"),
        Problem("c", "imported", Position("part.yaml", 2)),
        Problem("a", "early", Position("main.yaml", 3)),
    ]
    error = ScenarioError(found, "main.yaml")
    assert str(error).splitlines() == [
        "main.yaml: 3 problems found (and 1 warning)",
        "  main.yaml:3: a: early",
        "  main.yaml:9: b: late",
        "  part.yaml:2: c: imported",
        "  main.yaml:1: warning: w: careful",
    ]


def test_a_problem_without_a_value_says_so_in_its_repr():
    """Issue 13, item 17: the repr showed value=<object object at 0x...>."""
    shown = repr(Problem("sites.a.lat", "required field is missing"))
    assert "object at 0x" not in shown
    assert "value=NO_VALUE" in shown
