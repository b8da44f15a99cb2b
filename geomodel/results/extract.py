"""Read a solved model into the results Dataset (units and description on every variable)."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import xarray as xr
from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression
from pyomo.core.expr.numvalue import is_constant

from geomodel.inputs.dataset import variable
from geomodel.model.basics import EFLOP_PER_PFLOPS_HOUR, TOKENS_PER_MTOKEN
from geomodel.results.breakdown import add_energy_breakdown
from geomodel.results.dci_traffic import (
    accounted_traffic,
    add_required_utilisation,
    required_traffic_by_job,
)
from geomodel.results.jobs import add_job_results
from geomodel.results.planning import add_planning_results


def _values(var: pyo.Var, index: list) -> np.ndarray:
    """Values of ``var`` on ``index`` (0 for variables the solver never saw)."""
    return np.array([var[i].value or 0.0 for i in index], dtype=float)


def _scatter(shape: tuple[int, ...], index: list, values: np.ndarray) -> np.ndarray:
    dense = np.zeros(shape)
    if index:
        np.add.at(dense, tuple(np.array(index).T), values)
    return dense


def extract_results(model: pyo.ConcreteModel) -> xr.Dataset:
    """Decision variables and derived flows as a Dataset on the inputs' coordinates."""
    inputs: xr.Dataset = model.inputs
    sets = model.sets
    n = {
        dim: inputs.sizes.get(dim, 0)
        for dim in ("job", "site", "system", "time", "service", "region", "source", "link")
    }
    train = _values(model.train, sets.train)
    infer = _values(model.infer, sets.infer)
    serve = _values(model.serve, sets.serve)
    unserved = _values(model.unserved, sets.unserved)
    gen = _values(model.gen, sets.gen)
    grid = _values(model.grid, sets.grid)
    training_chips = _scatter((n["job"], n["site"], n["system"], n["time"]), sets.train, train)
    inference_chips = _scatter((n["service"], n["site"], n["system"], n["time"]), sets.infer, infer)
    served = _scatter((n["service"], n["region"], n["site"], n["time"]), sets.serve, serve)
    unserved_dense = _scatter((n["service"], n["region"], n["time"]), sets.unserved, unserved)
    generation = _scatter((n["site"], n["source"], n["time"]), sets.gen, gen)
    grid_import = _scatter((n["site"], n["time"]), sets.grid, grid)
    it_power = _expression_grid(model.it_power_mw, n["site"], n["time"])
    facility = _expression_grid(model.facility_power_mw, n["site"], n["time"])
    extra = _expression_grid(model.extra_supply_mw, n["site"], n["time"])
    weight_hours = model.weight_hours
    emissions, cost = _site_emissions_and_cost(inputs, grid_import, generation)
    capacity = inputs["link_capacity_gbit_s"].values
    available = (
        (inputs["source_capacity_mw"].values[:, :, None] * inputs["source_capacity_factor"].values)
        if n["source"]
        else generation
    )
    traffic = accounted_traffic(inputs, training_chips, _binary_spans(model))
    required = required_traffic_by_job(inputs, training_chips).sum(axis=0)
    per_capacity = np.where(capacity > 0, capacity, 1.0)[:, None] if n["link"] else 1.0
    work_per_step = _work_per_step(model, training_chips)
    work = inputs["work_eflop"].values
    progress = np.cumsum(work_per_step, axis=1) / np.where(work > 0, work, 1.0)[:, None]
    to_tokens = TOKENS_PER_MTOKEN
    data = {
        "training_chips": variable(
            ("job", "site", "system", "time"), training_chips, "chips", "chips running each training job"
        ),
        "inference_chips": variable(
            ("service", "site", "system", "time"),
            inference_chips,
            "chips",
            "chips serving each inference service",
        ),
        "served_tokens_per_s": variable(
            ("service", "region", "site", "time"),
            served * to_tokens,
            "token/s",
            "demand of each region served at each site",
        ),
        "unserved_tokens_per_s": variable(
            ("service", "region", "time"), unserved_dense * to_tokens, "token/s", "demand not served"
        ),
        "it_power_mw": variable(("site", "time"), it_power, "MW", "IT power of the chips"),
        "facility_power_mw": variable(("site", "time"), facility, "MW", "PUE x IT power + DCI power"),
        "generation_mw": variable(
            ("site", "source", "time"),
            generation,
            "MW",
            "power taken from each on-site or contracted source",
        ),
        "curtailment_mw": variable(
            ("site", "source", "time"),
            np.maximum(available - generation, 0),
            "MW",
            "available source power not used",
        ),
        "grid_import_mw": variable(("site", "time"), grid_import, "MW", "power imported from the grid"),
        "extension_supply_mw": variable(
            ("site", "time"), extra, "MW", "power supplied by model extensions (negative: drawn)"
        ),
        "emissions_tco2": variable(
            ("site", "time"),
            emissions * weight_hours,
            "tCO2e",
            "emissions of the energy used in each step",
            weighted="time",
        ),
        "energy_cost_usd": variable(
            ("site", "time"),
            cost * weight_hours,
            "USD",
            "energy cost in each step (price multiplier applied)",
            weighted="time",
        ),
        "link_traffic_gbit_s": variable(
            ("link", "time"),
            traffic,
            "Gb/s",
            "DCI traffic the model charges against each link's capacity: at the least "
            "dp_traffic x (span_a + span_b - 1) with each span the job's share of its usable "
            "chips there (relaxed site use; 1 wherever it has chips when binary); below "
            "link_required_gbit_s when an LP splits a job over part-used sites",
        ),
        "link_utilisation": variable(
            ("link", "time"), traffic / per_capacity, "1", "link_traffic_gbit_s / link capacity"
        ),
        "link_required_gbit_s": variable(
            ("link", "time"),
            required,
            "Gb/s",
            "DCI traffic the placement requires: the full data-parallel gradient exchange of "
            "every job with chips at both ends of the link in the step",
        ),
        "job_progress": variable(
            ("job", "time"),
            progress,
            "1",
            "fraction of each job's work done by the end of each step",
            weighted="job",
        ),
        "job_work_eflop": variable(
            ("job", "time"),
            work_per_step,
            "EFLOP",
            "useful training work done in each step",
            weighted="job",
        ),
    }
    if "latency_ms" in inputs:
        data["latency_ms"] = variable(
            ("region", "site"),
            inputs["latency_ms"].values,
            "ms",
            "round-trip latency from region to site",
        )
    results = xr.Dataset(data, coords=inputs.coords)
    results["energy_mwh"] = variable(
        ("site", "time"),
        facility * weight_hours,
        "MWh",
        "facility energy in each step (weighted)",
        weighted="time",
    )
    results["water_m3"] = variable(
        ("site", "time"),
        it_power * weight_hours * inputs["wue_l_per_kwh"].values,
        "m3",
        "water the site's cooling used in each step (weighted): IT energy x WUE",
        weighted="time",
    )
    add_energy_breakdown(results, inputs, weight_hours)
    _extension_variables(model, results)
    add_planning_results(model, results)
    add_required_utilisation(results, inputs)  # against lit + built capacity
    add_job_results(model, results)  # job classes split back, data moved, idle chips
    return results


