"""solver.method ``auto`` picks HiGHS's method by size, as measured (docs/performance.md)."""

from __future__ import annotations

import pytest

from geomodel.solver.highs import AUTO_IPM_MIN_COLUMNS, StandardForm, chosen_method


def form(columns: int, is_mip: bool = False) -> StandardForm:
    return StandardForm(lp=None, columns=[None] * columns, rows=[], is_mip=is_mip)


@pytest.mark.parametrize(
    ("columns", "method"),
    [
        (10_000, "primal_simplex"),
        (AUTO_IPM_MIN_COLUMNS - 1, "primal_simplex"),
        # with crossover: a vertex, as the simplex methods give
        (AUTO_IPM_MIN_COLUMNS, "ipm"),
    ],
)
def test_auto_picks_by_size(columns, method):
    assert chosen_method("auto", form(columns)) == method


def test_a_named_method_is_kept_and_a_mip_keeps_highs_choice():
    assert chosen_method("dual_simplex", form(10**6)) == "dual_simplex"
    assert chosen_method("ipm", form(10)) == "ipm"
    assert chosen_method("auto", form(10**6, is_mip=True)) == "branch_and_bound"
