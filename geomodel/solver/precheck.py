"""Cheap aggregate checks that say in words why a scenario cannot be solved.

They read only the inputs Dataset (numpy over sites, systems and steps: well under
a second at 10^6 columns) and compare totals a planner would compare by hand:

* a training job's work against the most compute its allowed sites can give in its
  window, first counting chips only, then with the chips each site's power envelope
  (and, below, its supply) can run;
* all jobs' work together against the chip-hours their windows offer;
* each site's power with every chip idle (idle chips x PUE + DCI) against its
  envelope and, per step, against its grid import limit plus on-site generation
  (no idle chip need draw power when idle power may be shed, ``solver.shed_idle_power``,
  or whole systems switched off: a working chip then counts its full active power);
* inference demand against the serving capacity within the SLA (never infeasible:
  demand may go unserved at its penalty, so this is a warning).

Each check is a necessary condition of the model in docs/model.md, so a failed one
proves the model infeasible. Checks that count supply are *conditional*: a model
extension may add supply (``extra_supply_mw``, a battery), so they explain an
infeasibility HiGHS reports but never stop a solve by themselves. In planning mode
(build options, docs/planning.md) chips count installed plus the most that may be
built, and the power checks are left out: envelopes, sources and storage may be built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import xarray as xr

from geomodel.inputs.dataset import is_planning
from geomodel.model.basics import EFLOP_PER_PFLOPS_HOUR, TOKENS_PER_MTOKEN
from geomodel.model.capacity import dci_power_mw, most_chips
from geomodel.tools.work_bound import fastest_chips_rate

#: Relative slack before a total counts as short: solver tolerances are about 1e-7,
#: so a plan exactly at a limit must never be called infeasible here.
RELATIVE_SLACK = 1e-6

Severity = Literal["proof", "conditional", "warning"]


@dataclass(frozen=True)
class Finding:
    """One aggregate check that failed, in words.

    ``severity``: ``proof`` proves the model infeasible whatever extensions add;
    ``conditional`` proves it unless an extension supplies power; ``warning`` costs
    the plan (unserved demand) but is feasible.
    """

    check: str
    severity: Severity
    message: str


def aggregate_checks(inputs: xr.Dataset, *, systems_on_off: bool = False) -> list[Finding]:
    """Every aggregate check of the module docstring; an empty list when all hold.

    ``systems_on_off``: whole systems may be switched off (no idle power), as with the
    integer option of the same name; shedding idle power (the inputs' ``shed_idle_power``)
    does the same for single chips.
    """
    facts = _Facts(inputs, idle_off=systems_on_off or bool(inputs.attrs.get("shed_idle_power", 0)))
    findings: list[Finding] = []
    findings += _idle_power(facts)
    findings += _training_work(facts)
    findings += _all_jobs_together(facts)
    findings += _serving_within_sla(facts)
    return findings


def proves_infeasible(findings: list[Finding], *, with_supply: bool) -> list[Finding]:
    """The findings that prove infeasibility; ``with_supply`` also counts the conditional
    ones (when HiGHS has found the model infeasible, or no extension supplies power)."""
    kinds = ("proof", "conditional") if with_supply else ("proof",)
    return [f for f in findings if f.severity in kinds]


class _Facts:
    """The inputs as numpy arrays, with the derived totals the checks share."""

    def __init__(self, inputs: xr.Dataset, idle_off: bool) -> None:
        self.inputs = inputs
        self.sites = [str(s) for s in inputs["site"].values]
        self.systems = [str(h) for h in inputs["system"].values]
        self.times = inputs["time"].values
        self.dt_hours = inputs["dt_hours"].values
        self.weight_hours = inputs["weight"].values * self.dt_hours
        #: planning mode: capacities are installed plus what may be built
        self.planning = is_planning(inputs)
        #: usable chips (installed, or installed plus the most that may be built) x availability
        self.cap = most_chips(inputs) * inputs["availability"].values[:, None]
        pue = inputs["pue"].values
        #: PUE per site and step (a weather-driven PUE varies by the hour), (s, t)
        self.pue = pue if pue.ndim == 2 else np.repeat(pue[:, None], len(self.times), axis=1)
        self.envelope = inputs["power_envelope_mw"].values
        training_kw = inputs["training_power_kw_per_chip"].values
        nameplate_kw = inputs["active_power_kw_per_chip"].values
        idle_kw = inputs["idle_power_kw_per_chip"].values
        at_load = inputs["envelope_at_load"].values.astype(bool)[:, None]
        #: idle power a working chip's own draw already counts: none when chips not working
        #: may be off (shedding, systems switched off), as they then are
        counted_kw = 0.0 if idle_off else idle_kw
        #: kW one more training chip adds to IT power (x PUE: facility power), (s, h):
        #: its training draw, what the supply sees (and a bound on the envelope's)
        self.working_kw = np.broadcast_to(training_kw - counted_kw, (len(self.sites), len(idle_kw)))
        #: what it adds to the envelope row: nameplate, or the training draw at_load sites
        self.envelope_kw = np.where(at_load, training_kw - counted_kw, nameplate_kw - counted_kw)
        idle_mw = (inputs["chips_installed"].values * idle_kw[None, :]).sum(axis=1) / 1000.0
        self.dci_mw = dci_power_mw(inputs, self.sites)
        #: facility power with every chip idle, MW per site and step (none if they may be off)
        idle_facility = np.zeros_like(self.pue) if idle_off else self.pue * idle_mw[:, None]
        self.floor_mw = idle_facility + self.dci_mw[:, None]
        supply = inputs["grid_import_limit_mw"].values[:, None] * np.ones(len(self.times))
        if inputs.sizes.get("source", 0):
            supply = supply + (
                inputs["source_capacity_mw"].values[:, :, None] * inputs["source_capacity_factor"].values
            ).sum(axis=1)
        #: most power a site can get in each step without extensions, MW (s, t)
        self.supply_mw = supply
        #: sites whose idle chips alone exceed the envelope / the supply (found first)
        self.idle_over_envelope: set[int] = set()
        self.idle_over_supply: set[int] = set()

    def when(self, t: int) -> str:
        return f"{np.datetime_as_string(self.times[t], unit='m')} UTC"


def _idle_power(f: _Facts) -> list[Finding]:
    """Facility power with every chip idle must fit the envelope and the supply."""
    if f.planning:
        return []  # an envelope, a source or a battery may be built
    findings = []
    steps = len(f.times)
    for s, site in enumerate(f.sites):
        over = np.flatnonzero(f.floor_mw[s] > f.envelope[s] * (1 + RELATIVE_SLACK))
        if over.size:
            f.idle_over_envelope.add(s)
            t = int(over[np.argmax(f.floor_mw[s, over])])
            findings.append(
                Finding(
                    "idle-power-envelope",
                    "proof",
                    f"site {site!r} draws {f.floor_mw[s, t]:,.2f} MW with every chip idle at "
                    f"{f.when(t)} (idle chips x PUE {f.pue[s, t]:.3g} + DCI {f.dci_mw[s]:,.2f} MW), "
                    f"above its {f.envelope[s]:,.2f} MW power envelope ({over.size} of {steps} "
                    "steps): raise the envelope or install fewer systems",
                )
            )
            continue
        short = np.flatnonzero(f.supply_mw[s] < f.floor_mw[s] * (1 - RELATIVE_SLACK) - 1e-9)
        if short.size:
            f.idle_over_supply.add(s)
            t = int(short[np.argmin(f.supply_mw[s, short] - f.floor_mw[s, short])])
            findings.append(
                Finding(
                    "idle-power-supply",
                    "conditional",
                    f"site {site!r} needs at least {f.floor_mw[s, t]:,.2f} MW with every chip idle "
                    f"at {f.when(t)}, but its grid import limit and on-site sources give only "
                    f"{f.supply_mw[s, t]:,.2f} MW then ({short.size} of {steps} steps short): "
                    "add supply or storage",
                )
            )
    return findings


def _job_arrays(f: _Facts) -> dict[str, np.ndarray]:
    inputs = f.inputs
    installed = most_chips(inputs) > 0  # (s, h): installed, or may be built (as the sets)
    allowed = inputs["job_site_allowed"].values.astype(bool)
    eligible = inputs["job_system_eligible"].values.astype(bool)
    usable = allowed[:, :, None] & eligible[:, None, :] & installed[None, :, :]  # (j, s, h)
    rate = (
        inputs["job_pflops_per_chip"].values
        * inputs["mfu"].values
        * inputs["goodput"].values
        * EFLOP_PER_PFLOPS_HOUR
    )  # EFLOP per chip-hour, (j, h)
    job_hours = inputs["job_weight"].values * f.dt_hours[None, :]  # (j, t)
    return {"usable": usable, "rate": rate, "job_hours": job_hours}


def _training_work(f: _Facts) -> list[Finding]:
    """Each job's work against the most its usable chips, then its sites' power, can give."""
    inputs = f.inputs
    if not inputs.sizes.get("job", 0):
        return []
    arrays = _job_arrays(f)
    usable, rate, job_hours = arrays["usable"], arrays["rate"], arrays["job_hours"]
    work = inputs["work_eflop"].values
    max_chips = inputs["max_chips"].values
    findings = []
    for j, job in enumerate(str(x) for x in inputs["job"].values):
        hours = float(job_hours[j].sum())
        by_chips = fastest_chips_rate(f.cap * usable[j], rate[j], max_chips[j]) * hours
        if work[j] > by_chips * (1 + RELATIVE_SLACK):
            sites = sorted({f.sites[s] for s in np.flatnonzero(usable[j].any(axis=1))})
            chips = float((f.cap * usable[j]).sum())
            findings.append(
                Finding(
                    "training-work-chips",
                    "proof",
                    f"training job {job!r} needs {work[j]:,.0f} EFLOP, but its window gives at most "
                    f"{by_chips:,.0f} EFLOP ({_times(work[j], by_chips)} short): "
                    f"{min(chips, float(max_chips[j])):,.0f} chips it may use "
                    f"(at {', '.join(sites) or 'no site'}; max_chips {max_chips[j]:,.0f}) "
                    f"for {hours:,.1f} h at up to {_rate_text(rate[j], usable[j])}; "
                    "give it more time, chips or sites, or less work",
                )
            )
            continue
        if f.planning:
            continue  # envelopes and supply may be built
        job_sites = set(np.flatnonzero(usable[j].any(axis=1)).tolist())
        for check, severity, limit, kw, words, said in (
            (
                "training-work-envelope",
                "proof",
                f.envelope[:, None],
                f.envelope_kw,
                "power envelopes",
                f.idle_over_envelope,
            ),
            (
                "training-work-supply",
                "conditional",
                np.minimum(f.envelope[:, None], f.supply_mw),
                f.working_kw,
                "power supply (grid import limits and on-site sources)",
                f.idle_over_envelope | f.idle_over_supply,
            ),
        ):
            if job_sites & said:
                break  # a site's idle power is the cause, said once above
            bound, binding = _bound_with_power(
                f, usable[j], rate[j], max_chips[j], job_hours[j], limit, kw
            )
            if work[j] > bound * (1 + RELATIVE_SLACK):
                findings.append(
                    Finding(
                        check,
                        severity,
                        f"training job {job!r} needs {work[j]:,.0f} EFLOP, but the {words} of the "
                        f"sites it may use let its chips deliver at most {bound:,.0f} EFLOP in its "
                        f"window ({_times(work[j], bound)} short; tightest at {', '.join(binding)}) "
                        "even with every other workload idle",
                    )
                )
                break
    return findings


def _bound_with_power(
    f: _Facts,
    usable: np.ndarray,
    rate: np.ndarray,
    max_chips: float,
    job_hours: np.ndarray,
    limit_mw: np.ndarray,
    kw: np.ndarray,
) -> tuple[float, list[str]]:
    """Most EFLOP the job's chips can deliver when each site's power (``limit_mw``, per
    site and step) limits them, a working chip adding ``kw`` (s, h) over idle.

    Per site and step the power left above the idle floor runs working chips, the most
    EFLOP per MW first: a fractional knapsack, the exact LP bound for one site. The
    order is a site's at every step (PUE scales every system alike). The sites' sum is
    capped by ``max_chips`` of the fastest chips.
    """
    steps = np.flatnonzero(job_hours > 0)
    limit = np.broadcast_to(limit_mw, (len(f.sites), len(f.times)))[:, steps]
    headroom = np.maximum(limit - f.floor_mw[:, steps], 0.0)  # (s, t) MW for working chips
    chips = f.cap * usable  # (s, h)
    pue = f.pue[:, steps]  # (s, t)
    per_kw = np.where(kw > 0, rate[None, :] / np.where(kw > 0, kw, 1.0), np.inf)  # (s, h)
    delivered = np.zeros_like(headroom)  # EFLOP/h per (s, t)
    for s in range(len(f.sites)):
        for h in np.argsort(-per_kw[s], kind="stable"):
            if rate[h] <= 0 or not chips[s, h]:
                continue
            if kw[s, h] <= 0:
                delivered[s] += chips[s, h] * rate[h]
                continue
            mw_per_chip = pue[s] * kw[s, h] / 1000.0  # (t) facility MW of one more chip
            n = np.minimum(chips[s, h], headroom[s] / mw_per_chip)
            delivered[s] += n * rate[h]
            headroom[s] = headroom[s] - n * mw_per_chip
    chips_cap = fastest_chips_rate(f.cap * usable, rate, max_chips)
    total = float((np.minimum(delivered.sum(axis=0), chips_cap) * job_hours[steps]).sum())
    full = (chips * rate[None, :]).sum(axis=1)  # (s) EFLOP/h with every chip working
    missing = (full[:, None] - delivered).sum(axis=1)
    binding = [f.sites[s] for s in np.argsort(-missing) if missing[s] > full[s] * RELATIVE_SLACK][:3]
    return total, binding or ["every site"]


def _all_jobs_together(f: _Facts) -> list[Finding]:
    """Every job's least chip-hours (at its fastest chip) against the chip-hours of the
    steps and systems any job may use: a chip runs one job at a time."""
    inputs = f.inputs
    if inputs.sizes.get("job", 0) < 2:
        return []
    arrays = _job_arrays(f)
    usable, rate, job_hours = arrays["usable"], arrays["rate"], arrays["job_hours"]
    fastest = np.where(usable.any(axis=1), rate, 0.0).max(axis=1)  # (j)
    if (fastest <= 0).any():
        return []  # a job with no usable chip fails its own check
    needed = float((inputs["work_eflop"].values / fastest).sum())
    # (s, h, t) usable by some job in its window, counted with the step's hours
    open_ = (usable[:, :, :, None] & (job_hours > 0)[:, None, None, :]).any(axis=0)
    offered = float((f.cap[:, :, None] * open_ * f.weight_hours[None, None, :]).sum())
    if needed <= offered * (1 + RELATIVE_SLACK):
        return []
    return [
        Finding(
            "training-work-together",
            "proof",
            f"the {inputs.sizes['job']} training jobs together need at least {needed:,.0f} "
            f"chip-hours (each at its fastest chip), but their windows offer only {offered:,.0f} "
            f"chip-hours at the sites and systems they may use ({_times(needed, offered)} short)",
        )
    ]


def _serving_within_sla(f: _Facts) -> list[Finding]:
    """Demand each region cannot have served within the SLA, in the worst step (a warning)."""
    inputs = f.inputs
    if not inputs.sizes.get("service", 0) or not inputs.sizes.get("region", 0):
        return []
    demand = inputs["demand_tokens_per_s"].values  # (i, r, t)
    reachable = inputs["latency_ms"].values[None, :, :] <= inputs["sla_ms"].values[:, None, None]
    allowed = inputs["service_system_allowed"].values.astype(bool)  # (i, h)
    rate = inputs["service_tokens_per_s_per_chip"].values  # (i, h) output token/s per chip
    regions = [str(r) for r in inputs["region"].values]
    findings = []
    for i, service in enumerate(str(x) for x in inputs["service"].values):
        capacity = (f.cap * allowed[i][None, :] * rate[i][None, :]).sum(axis=1)  # (s) token/s
        within = reachable[i] @ capacity  # (r) token/s each region can reach
        need = demand[i]  # (r, t) token/s
        servable = np.minimum(need, within[:, None])
        total = float((need * f.weight_hours[None, :]).sum())
        if total <= 0:
            continue
        unserved = 1.0 - float((servable * f.weight_hours[None, :]).sum()) / total
        if unserved <= RELATIVE_SLACK:
            continue
        r, t = np.unravel_index(np.argmax(need - servable), need.shape)
        reach = [f.sites[s] for s in np.flatnonzero(reachable[i, r])]
        sla = float(inputs["sla_ms"].values[i])
        mtoken_s = demand[i, r, t] / TOKENS_PER_MTOKEN
        findings.append(
            Finding(
                "serving-within-sla",
                "warning",
                f"at least {unserved:.1%} of service {service!r}'s demand cannot be served within "
                f"its {sla:g} ms SLA even with every chip serving it: region {regions[r]!r} needs "
                f"{mtoken_s:,.2f} M output tokens/s at {f.when(int(t))} but the sites within reach "
                f"({', '.join(reach) or 'none'}) serve at most {within[r] / TOKENS_PER_MTOKEN:,.2f} M "
                "at the service's rate per chip; the rest is unserved at the unserved penalty",
            )
        )
    return findings


def _times(needed: float, available: float) -> str:
    if available <= 0:
        return "nothing available"
    return f"{needed / available:,.3g}x"


def _rate_text(rate: np.ndarray, usable: np.ndarray) -> str:
    best = float(np.where(usable.any(axis=0), rate, 0.0).max()) if usable.any() else 0.0
    return f"{best:,.3g} EFLOP per chip-hour (MFU and goodput applied)"
