"""Chips (3), power and the envelope (4), and the supply balance (5)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pyomo.environ as pyo
import xarray as xr

from geomodel.model.basics import IntegerChoices, linear
from geomodel.model.capacity import at_most, most_chips
from geomodel.model.sets import ModelSets


def _active_chips(m, sets: ModelSets, inputs: xr.Dataset) -> dict[tuple[int, int, int], list]:
    """(s, h, t) -> (chip variable working there, share of the step's occurrences in which
    it runs, kW one such chip draws): the share is 1 but for a job whose window covers only
    some of the member-day hours of a typical-day step (``job_weight / weight``); a training
    chip draws the system's training power, a serving chip its serving power."""
    share = inputs["job_weight"].values / inputs["weight"].values[None, :]
    training_kw = inputs["training_power_kw_per_chip"].values.tolist()
    serving_kw = inputs["serving_power_kw_per_chip"].values.tolist()
    active: dict[tuple[int, int, int], list] = defaultdict(list)
    shares = np.minimum(1.0, share).tolist()
    for (j, s, h, t), var in zip(sets.train, m.train.values(), strict=True):
        active[s, h, t].append((var, shares[j][t], training_kw[h]))
    for index in sets.infer:
        _, s, h, t = index
        active[s, h, t].append((m.infer[index], 1.0, serving_kw[h]))
    return active


def shed_idle_power(inputs: xr.Dataset, integer: IntegerChoices) -> bool:
    """True when chips powered on are an LP decision (the integer option takes precedence)."""
    return bool(inputs.attrs.get("shed_idle_power", 0)) and not integer.systems_on_off


