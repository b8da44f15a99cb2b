"""Sweep files: a base scenario and the variations to run, expanded into cases.

A sweep names its base scenario (relative to the sweep file) and one of:

* ``grid``: dotted field path -> list of values; the Cartesian product;
* ``zip``: dotted field path -> list of values, all of one length, taken together;
  with ``grid`` too, the zipped block is one more axis of the product;
* ``cases``: a list of named runs, each with its own ``variants`` and ``set``;
* ``pareto``: ``{term: latency | carbon, points: N}``, an epsilon-constraint front.

``variants`` and ``set`` at the top apply to every case.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from geomodel.scenario.errors import problems_from_validation
from geomodel.scenario.files import read_document
from geomodel.scenario.problems import Problem, ScenarioError


class Case(BaseModel):
    """One run of a sweep."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.=-]*$", max_length=120)
    variants: list[str] = Field(default_factory=list)
    set: dict[str, Any] = Field(default_factory=dict, description="dotted path -> value")
    parameters: dict[str, Any] = Field(default_factory=dict, description="swept values, by path")


class ParetoSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    term: Literal["latency", "carbon"]
    points: int = Field(ge=2, le=200)


class Sweep(BaseModel):
    """A sweep file."""

    model_config = ConfigDict(extra="forbid")

    name: str = ""
    description: str = ""
    base: str = Field(description="scenario file, relative to the sweep file")
    variants: list[str] = Field(default_factory=list, description="applied to every case")
    set: dict[str, Any] = Field(default_factory=dict, description="applied to every case")
    grid: dict[str, list[Any]] = Field(default_factory=dict)
    zip: dict[str, list[Any]] = Field(default_factory=dict)
    cases: list[Case] = Field(default_factory=list)
    pareto: ParetoSpec | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Sweep:
        lengths = {path: len(values) for path, values in self.zip.items()}
        if len(set(lengths.values())) > 1:
            each = ", ".join(f"{path} has {count}" for path, count in lengths.items())
            raise ValueError(f"zip lists must have one length: {each}")
        for path, values in {**self.grid, **self.zip}.items():
            if not values:
                raise ValueError(f"{path}: give at least one value")
        if self.cases and (self.grid or self.zip):
            raise ValueError("give 'cases' or 'grid'/'zip', not both")
        if self.pareto and (self.grid or self.zip or self.cases):
            raise ValueError("a pareto sweep runs the base scenario alone; drop grid, zip and cases")
        names = [case.name for case in self.cases]
        duplicated = sorted({n for n in names if names.count(n) > 1})
        if duplicated:
            raise ValueError(f"case names must be unique, repeated: {duplicated}")
        return self

    def expand(self) -> list[Case]:
        """Every case of the sweep, in a stable order."""
        if self.cases:
            return [
                Case(
                    name=c.name,
                    variants=[*self.variants, *c.variants],
                    set={**self.set, **c.set},
                    parameters={**c.parameters, "case": c.name},
                )
                for c in self.cases
            ]
        axes: list[list[dict[str, Any]]] = [
            [{path: value} for value in values] for path, values in self.grid.items()
        ]
        if self.zip:
            count = len(next(iter(self.zip.values())))
            axes.append([{p: v[i] for p, v in self.zip.items()} for i in range(count)])
        combos = [
            dict(kv for part in combo for kv in part.items()) for combo in itertools.product(*axes)
        ]
        width = max(3, len(str(len(combos))))
        return [
            Case(
                name=f"case{index:0{width}d}",
                variants=list(self.variants),
                set={**self.set, **combo},
                parameters=combo,
            )
            for index, combo in enumerate(combos)
        ]


def load_sweep(path: str | Path) -> tuple[Sweep, Path]:
    """The validated sweep and the absolute path of its base scenario."""
    path = Path(path)
    document = read_document(path)
    try:
        sweep = Sweep.model_validate(document.data)
    except ValidationError as error:
        raise ScenarioError(problems_from_validation(error, Sweep, document), str(path)) from None
    base = (path.resolve().parent / sweep.base).resolve()
    if not base.is_file():
        raise ScenarioError(
            [Problem("base", "base scenario not found", document.position(("base",)), sweep.base)],
            str(path),
        )
    return sweep, base
