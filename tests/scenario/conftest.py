"""Helpers for scenario tests: a small valid scenario as YAML text, and ways to
load a variation of it and look at the problems it has.

Tests change the base text with plain string edits, so the line a problem
should name can be found in the text the test wrote (:func:`line_of`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from geomodel.catalog import Catalog
from geomodel.scenario import Problem, Scenario, ScenarioError, load_scenario

#: A valid scenario: two European sites, one user region, one job, one service, 24 h.
BASE = """\
name: tiny
time:
  start: 2025-01-01T00:00:00+00:00
  hours: 24
sites:
  fra:
    lat: 50.11
    lon: 8.68
    grid: grid_de
    power_envelope: 20 MW
    pue: 1.2
    systems: {hgx_h100_8: 100}
    jurisdiction: EU
  ams:
    lat: 52.37
    lon: 4.90
    grid: grid_nl
    power_envelope: 20 MW
    cooling: evaporative
    systems: {gb200_nvl72: 4}
    jurisdiction: EU
regions:
  paris:
    lat: 48.86
    lon: 2.35
    demand:
      chat: 1e6 token/s
training:
  pretrain:
    compute: 1e21 FLOP
    gradient_size: 14 GB
    tp: 8
inference:
  chat:
    active_params: 8e9
    efficiency: 0.3
    sla: 30 ms
"""


def line_of(text: str, needle: str, after: int = 0) -> int:
    """1-based number of the first line (after line ``after``) containing ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if number > after and needle in line:
            return number
    raise AssertionError(f"{needle!r} is not in the text")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def load(folder: Path, text: str, catalog: Catalog, **kwargs) -> Scenario:
    """Write ``text`` as ``scenario.yaml`` in ``folder`` and load it."""
    return load_scenario(write(folder, "scenario.yaml", text), catalog=catalog, **kwargs)


def problems(folder: Path, text: str, catalog: Catalog, **kwargs) -> list[Problem]:
    """The problems loading ``text`` reports (it must fail)."""
    with pytest.raises(ScenarioError) as raised:
        load(folder, text, catalog, **kwargs)
    return raised.value.problems


def errors(folder: Path, text: str, catalog: Catalog, **kwargs) -> list[Problem]:
    return [p for p in problems(folder, text, catalog, **kwargs) if p.severity == "error"]


def only_error(folder: Path, text: str, catalog: Catalog, **kwargs) -> Problem:
    found = errors(folder, text, catalog, **kwargs)
    assert len(found) == 1, "\n".join(map(str, found))
    return found[0]


def assert_names(
    problem: Problem,
    *,
    file: Path | str,
    line: int | None,
    path: str,
    allowed: str,
    value: object = None,
) -> None:
    """The problem names the file:line, the field path, the value and what is allowed."""
    text = str(problem)
    where = f"{file}:{line}" if line is not None else str(file)
    assert text.startswith(f"{where}: "), text
    assert problem.path == path, text
    assert allowed in problem.message, text
    if value is not None:
        assert problem.value == value, text
        assert f"(got {value!r})" in text, text
