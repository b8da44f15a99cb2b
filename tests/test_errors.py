"""User-facing errors: one line, with the closest names."""

from __future__ import annotations

from geomodel.errors import UnknownNameError, UsageError, closest_names


def test_closest_names_prefers_similar_then_containing():
    known = ["gb200_nvl72", "gb300_nvl72", "hgx_h100_8", "hgx_h200_8"]
    assert closest_names("gb200", known)[0] == "gb200_nvl72"
    assert closest_names("h100", known) == ["hgx_h100_8"]
    assert closest_names("zzzz", known) == []


def test_unknown_name_error_is_one_line_with_suggestions():
    error = UnknownNameError("hardware system", "gb200", ["gb200_nvl72", "hgx_h100_8"])
    text = str(error)
    assert "\n" not in text
    assert text.startswith("unknown hardware system 'gb200'; did you mean gb200_nvl72?")


def test_usage_error_names_the_option():
    assert str(UsageError("--chips", "must be > 0, got -5")) == "--chips: must be > 0, got -5"


def test_scenario_error_is_one_of_geomodels_errors_where_they_all_are():
    """Issue 24, item 6: ``from geomodel.errors import ScenarioError`` failed."""
    import geomodel
    import geomodel.scenario
    from geomodel.errors import GeomodelError, ScenarioError
    from geomodel.scenario.problems import Position, Problem

    assert ScenarioError is geomodel.ScenarioError is geomodel.scenario.ScenarioError
    error = ScenarioError([Problem("a.b", "bad", Position("s.yaml", 3))], "s.yaml")
    assert isinstance(error, GeomodelError)
    assert str(error) == "s.yaml: 1 problem found\n  s.yaml:3: a.b: bad"
