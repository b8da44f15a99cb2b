"""Build the Pyomo placement model from an inputs Dataset (docs/model.md).

Units inside the model keep coefficients within roughly 1e-3..1e6: chips,
MW and MWh, EFLOP, million tokens per second (Mtoken/s), tCO2e and thousand
USD (kUSD). Each ``define_*`` function builds one constraint group of DESIGN
section 4 and names it as docs/model.md does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
import xarray as xr
from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression

from geomodel.model.sets import ModelSets, build_sets

#: PFLOPS sustained for one hour, in EFLOP (3600 s x 1e15 FLOP / 1e18).
EFLOP_PER_PFLOPS_HOUR = 3.6
#: Seconds per hour, to turn Mtoken/s over an hour into Mtoken.
SECONDS_PER_HOUR = 3600.0
TOKENS_PER_MTOKEN = 1e6
USD_PER_KUSD = 1000.0
KG_PER_TONNE = 1000.0


@dataclass(frozen=True)
class IntegerChoices:
    """Which integer options of DESIGN section 4 the model uses."""

    systems_on_off: bool = False
    dp_replicas: bool = False
    site_participation: bool = False

    @property
    def any(self) -> bool:
        return self.systems_on_off or self.dp_replicas or self.site_participation


def linear(coefs: Iterable[float], variables: Iterable, constant: float = 0.0) -> LinearExpression:
    """A linear expression built directly (much faster than summing terms); a term with
    coefficient 1 is the variable itself, without a product object."""
    args: list = [constant] if constant else []
    args.extend(
        var if coef == 1.0 else MonomialTermExpression((coef, var))
        for coef, var in zip(coefs, variables, strict=True)
    )
    return LinearExpression(args)


def build_model(inputs: xr.Dataset, integer: IntegerChoices | None = None) -> pyo.ConcreteModel:
    """The placement model of DESIGN section 4 for one inputs Dataset."""
    integer = integer or IntegerChoices()
    sets = build_sets(inputs)
    m = pyo.ConcreteModel(name=inputs.attrs.get("scenario_name") or "geomodel")
    m.sets = sets
    m.inputs = inputs
    m.integer = integer
    weight_hours = inputs["weight"].values * inputs["dt_hours"].values  # (t)
    m.weight_hours = weight_hours
    define_variables(m, sets, inputs, integer)
    define_training_work(m, sets, inputs, weight_hours)
    define_inference(m, sets, inputs)
    define_chip_capacity(m, sets, inputs, integer)
    define_power(m, sets, inputs, integer)
    define_cross_site_training(m, sets, inputs, integer)
    define_objective(m, sets, inputs, weight_hours)
    return m


def define_variables(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """Variables exist only on eligible index tuples (sets.py)."""
    nonneg = pyo.NonNegativeReals
    m.train = pyo.Var(sets.train, domain=nonneg, doc="chips running job j at s on h in t")
    m.infer = pyo.Var(sets.infer, domain=nonneg, doc="chips serving service i at s on h in t")
    m.serve = pyo.Var(sets.serve, domain=nonneg, doc="demand of r for i served at s, Mtoken/s")
    m.unserved = pyo.Var(sets.unserved, domain=nonneg, doc="demand not served, Mtoken/s")
    capacity = inputs["source_capacity_mw"].values if sets.sources else None
    factor = inputs["source_capacity_factor"].values if sets.sources else None
    m.gen = pyo.Var(
        sets.gen,
        domain=nonneg,
        doc="power from source k at s in t, MW",
        bounds=lambda _, s, k, t: (0.0, float(capacity[s, k] * factor[s, k, t])),
    )
    limit = inputs["grid_import_limit_mw"].values
    m.grid = pyo.Var(
        sets.grid,
        domain=nonneg,
        doc="grid import at s in t, MW",
        bounds=lambda _, s, t: (0.0, float(limit[s])),
    )
    site_domain = pyo.Binary if integer.site_participation else pyo.UnitInterval
    m.span = pyo.Var(sets.span, domain=site_domain, doc="job j uses site s in t (0..1)")
    capacity_gbit_s = inputs["link_capacity_gbit_s"].values
    m.flow = pyo.Var(
        sets.flow,
        domain=nonneg,
        doc="DP gradient traffic of j on link l, Gb/s",
        bounds=lambda _, j, link, t: (0.0, float(capacity_gbit_s[link])),
    )


def define_training_work(m, sets: ModelSets, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """(1) Work: sum of wj dt x chips x PFLOPS x MFU x goodput >= W_j; at most max_chips per step.

    ``wj`` is the job's own weight of a step (``job_weight``): the step's weight where
    it lies in the job's window.
    """
    job_hours = inputs["job_weight"].values * inputs["dt_hours"].values[None, :]
    pflops = inputs["job_pflops_per_chip"].values
    mfu = inputs["mfu"].values
    goodput = inputs["goodput"].values
    by_job: dict[int, list] = defaultdict(list)
    by_job_time: dict[tuple[int, int], list] = defaultdict(list)
    for index in sets.train:
        j, _, h, t = index
        coef = job_hours[j, t] * pflops[j, h] * EFLOP_PER_PFLOPS_HOUR * mfu[j] * goodput[j, h]
        by_job[j].append((coef, m.train[index]))
        by_job_time[j, t].append(m.train[index])
    work = inputs["work_eflop"].values
    m.work = pyo.Constraint(
        range(len(sets.jobs)),
        rule=lambda _, j: (
            (linear(*zip(*by_job[j], strict=True)) >= float(work[j]))
            if by_job[j]
            else pyo.Constraint.Infeasible
        ),
        doc="training work delivered, EFLOP",
    )
    max_chips = inputs["max_chips"].values
    m.max_chips = pyo.Constraint(
        list(by_job_time),
        rule=lambda _, j, t: (
            linear([1.0] * len(by_job_time[j, t]), by_job_time[j, t]) <= float(max_chips[j])
        ),
        doc="most chips of job j at any step",
    )


def define_inference(m, sets: ModelSets, inputs: xr.Dataset) -> None:
    """(2) Demand met or unserved; served compute fits the chips assigned."""
    demand = inputs["demand_tokens_per_s"].values / TOKENS_PER_MTOKEN
    served_from: dict[tuple[int, int, int], list] = defaultdict(list)
    served_at: dict[tuple[int, int, int], list] = defaultdict(list)
    for index in sets.serve:
        i, r, s, t = index
        served_from[i, r, t].append(m.serve[index])
        served_at[i, s, t].append(m.serve[index])
    m.demand = pyo.Constraint(
        sets.unserved,
        rule=lambda _, i, r, t: (
            linear([1.0] * (len(served_from[i, r, t]) + 1), [*served_from[i, r, t], m.unserved[i, r, t]])
            == float(demand[i, r, t])
        ),
        doc="demand balance, Mtoken/s",
    )
    # PFLOPS needed per Mtoken/s: flop/token x 1e6 tokens / 1e15
    pflops_per_mtoken_s = inputs["flop_per_token"].values * TOKENS_PER_MTOKEN / 1e15
    pflops = inputs["service_pflops_per_chip"].values
    efficiency = inputs["service_efficiency"].values
    chips_at: dict[tuple[int, int, int], list] = defaultdict(list)
    for index in sets.infer:
        i, s, h, t = index
        chips_at[i, s, t].append((-pflops[i, h] * efficiency[i], m.infer[index]))
    m.serving_compute = pyo.Constraint(
        list(served_at),
        rule=lambda _, i, s, t: (
            linear(
                [pflops_per_mtoken_s[i]] * len(served_at[i, s, t]) + [c for c, _ in chips_at[i, s, t]],
                served_at[i, s, t] + [v for _, v in chips_at[i, s, t]],
            )
            <= 0.0
        ),
        doc="served compute fits the chips assigned, PFLOPS",
    )


def _active_chips(m, sets: ModelSets, inputs: xr.Dataset) -> dict[tuple[int, int, int], list]:
    """(s, h, t) -> (chip variable working there, share of the step's occurrences in which
    it runs): the share is 1 but for a job whose window covers only some of the
    member-day hours of a typical-day step (``job_weight / weight``)."""
    share = inputs["job_weight"].values / inputs["weight"].values[None, :]
    active: dict[tuple[int, int, int], list] = defaultdict(list)
    for index in sets.train:
        j, s, h, t = index
        active[s, h, t].append((m.train[index], min(1.0, float(share[j, t]))))
    for index in sets.infer:
        _, s, h, t = index
        active[s, h, t].append((m.infer[index], 1.0))
    return active


def define_chip_capacity(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """(3) Chips working <= installed (or switched-on) chips x availability."""
    installed = inputs["chips_installed"].values
    availability = inputs["availability"].values
    chips_per_system = inputs["chips_per_system"].values
    m.active_chips = _active_chips(m, sets, inputs)  # define_power reads it too
    active = {key: [var for var, _ in chips] for key, chips in m.active_chips.items()}
    if integer.systems_on_off:
        on_index = sorted(active)
        m.systems_on = pyo.Var(
            on_index,
            domain=pyo.NonNegativeIntegers,
            doc="systems switched on at s of h in t",
            bounds=lambda _, s, h, t: (0, float(installed[s, h] / chips_per_system[h])),
        )
        m.chip_capacity = pyo.Constraint(
            on_index,
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
        rule=lambda _, s, h, t: (
            linear([1.0] * len(active[s, h, t]), active[s, h, t])
            <= float(installed[s, h] * availability[s])
        ),
        doc="working chips within installed chips x availability",
    )


def define_power(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """(4) IT and facility power, the envelope; (5) balance of grid, generators and load."""
    n_sites, n_time = len(sets.sites), sets.n_time
    installed = inputs["chips_installed"].values
    active_kw = inputs["active_power_kw_per_chip"].values
    idle_kw = inputs["idle_power_kw_per_chip"].values
    chips_per_system = inputs["chips_per_system"].values
    pue = inputs["pue"].values
    dci_mw = _dci_power_mw(inputs, sets)
    # mean power over the step's occurrences (energy, balance) and what the peak adds
    terms: dict[tuple[int, int], list] = defaultdict(list)
    peak_terms: dict[tuple[int, int], list] = defaultdict(list)
    for (s, h, t), chips in m.active_chips.items():
        working_mw = (active_kw[h] - idle_kw[h]) / 1000.0
        for var, share in chips:
            terms[s, t].append((working_mw * share, var))
            if share < 1.0:
                peak_terms[s, t].append((pue[s] * working_mw * (1.0 - share), var))
    idle_mw = np.zeros((n_sites, n_time))
    if integer.systems_on_off:
        for (s, h, t), var in m.systems_on.items():
            terms[s, t].append((chips_per_system[h] * idle_kw[h] / 1000.0, var))
    else:
        idle_mw += (installed * idle_kw[None, :]).sum(axis=1)[:, None] / 1000.0
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
        it = m.it_power_mw[s, t].expr
        return linear(
            [pue[s] * c for c in it.linear_coefs], it.linear_vars, pue[s] * it.constant + dci_mw[s]
        )

    m.facility_power_mw = pyo.Expression(
        range(n_sites),
        range(n_time),
        rule=facility_power,
        doc="PUE x IT power + DCI power (step mean), MW",
    )
    envelope = inputs["power_envelope_mw"].values

    def within_envelope(_, s, t):
        if not peak_terms[s, t]:
            return m.facility_power_mw[s, t] <= float(envelope[s])
        mean = m.facility_power_mw[s, t].expr
        coefs = [*mean.linear_coefs, *(c for c, _ in peak_terms[s, t])]
        variables = [*mean.linear_vars, *(v for _, v in peak_terms[s, t])]
        return linear(coefs, variables, mean.constant) <= float(envelope[s])

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


def _dci_power_mw(inputs: xr.Dataset, sets: ModelSets) -> np.ndarray:
    """Lit links draw their power whether or not they carry traffic; half at each end."""
    power = np.zeros(len(sets.sites))
    for a, b, link_mw in zip(
        inputs["link_site_a"].values,
        inputs["link_site_b"].values,
        inputs["link_power_mw"].values,
        strict=True,
    ):
        power[sets.sites.index(str(a))] += link_mw / 2.0
        power[sets.sites.index(str(b))] += link_mw / 2.0
    return power


def define_cross_site_training(m, sets: ModelSets, inputs: xr.Dataset, integer: IntegerChoices) -> None:
    """(6) A job split over sites: span, linked sites only, DP traffic within link capacity."""
    installed = inputs["chips_installed"].values
    availability = inputs["availability"].values
    eligible = inputs["job_system_eligible"].values.astype(bool)
    max_chips = inputs["max_chips"].values
    at_site: dict[tuple[int, int, int], list] = defaultdict(list)
    for index in sets.train:
        j, s, _, t = index
        at_site[j, s, t].append(m.train[index])

    def upper(j: int, s: int) -> float:
        site_chips = float((installed[s] * eligible[j]).sum() * availability[s])
        return min(site_chips, float(max_chips[j]))

    m.span_link = pyo.Constraint(
        sets.span,
        rule=lambda _, j, s, t: (
            linear([1.0] * len(at_site[j, s, t]) + [-upper(j, s)], [*at_site[j, s, t], m.span[j, s, t]])
            <= 0.0
        ),
        doc="chips of a job at a site only where the job uses the site",
    )
    define_linked_groups(m, sets, inputs["job_weight"].values > 0)
    traffic = inputs["dp_traffic_gbit_s"].values
    site_a = [sets.sites.index(str(a)) for a in inputs["link_site_a"].values]
    site_b = [sets.sites.index(str(b)) for b in inputs["link_site_b"].values]
    m.dp_traffic = pyo.Constraint(
        sets.flow,
        rule=lambda _, j, link, t: (
            linear(
                [1.0, -float(traffic[j]), -float(traffic[j])],
                [m.flow[j, link, t], m.span[j, site_a[link], t], m.span[j, site_b[link], t]],
            )
            >= -float(traffic[j])
        ),
        doc="gradient exchange of a job spanning both ends of a link, Gb/s",
    )
    by_link: dict[tuple[int, int], list] = defaultdict(list)
    for j, link, t in sets.flow:
        by_link[link, t].append(m.flow[j, link, t])
    capacity = inputs["link_capacity_gbit_s"].values
    m.link_capacity = pyo.Constraint(
        list(by_link),
        rule=lambda _, link, t: (
            linear([1.0] * len(by_link[link, t]), by_link[link, t]) <= float(capacity[link])
        ),
        doc="DCI traffic within link capacity, Gb/s",
    )
    if integer.dp_replicas:
        replica = inputs["tp"].values * inputs["ep"].values
        crosses = np.isfinite(inputs["pipeline_budget_ms"].values)
        replica = np.where(crosses, replica, replica * inputs["pp"].values)
        m.replicas = pyo.Var(
            sorted(at_site),
            domain=pyo.NonNegativeIntegers,
            doc="whole replicas (or TP x EP groups) of j at s in t",
        )
        m.whole_replicas = pyo.Constraint(
            sorted(at_site),
            rule=lambda _, j, s, t: (
                linear(
                    [1.0] * len(at_site[j, s, t]) + [-float(replica[j])],
                    [*at_site[j, s, t], m.replicas[j, s, t]],
                )
                == 0.0
            ),
            doc="chips of a job at a site come in whole replicas",
        )


def define_linked_groups(m, sets: ModelSets, window: np.ndarray) -> None:
    """A job runs within one group of mutually linked sites at a time.

    For a job whose sites are not all linked pairwise, ``group[j,g,t]`` says it runs
    within group ``g`` (a maximal set of sites linked pairwise); it uses at most one
    group, and a site only as far as a group holding it is used. A site with no usable
    link is a group of its own and counts with its span directly. This is exact for
    binary spans (docs/model.md) with one row per site instead of one per unlinked pair.
    """
    group_index, one_group_index, in_group_index = [], [], []
    holders: dict[tuple[int, int], list[int]] = defaultdict(list)  # (j, s) -> its groups
    shared: dict[int, list[int]] = {}  # j -> groups of more than one site
    alone: dict[int, list[int]] = {}  # j -> sites linked to none of its other sites
    for j, groups in sets.site_groups.items():
        shared[j] = [g for g, group in enumerate(groups) if len(group) > 1]
        alone[j] = [group[0] for group in groups if len(group) == 1]
        for g in shared[j]:
            for s in groups[g]:
                holders[j, s].append(g)
        linked_sites = sorted({s for g in shared[j] for s in groups[g]})
        for t in np.flatnonzero(window[j]).tolist():
            group_index.extend((j, g, t) for g in shared[j])
            one_group_index.append((j, t))
            in_group_index.extend((j, s, t) for s in linked_sites)
    m.group = pyo.Var(group_index, domain=pyo.UnitInterval, doc="job j runs within site group g in t")
    m.one_group = pyo.Constraint(
        one_group_index,
        rule=lambda _, j, t: (
            linear(
                [1.0] * (len(shared[j]) + len(alone[j])),
                [m.group[j, g, t] for g in shared[j]] + [m.span[j, s, t] for s in alone[j]],
            )
            <= 1.0
        ),
        doc="a job runs within one group of linked sites at a time",
    )
    m.in_group = pyo.Constraint(
        in_group_index,
        rule=lambda _, j, s, t: (
            linear(
                [1.0] + [-1.0] * len(holders[j, s]),
                [m.span[j, s, t]] + [m.group[j, g, t] for g in holders[j, s]],
            )
            <= 0.0
        ),
        doc="a job uses a site only within a group of linked sites it runs in",
    )


def define_objective(m, sets: ModelSets, inputs: xr.Dataset, weight_hours: np.ndarray) -> None:
    """Energy cost + carbon price x emissions + latency weight x latency + unserved penalty."""
    attrs = inputs.attrs
    multiplier = float(attrs.get("energy_price_multiplier", 1.0))
    grid_price = inputs["grid_price_usd_per_mwh"].values
    grid_carbon = inputs["grid_carbon_kg_per_mwh"].values
    cost, carbon, energy = [], [], []
    variables = []
    for index in sets.grid:
        s, t = index
        variables.append(m.grid[index])
        energy.append(weight_hours[t])
        cost.append(weight_hours[t] * multiplier * grid_price[s, t] / USD_PER_KUSD)
        carbon.append(weight_hours[t] * grid_carbon[s, t] / KG_PER_TONNE)
    if sets.sources:
        price = inputs["source_price_usd_per_mwh"].values
        intensity = inputs["source_carbon_kg_per_mwh"].values
        for index in sets.gen:
            s, k, t = index
            variables.append(m.gen[index])
            energy.append(weight_hours[t])
            cost.append(weight_hours[t] * multiplier * price[s, k, t] / USD_PER_KUSD)
            carbon.append(weight_hours[t] * intensity[s, k, t] / KG_PER_TONNE)
    m.energy_supplied_mwh = pyo.Expression(expr=linear(energy, variables))
    m.energy_cost_kusd = pyo.Expression(expr=linear(cost, variables))
    m.emissions_tco2 = pyo.Expression(expr=linear(carbon, variables))
    latency = inputs["latency_ms"].values if sets.regions else None
    served_mtoken = [weight_hours[t] * SECONDS_PER_HOUR for _, _, _, t in sets.serve]
    serve_vars = [m.serve[index] for index in sets.serve]
    m.served_mtoken = pyo.Expression(expr=linear(served_mtoken, serve_vars))
    m.latency_ms_mtoken = pyo.Expression(
        expr=linear(
            [w * latency[r, s] for w, (_, r, s, _) in zip(served_mtoken, sets.serve, strict=True)],
            serve_vars,
        )
    )
    m.unserved_mtoken = pyo.Expression(
        expr=linear(
            [weight_hours[t] * SECONDS_PER_HOUR for _, _, t in sets.unserved],
            [m.unserved[index] for index in sets.unserved],
        )
    )
    m.extra_cost_kusd = pyo.Expression(expr=0.0, doc="cost terms added by model extensions, kUSD")
    carbon_price = float(attrs.get("carbon_price_usd_per_tco2", 0.0))
    latency_weight = float(attrs.get("latency_weight_usd_per_ms_per_mtoken", 0.0))
    penalty = float(attrs.get("unserved_penalty_usd_per_mtoken", 0.0))
    m.carbon_cost_kusd = pyo.Expression(expr=carbon_price / USD_PER_KUSD * m.emissions_tco2)
    m.latency_cost_kusd = pyo.Expression(expr=latency_weight / USD_PER_KUSD * m.latency_ms_mtoken)
    m.unserved_cost_kusd = pyo.Expression(expr=penalty / USD_PER_KUSD * m.unserved_mtoken)
    m.objective = pyo.Objective(
        expr=m.energy_cost_kusd
        + m.carbon_cost_kusd
        + m.latency_cost_kusd
        + m.unserved_cost_kusd
        + m.extra_cost_kusd,
        sense=pyo.minimize,
    )


#: Objective terms reported on their own (name -> model component), kUSD.
OBJECTIVE_TERMS = (
    "energy_cost_kusd",
    "carbon_cost_kusd",
    "latency_cost_kusd",
    "unserved_cost_kusd",
    "extra_cost_kusd",
)