def define_chip_capacity(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """(3) Chips working <= installed (+ built), powered-on or switched-on chips x availability.

    With ``shed_idle_power``, chips powered on (``chips_on``, continuous) are what may
    work and what draws idle power, within the same installed (+ built) chips x
    availability (``m.capacity.chips``) every capacity row reads. ``chips_on`` (and
    ``systems_on``) exist in every step where the site has (or may build) chips of the
    system, work or none: an operator can power idle chips on in any hour, and at a
    negative price that is paid for (docs/model.md (4)).
    """
    capacity = m.capacity.chips  # installed (+ built) chips of (s, h)
    availability = inputs["availability"].values
    chips_per_system = inputs["chips_per_system"].values
    m.active_chips = _active_chips(m, sets, inputs)  # define_power reads it too
    active = {key: [chip[0] for chip in chips] for key, chips in m.active_chips.items()}
    most = most_chips(inputs)  # installed, or the most there may be once built
    # powered-on chips (or switched-on systems) wherever there are chips, work or none
    on_index = [(s, h, t) for s, h in np.argwhere(most > 0).tolist() for t in range(sets.n_time)]
    if shed_idle_power(inputs, integer):
        m.chips_on = pyo.Var(
            on_index, domain=pyo.NonNegativeReals, doc="chips powered on at s of h in t"
        )
        m.powered_capacity = pyo.Constraint(
            on_index,
            rule=lambda _, s, h, t: at_most(
                [1.0], [m.chips_on[s, h, t]], capacity(s, h), availability[s]
            ),
            doc="chips powered on within installed (+ built) chips x availability",
        )
        m.chip_capacity = pyo.Constraint(
            sorted(active),
            rule=lambda _, s, h, t: (
                linear([1.0] * len(active[s, h, t]) + [-1.0], [*active[s, h, t], m.chips_on[s, h, t]])
                <= 0.0
            ),
            doc="working chips within powered-on chips",
        )
        return
    if integer.systems_on_off:
        m.systems_on = pyo.Var(
            on_index,
            domain=pyo.NonNegativeIntegers,
            doc="systems switched on at s of h in t",
            bounds=lambda _, s, h, t: (0, float(most[s, h] / chips_per_system[h])),
        )
        m.chip_capacity = pyo.Constraint(
            sorted(active),
            rule=lambda _, s, h, t: (
                linear(
                    [1.0] * len(active[s, h, t]) + [-chips_per_system[h] * availability[s]],
                    [*active[s, h, t], m.systems_on[s, h, t]],
                )
                <= 0.0
            ),
            doc="working chips within switched-on systems",
        )
        return
    m.chip_capacity = pyo.Constraint(
        sorted(active),
        rule=lambda _, s, h, t: at_most(
            [1.0] * len(active[s, h, t]), active[s, h, t], capacity(s, h), availability[s]
        ),
        doc="working chips within installed chips x availability",
    )


def define_power(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """(4) IT and facility power, the envelope; (5) balance of grid, generators and load."""
    n_sites, n_time = len(sets.sites), sets.n_time
    installed = m.capacity.installed_chips
    nameplate_kw = inputs["active_power_kw_per_chip"].values
    idle_kw = inputs["idle_power_kw_per_chip"].values
    chips_per_system = inputs["chips_per_system"].values
    pue = inputs["pue"].values
    at_load = inputs["envelope_at_load"].values.astype(bool)
    dci_mw = m.capacity.dci_power_mw  # lit (+ built) pairs' power at s
    # IT power: mean over the step's occurrences (energy, balance) and, for the envelope,
    # every job of the step running, each working chip at nameplate or at its load
    terms: dict[tuple[int, int], list] = defaultdict(list)
    envelope_terms: dict[tuple[int, int], list] = defaultdict(list)
    for (s, h, t), chips in m.active_chips.items():
        for var, share, load_kw in chips:
            terms[s, t].append(((load_kw - idle_kw[h]) / 1000.0 * share, var))
            drawn_kw = load_kw if at_load[s] else nameplate_kw[h]
            envelope_terms[s, t].append((pue[s, t] * (drawn_kw - idle_kw[h]) / 1000.0, var))
    idle_mw = np.zeros((n_sites, n_time))
    idle_terms: dict[tuple[int, int], list] = defaultdict(list)
    if integer.systems_on_off:
        for (s, h, t), var in m.systems_on.items():
            idle_terms[s, t].append((chips_per_system[h] * idle_kw[h] / 1000.0, var))
    elif shed_idle_power(inputs, integer):  # idle power only on chips powered on
        for (s, h, t), var in m.chips_on.items():
            idle_terms[s, t].append((idle_kw[h] / 1000.0, var))
    else:
        idle_mw += (installed * idle_kw[None, :]).sum(axis=1)[:, None] / 1000.0
        buildable = np.argwhere(most_chips(inputs) > installed).tolist()
        for s, h in buildable:  # built chips draw idle power too
            for coef, var in m.capacity.chips(s, h).terms:
                for t in range(n_time):
                    idle_terms[s, t].append((coef * idle_kw[h] / 1000.0, var))
    for key, idle in idle_terms.items():
        terms[key].extend(idle)
        envelope_terms[key].extend((pue[key] * coef, var) for coef, var in idle)
    m.extra_supply_mw = pyo.Expression(
        range(n_sites),
        range(n_time),
        initialize=0.0,
        doc="power supplied by model extensions (e.g. battery discharge - charge), MW",
    )

    def it_power(_, s, t):
        coefs = [c for c, _ in terms[s, t]]
        return linear(coefs, [v for _, v in terms[s, t]], float(idle_mw[s, t]))

    m.it_power_mw = pyo.Expression(
        range(n_sites), range(n_time), rule=it_power, doc="IT power of chips (step mean), MW"
    )

    def facility_power(_, s, t):
        it, dci = m.it_power_mw[s, t].expr, dci_mw(s)
        return linear(
            [pue[s, t] * c for c in it.linear_coefs] + [c for c, _ in dci.terms],
            list(it.linear_vars) + [v for _, v in dci.terms],
            pue[s, t] * it.constant + dci.constant,
        )

    m.facility_power_mw = pyo.Expression(
        range(n_sites),
        range(n_time),
        rule=facility_power,
        doc="PUE x IT power + DCI power (step mean), MW",
    )
    envelope = m.capacity.envelope_mw  # installed (+ built) envelope of s

    def within_envelope(_, s, t):
        limit, dci = envelope(s), dci_mw(s)
        drawn = envelope_terms[s, t]
        coefs = [c for c, _ in drawn] + [c for c, _ in dci.terms] + [-c for c, _ in limit.terms]
        variables = [v for _, v in drawn] + [v for _, v in dci.terms] + [v for _, v in limit.terms]
        constant = pue[s, t] * float(idle_mw[s, t]) + dci.constant
        if not variables:  # idle chips and lit links alone: as the mean power
            return m.facility_power_mw[s, t] <= float(limit.constant)
        return linear(coefs, variables, constant) <= float(limit.constant)

    m.envelope = pyo.Constraint(
        range(n_sites),
        range(n_time),
        rule=within_envelope,
        doc="facility power within the site envelope when every job of the step runs, MW",
    )
    supply: dict[tuple[int, int], list] = defaultdict(list)
    for index in sets.gen:
        s, _, t = index
        supply[s, t].append(m.gen[index])
    for index in sets.grid:
        supply[index].append(m.grid[index])
    m.balance = pyo.Constraint(
        range(n_sites),
        range(n_time),
        rule=lambda _, s, t: (
            linear([1.0] * len(supply[s, t]), supply[s, t]) + m.extra_supply_mw[s, t]
            == m.facility_power_mw[s, t]
        ),
        doc="grid + generators + extensions = facility power, MW",
    )
