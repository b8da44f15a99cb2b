"""Say in scenario words why a model is infeasible: which job, service, site, hour and limit."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import xarray as xr

from geomodel.plugin_loader import component_prefix
from geomodel.solver.highs import IIS_MIN_S, IIS_SOLVE_FACTOR, SolveOutcome
from geomodel.solver.precheck import Finding

_NAME = re.compile(r"^(?P<group>\w+)(?:\[(?P<index>[^\]]*)\])?$")

#: The solver message of a scenario the aggregate checks proved infeasible unbuilt.
PROVEN_BEFORE_SOLVING = "Infeasible (shown by aggregate checks, before the model was built)"


def explain_infeasible(
    outcome: SolveOutcome,
    inputs: xr.Dataset,
    findings: Sequence[Finding],
    extensions: Sequence[str] = (),
) -> list[str]:
    """Why an infeasible model is infeasible, in words: the aggregate checks that prove
    it; else the constraints of an irreducible infeasible subset; else what was tried."""
    proven = [f.message for f in findings if f.severity in ("proof", "conditional")]
    if proven:
        return proven
    reasons = explain_constraints(outcome.iis_constraints, inputs, extensions=extensions)
    if reasons:
        return reasons
    if math.isnan(outcome.iis_seconds):
        return ["no aggregate check explains it, and no infeasible subset was searched for"]
    model_seconds = outcome.handover_seconds + outcome.solve_seconds
    return [
        "no aggregate check explains it, and HiGHS found no irreducible infeasible subset in "
        f"{outcome.iis_seconds:.1f} s (the search may take {IIS_SOLVE_FACTOR:g}x the model's "
        f"{model_seconds:.2f} s of hand-over and solve, at least {IIS_MIN_S:g} s: "
        f"{outcome.iis_limit_s:.1f} s here); a shorter horizon gives a smaller model to search"
    ]


def explain_constraints(
    names: list[str], inputs: xr.Dataset, limit: int = 12, extensions: Sequence[str] = ()
) -> list[str]:
    """One sentence per constraint of an infeasible subset, most telling first;
    ``extensions`` are the plugins whose ``extend_model`` added to the model."""
    sentences = [_sentence(name, inputs, extensions) for name in names]
    unique = list(dict.fromkeys(s for s in sentences if s))
    shown = unique[:limit]
    if len(unique) > limit:
        shown.append(f"... and {len(unique) - limit} more limits")
    return shown


def _coordinate(inputs: xr.Dataset, dim: str, position: int) -> str:
    return str(inputs[dim].values[position])


def _when(inputs: xr.Dataset, t: int) -> str:
    time = np.datetime_as_string(inputs["time"].values[t], unit="m")
    return f"{time} UTC"


def _sentence(name: str, inputs: xr.Dataset, extensions: Sequence[str] = ()) -> str:
    match = _NAME.match(name)
    if not match:
        return f"limit {name}"
    group = match["group"]
    plugin = next((p for p in extensions if group.startswith(component_prefix(p))), None)
    if plugin is not None:
        return f"limit {name}, added to the model by plugin {plugin!r} (its extend_model hook)"
    try:
        index = [int(part) for part in match["index"].split(",")] if match["index"] else []
    except ValueError:  # a component indexed by names, not positions
        return f"limit {name}"
    site = lambda p: repr(_coordinate(inputs, "site", p))  # noqa: E731 - tiny local formatters
    job = lambda p: repr(_coordinate(inputs, "job", p))  # noqa: E731
    if group == "work":
        (j,) = index
        return (
            f"training job {job(j)} cannot complete its "
            f"{float(inputs['work_eflop'].values[j]):,.0f} EFLOP within its window at the "
            "sites and systems it may use (capacity, max_chips, window or residency too tight)"
        )
    if group == "max_chips":
        j, t = index
        chips = float(inputs["max_chips"].values[j])
        return f"training job {job(j)} is limited to {chips:,.0f} chips at {_when(inputs, t)}"
    if group == "envelope":
        s, t = index
        return (
            f"site {site(s)} exceeds its {float(inputs['power_envelope_mw'].values[s]):,.1f} MW "
            f"power envelope at {_when(inputs, t)} (idle chips and DCI power alone may exceed it)"
        )
    if group == "balance":
        s, t = index
        return (
            f"site {site(s)} cannot get enough power at {_when(inputs, t)} "
            f"(grid import limit {float(inputs['grid_import_limit_mw'].values[s]):,.1f} MW "
            "plus available on-site generation)"
        )
    if group == "chip_capacity":
        s, h, t = index
        return (
            f"site {site(s)} has too few {_coordinate(inputs, 'system', h)} chips at {_when(inputs, t)}"
        )
    if group in ("link_capacity", "dp_traffic"):
        link, t = index[-2], index[-1]
        return (
            f"DCI link {_coordinate(inputs, 'link', link)} lacks capacity "
            f"({float(inputs['link_capacity_gbit_s'].values[link]):,.0f} Gb/s) for the "
            f"gradient exchange at {_when(inputs, t)}"
        )
    if group in ("one_group", "in_group"):
        j, t = index[0], index[-1]
        return (
            f"training job {job(j)} may run at {_when(inputs, t)} only at sites linked pairwise "
            "by DCI links fast enough for its pipeline budget"
        )
    if group in ("span_link", "whole_replicas"):
        j, s, t = index
        return f"training job {job(j)} at site {site(s)} at {_when(inputs, t)}: chip split limit"
    if group == "demand":
        return ""  # demand always has an unserved slack; never the cause
    return f"limit {name}"
