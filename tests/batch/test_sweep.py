"""Sweep files: expansion into cases (sizes, names, parameters) and their errors.

No solver and no cluster here: these run in milliseconds.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from sweep_files import QUICKSTART, ROOT, TINY, write_sweep

from geomodel.batch.sweep import Sweep, load_sweep
from geomodel.scenario import ScenarioError

BASE = str(QUICKSTART)


def sweep(**fields) -> Sweep:
    return Sweep.model_validate({"base": BASE, **fields})


def test_grid_is_the_cartesian_product_in_a_stable_order():
    cases = sweep(
        variants=["carbon_price_100"],
        set=TINY,
        grid={"objective.carbon_price": [0, 50, 100], "inference.chat.sla": ["25 ms", "20 ms"]},
    ).expand()
    assert len(cases) == 6
    assert [c.name for c in cases] == [f"case{i:03d}" for i in range(6)]
    # the first path varies slowest
    assert [c.parameters for c in cases] == [
        {"objective.carbon_price": price, "inference.chat.sla": sla}
        for price in (0, 50, 100)
        for sla in ("25 ms", "20 ms")
    ]
    for case in cases:
        assert case.set == {**TINY, **case.parameters}
        assert case.variants == ["carbon_price_100"]


def test_zip_takes_the_lists_together_and_counts_as_one_axis_of_a_grid():
    zipped = {"objective.carbon_price": [0, 50, 100], "inference.chat.sla": ["30 ms", "25 ms", "20 ms"]}
    cases = sweep(zip=zipped).expand()
    assert [c.parameters for c in cases] == [
        {"objective.carbon_price": 0, "inference.chat.sla": "30 ms"},
        {"objective.carbon_price": 50, "inference.chat.sla": "25 ms"},
        {"objective.carbon_price": 100, "inference.chat.sla": "20 ms"},
    ]
    both = sweep(grid={"time.hours": [4, 6]}, zip=zipped).expand()
    assert len(both) == 2 * 3  # a product would be 2 * 3 * 3
    assert both[4].parameters == {
        "time.hours": 6,
        "objective.carbon_price": 50,
        "inference.chat.sla": "25 ms",
    }


def test_case_names_are_padded_to_the_number_of_cases():
    cases = sweep(grid={"a": list(range(10)), "b": list(range(10)), "c": list(range(10))}).expand()
    assert len(cases) == 1000
    assert (cases[0].name, cases[-1].name) == ("case0000", "case0999")


def test_a_grid_value_wins_over_the_same_path_in_set():
    (case,) = sweep(set={"time.hours": 6, "solver.threads": 1}, grid={"time.hours": [4]}).expand()
    assert case.set == {"time.hours": 4, "solver.threads": 1}


def test_cases_add_their_variants_and_set_to_the_sweeps():
    cases = sweep(
        variants=["carbon_price_100"],
        set={"time.hours": 6, "solver.threads": 1},
        cases=[
            {"name": "base"},
            {"name": "tight", "variants": ["tight_sla"], "set": {"time.hours": 4}},
            {"name": "priced", "set": {"objective.carbon_price": 50}, "parameters": {"price": 50}},
        ],
    ).expand()
    assert [c.name for c in cases] == ["base", "tight", "priced"]
    assert cases[0].variants == ["carbon_price_100"]
    assert cases[1].variants == ["carbon_price_100", "tight_sla"]
    assert cases[1].set == {"time.hours": 4, "solver.threads": 1}
    assert cases[2].set == {"time.hours": 6, "solver.threads": 1, "objective.carbon_price": 50}
    # the case name is a parameter too, so it becomes a coordinate of the combined Dataset
    assert [c.parameters for c in cases] == [
        {"case": "base"},
        {"case": "tight"},
        {"price": 50, "case": "priced"},
    ]


def test_no_grid_runs_the_base_once_and_pareto_is_one_case():
    (plain,) = sweep(set=TINY).expand()
    assert (plain.name, plain.set, plain.parameters) == ("case000", TINY, {})
    pareto = sweep(set=TINY, pareto={"term": "latency", "points": 3})
    assert len(pareto.expand()) == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"zip": {"a.b": [1, 2, 3], "c.d": [1, 2]}},
            "zip lists must have one length: a.b has 3, c.d has 2",
        ),
        ({"grid": {"a.b": [1]}, "cases": [{"name": "x"}]}, "give 'cases' or 'grid'/'zip', not both"),
        ({"zip": {"a.b": [1]}, "cases": [{"name": "x"}]}, "give 'cases' or 'grid'/'zip', not both"),
        (
            {"grid": {"a.b": [1]}, "pareto": {"term": "latency", "points": 3}},
            "a pareto sweep runs the base scenario alone; drop grid, zip and cases",
        ),
        (
            {"cases": [{"name": "x"}], "pareto": {"term": "carbon", "points": 3}},
            "a pareto sweep runs the base scenario alone",
        ),
        ({"grid": {"a.b": []}}, "a.b: give at least one value"),
        ({"cases": [{"name": "x"}, {"name": "x"}]}, "case names must be unique, repeated: ['x']"),
    ],
)
def test_invalid_combinations_say_what_to_change(fields, message):
    with pytest.raises(ValidationError) as raised:
        sweep(**fields)
    assert message in str(raised.value)


def test_sweep_file_errors_name_the_file_line_and_field(tmp_path):
    missing_base = write_sweep(tmp_path, "nobase.yaml", grid={"time.hours": [4]})
    text = missing_base.read_text().replace(f'"base": "{BASE}"', '"base": "nowhere.yaml"')
    missing_base.write_text(text)
    with pytest.raises(ScenarioError) as raised:
        load_sweep(missing_base)
    assert "nobase.yaml" in str(raised.value)
    assert "base: base scenario not found (got 'nowhere.yaml')" in str(raised.value)

    no_base = tmp_path / "no-base-field.yaml"
    no_base.write_text("grid:\n  time.hours: [4, 6]\n")
    with pytest.raises(ScenarioError, match=r"base: required field is missing"):
        load_sweep(no_base)

    mismatch = tmp_path / "zip.yaml"
    mismatch.write_text(f"base: {BASE}\nzip:\n  a.b: [1, 2]\n  c.d: [1]\n")
    with pytest.raises(ScenarioError, match=r"zip lists must have one length: a.b has 2, c.d has 1"):
        load_sweep(mismatch)

    typo = tmp_path / "typo.yaml"
    typo.write_text(f"base: {BASE}\ngrids:\n  time.hours: [4]\n")
    with pytest.raises(ScenarioError) as raised:
        load_sweep(typo)
    assert "typo.yaml:2: grids: unknown field; did you mean 'grid'?" in str(raised.value)

    not_a_list = tmp_path / "scalar.yaml"
    not_a_list.write_text(f"base: {BASE}\ngrid:\n  time.hours: 4\n")
    with pytest.raises(ScenarioError, match=r"grid\.time\.hours: must be a list"):
        load_sweep(not_a_list)

    term = tmp_path / "term.yaml"
    term.write_text(f"base: {BASE}\npareto: {{term: cost, points: 3}}\n")
    with pytest.raises(ScenarioError, match=r"pareto\.term: should be 'latency' or 'carbon'"):
        load_sweep(term)


def test_the_base_is_found_relative_to_the_sweep_file(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "q.yaml").write_text(QUICKSTART.read_text())
    (tmp_path / "sweeps").mkdir()
    path = tmp_path / "sweeps" / "s.yaml"
    path.write_text("base: ../scenarios/q.yaml\ngrid:\n  time.hours: [4, 6]\n")
    loaded, base = load_sweep(path)
    assert base == (tmp_path / "scenarios" / "q.yaml").resolve()
    assert len(loaded.expand()) == 2


@pytest.mark.parametrize("name", ["carbon-price.yaml", "quickstart-grid.yaml"])
def test_the_example_sweeps_load(name):
    loaded, base = load_sweep(ROOT / "scenarios" / "sweeps" / name)
    assert base.is_file()
    assert loaded.description
    assert len(loaded.expand()) >= 4
