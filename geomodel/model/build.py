"""Build the Pyomo placement model from an inputs Dataset (docs/model.md).

Each ``define_*`` function builds one constraint group of docs/model.md and names
it as that page does; each group lives in the module of its part of the model.
"""

from __future__ import annotations

import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import IntegerChoices
from geomodel.model.data_movement import define_data_movement
from geomodel.model.inference import define_inference
from geomodel.model.objective import define_objective
from geomodel.model.planning import define_build_cost, define_build_limits, define_build_variables
from geomodel.model.power import define_chip_capacity, define_power
from geomodel.model.sets import build_sets
from geomodel.model.storage import define_storage
from geomodel.model.training import define_cross_site_training, define_training_work
from geomodel.model.variables import define_variables
from geomodel.model.water import define_water


def build_model(inputs: xr.Dataset, integer: IntegerChoices | None = None) -> pyo.ConcreteModel:
    """The placement model of docs/model.md for one inputs Dataset."""
    m = pyo.ConcreteModel(name=inputs.attrs.get("scenario_name") or "geomodel")
    populate_model(m, inputs, integer)
    return m


def populate_model(m: pyo.Block, inputs: xr.Dataset, integer: IntegerChoices | None = None) -> None:
    """Every constraint group of one inputs Dataset on ``m``: the whole model, or one
    period's block of a pathway (geomodel/model/pathway.py)."""
    integer = integer or IntegerChoices()
    sets = build_sets(inputs, binary_spans=integer.site_participation)
    m.sets = sets
    m.inputs = inputs
    m.integer = integer
    weight_hours = inputs["weight"].values * inputs["dt_hours"].values  # (t)
    m.weight_hours = weight_hours
    define_variables(m, sets, inputs, integer)
    define_build_variables(m, sets, inputs, integer)  # m.capacity: installed (+ built)
    define_training_work(m, sets, inputs, weight_hours, integer)
    define_data_movement(m, sets, inputs)
    define_inference(m, sets, inputs)
    define_chip_capacity(m, sets, inputs, integer)
    define_power(m, sets, inputs, integer)
    define_water(m, sets, inputs, weight_hours)
    define_storage(m, sets, inputs, weight_hours)
    define_build_limits(m, sets, inputs)
    define_cross_site_training(m, sets, inputs, integer)
    define_build_cost(m, inputs, weight_hours)
    define_objective(m, sets, inputs, weight_hours)
