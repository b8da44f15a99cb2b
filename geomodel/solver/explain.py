"""Say in scenario words why a model is infeasible: which job, service, site, hour and limit."""

from __future__ import annotations

import re

import numpy as np
import xarray as xr

_NAME = re.compile(r"^(?P<group>\w+)(?:\[(?P<index>[^\]]*)\])?$")


def explain_constraints(names: list[str], inputs: xr.Dataset, limit: int = 12) -> list[str]:
    """One sentence per constraint of an infeasible subset, most telling first."""
    sentences = [_sentence(name, inputs) for name in names]
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


def _sentence(name: str, inputs: xr.Dataset) -> str:
    match = _NAME.match(name)
    if not match:
        return f"limit {name}"
    group = match["group"]
    index = [int(part) for part in match["index"].split(",")] if match["index"] else []
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