#: unit suffixes of extension variable names -> units attribute
_SUFFIX_UNITS = {"_mwh": "MWh", "_mw": "MW", "_kusd": "kUSD", "_tco2": "tCO2e"}


def _extension_variables(model: pyo.ConcreteModel, results: xr.Dataset) -> None:
    """Variables that model extensions index by (site, step) join the results, e.g. a
    battery's state of charge; the unit comes from the name's suffix (``_mw``, ``_mwh``)."""
    n_sites, n_time = results.sizes["site"], results.sizes["time"]
    for prefix in getattr(model, "extensions", []):
        for component in model.component_objects(pyo.Var, descend_into=False):
            name = component.local_name
            if not name.startswith(f"{prefix}_") or not component.is_indexed():
                continue
            keys = list(component.keys())
            if not keys or not all(isinstance(k, tuple) and len(k) == 2 for k in keys):
                continue
            units = next((u for suffix, u in _SUFFIX_UNITS.items() if name.endswith(suffix)), "1")
            values = _scatter((n_sites, n_time), keys, _values(component, keys))
            description = component.doc or f"{name} (added by plugin {prefix!r})"
            results[name] = variable(("site", "time"), values, units, description)


def _binary_spans(model: pyo.ConcreteModel) -> bool:
    """True when ``span`` is binary (participation exact or relax_fix): any chips mean a span of 1."""
    first = next(iter(model.span.values()), None)
    return bool(first is not None and first.is_binary())


def _expression_grid(expression, n_sites: int, n_time: int) -> np.ndarray:
    return np.array(
        [[_expression_value(expression[s, t]) for t in range(n_time)] for s in range(n_sites)],
        dtype=float,
    ).reshape(n_sites, n_time)


def _expression_value(expression) -> float:
    """The value of a named expression: a linear one (the model's) summed from its terms,
    which Pyomo's general tree walk takes ten times longer to do; any other by Pyomo."""
    expr = expression.expr
    if type(expr) is not LinearExpression:
        return pyo.value(expression)
    total = 0.0
    for term in expr.args:
        if type(term) is MonomialTermExpression:
            coef, var = term.args
            if var.value is None:
                return pyo.value(expression)
            total += coef * var.value
        elif is_constant(term):
            total += term
        elif term.value is None:
            return pyo.value(expression)
        else:
            total += term.value
    return total


def _site_emissions_and_cost(
    inputs: xr.Dataset, grid_import: np.ndarray, generation: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per step-hour emissions (tCO2e/h) and cost (USD/h) of the energy taken at each site."""
    multiplier = float(inputs.attrs.get("energy_price_multiplier", 1.0))
    emissions = grid_import * inputs["grid_carbon_kg_per_mwh"].values / 1000.0
    cost = grid_import * inputs["grid_price_usd_per_mwh"].values * multiplier
    if generation.shape[1]:
        emissions = emissions + (generation * inputs["source_carbon_kg_per_mwh"].values).sum(1) / 1000
        cost = cost + (generation * inputs["source_price_usd_per_mwh"].values).sum(1) * multiplier
    return emissions, cost


def _work_per_step(model: pyo.ConcreteModel, training_chips: np.ndarray) -> np.ndarray:
    """Useful EFLOP of each job in each step (MFU and goodput applied)."""
    inputs = model.inputs
    if not training_chips.shape[0]:
        return np.zeros((0, inputs.sizes["time"]))
    rate = (
        inputs["job_pflops_per_chip"].values
        * inputs["goodput"].values
        * inputs["mfu"].values
        * EFLOP_PER_PFLOPS_HOUR
    )  # (job, system) EFLOP/chip-h
    job_hours = inputs["job_weight"].values * inputs["dt_hours"].values[None, :]
    return np.einsum("jsht,jh,jt->jt", training_chips, rate, job_hours)
