"""Named expressions read back from a solution: summed from their linear terms, as Pyomo
would evaluate them."""

from __future__ import annotations

import pyomo.environ as pyo
import pytest

from geomodel.model.basics import linear
from geomodel.results.extract import _expression_value


def model_with_values():
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(3), initialize={0: 2.0, 1: 3.0, 2: 0.5})
    return m


def test_a_linear_expression_is_its_constant_plus_its_terms():
    m = model_with_values()
    # 1.5 + 1 x 2 + 4 x 3 - 0.25 x 0.5 = 15.375, by hand
    m.e = pyo.Expression(expr=linear([1.0, 4.0, -0.25], [m.x[0], m.x[1], m.x[2]], 1.5))
    assert _expression_value(m.e) == pytest.approx(15.375, rel=1e-15)
    assert _expression_value(m.e) == pytest.approx(pyo.value(m.e), rel=1e-15)


def test_other_expressions_and_constants_are_left_to_pyomo():
    m = model_with_values()
    m.square = pyo.Expression(expr=m.x[0] * m.x[1] + 1.0)  # 2 x 3 + 1
    m.zero = pyo.Expression(initialize=0.0)
    assert _expression_value(m.square) == pytest.approx(7.0)
    assert _expression_value(m.zero) == 0.0


def test_a_variable_without_a_value_is_an_error_as_in_pyomo():
    m = model_with_values()
    m.y = pyo.Var()
    m.e = pyo.Expression(expr=linear([2.0], [m.y], 1.0))
    with pytest.raises(ValueError):
        pyo.value(m.e)
    with pytest.raises(ValueError):
        _expression_value(m.e)
