"""Every capacity the model uses, in one place (docs/model.md, "Capacity").

A capacity is what is installed plus, in planning mode, what the optimiser builds:
chips of a system at a site, the site's power envelope, a source's capacity, a link's
Gb/s and the DCI power its lit pairs draw, the grid import limit, a battery's power and
energy. Without build options (or where nothing may be built) a capacity is the
installed constant, read from the inputs exactly as operational mode reads it, so the
model of such a scenario is the operational model term for term.

The ``most_*`` functions give the largest value a capacity may take (installed plus
the most that may be built); the index sets and variable bounds use them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr
from pyomo.core.expr.numeric_expr import LinearExpression

from geomodel.inputs.dataset import is_planning
from geomodel.model.basics import linear


@dataclass(frozen=True)
class Affine:
    """``constant + sum of coef x var``: an installed constant plus built terms."""

    constant: float
    terms: tuple[tuple[float, Any], ...] = ()

    def expression(self) -> LinearExpression | float:
        if not self.terms:
            return self.constant
        return linear([c for c, _ in self.terms], [v for _, v in self.terms], self.constant)


def at_most(coefs: list[float], variables: list, limit: Affine, factor: float = 1.0):
    """``sum of coefs x variables <= factor x limit``, the limit's built terms moved left.

    Without built terms this is the row operational mode writes, ``... <= factor x installed``.
    """
    if limit.terms:
        coefs = [*coefs, *(-factor * c for c, _ in limit.terms)]
        variables = [*variables, *(v for _, v in limit.terms)]
    return linear(coefs, variables) <= float(limit.constant * factor)


def most_chips(inputs: xr.Dataset) -> np.ndarray:
    """(site, system): installed chips plus the most that may be built."""
    installed = inputs["chips_installed"].values
    if not is_planning(inputs):
        return installed
    return installed + inputs["build_max_systems"].values * inputs["chips_per_system"].values[None, :]


def most_job_chips(inputs: xr.Dataset) -> np.ndarray:
    """(job, site): the most chips a job can use at a site, ``U[j,s]`` of docs/model.md (6):
    its eligible systems' most chips x availability, at most the job's ``max_chips``."""
    eligible = inputs["job_system_eligible"].values.astype(bool)
    site_chips = (eligible @ most_chips(inputs).T) * inputs["availability"].values[None, :]
    return np.minimum(site_chips, inputs["max_chips"].values[:, None])


def most_source_mw(inputs: xr.Dataset) -> np.ndarray:
    """(site, source): installed capacity plus the most that may be built, MW."""
    installed = inputs["source_capacity_mw"].values
    if not is_planning(inputs):
        return installed
    return installed + inputs["build_max_source_mw"].values


def most_link_gbit_s(inputs: xr.Dataset) -> np.ndarray:
    """(link): lit capacity plus the pairs that may be lit, Gb/s."""
    installed = inputs["link_capacity_gbit_s"].values
    if not is_planning(inputs):
        return installed
    return (
        installed
        + inputs["build_max_fibre_pairs"].values * inputs["link_capacity_gbit_s_per_pair"].values
    )


def dci_power_mw(inputs: xr.Dataset, sites: list[str]) -> np.ndarray:
    """Lit links draw their power whether or not they carry traffic; half at each end."""
    power = np.zeros(len(sites))
    for a, b, link_mw in zip(
        inputs["link_site_a"].values,
        inputs["link_site_b"].values,
        inputs["link_power_mw"].values,
        strict=True,
    ):
        power[sites.index(str(a))] += link_mw / 2.0
        power[sites.index(str(b))] += link_mw / 2.0
    return power


class Capacity:
    """Capacities of one model: installed constants, plus its build variables if any.

    The build variables are the model's ``build_*`` components (geomodel/model/planning.py);
    where one does not exist for an index, nothing may be built there.
    """

    def __init__(self, m, inputs: xr.Dataset, sites: list[str]) -> None:
        self.m = m
        self.inputs = inputs
        self.installed_chips = inputs["chips_installed"].values
        self.chips_per_system = inputs["chips_per_system"].values
        self.envelope = inputs["power_envelope_mw"].values
        self.source_mw = inputs["source_capacity_mw"].values
        self.link = inputs["link_capacity_gbit_s"].values
        self.grid_limit = inputs["grid_import_limit_mw"].values
        self.dci_mw = dci_power_mw(inputs, sites)
        self.planning = is_planning(inputs)
        self._cache: dict[tuple, Affine] = {}  # constraints ask for one capacity at every step
        if self.planning:
            self.pair_gbit_s = inputs["link_capacity_gbit_s_per_pair"].values
            self.pair_mw = inputs["link_power_mw_per_pair"].values
            self.follows = inputs["grid_limit_follows_envelope"].values
            site_index = {name: s for s, name in enumerate(sites)}
            self.link_ends = [
                (site_index[str(a)], site_index[str(b)])
                for a, b in zip(inputs["link_site_a"].values, inputs["link_site_b"].values, strict=True)
            ]

    def _built(self, name: str, index) -> Any | None:
        if not self.planning:
            return None
        component = getattr(self.m, name, None)
        if component is None or index not in component:
            return None
        return component[index]

    def _affine(self, constant: float, coef: float, name: str, index) -> Affine:
        key = (name, index)
        if key not in self._cache:
            var = self._built(name, index)
            terms = () if var is None else ((coef, var),)
            self._cache[key] = Affine(float(constant), terms)
        return self._cache[key]

    def chips(self, s: int, h: int) -> Affine:
        """Chips of system h at site s: installed plus built systems x chips per system."""
        return self._affine(
            self.installed_chips[s, h], self.chips_per_system[h], "build_systems", (s, h)
        )

    def built_systems(self, s: int, h: int) -> Any | None:
        """The variable of systems h built at s, or None."""
        return self._built("build_systems", (s, h))

    def envelope_mw(self, s: int) -> Affine:
        """Facility power limit of site s, MW."""
        return self._affine(self.envelope[s], 1.0, "build_envelope_mw", s)

    def generator_mw(self, s: int, k: int) -> Affine:
        """Capacity of source k at site s, MW."""
        return self._affine(self.source_mw[s, k], 1.0, "build_source_mw", (s, k))

    def link_gbit_s(self, link: int) -> Affine:
        """Capacity of a link, Gb/s: lit pairs plus pairs built."""
        coef = self.pair_gbit_s[link] if self.planning else 0.0
        return self._affine(self.link[link], coef, "build_fibre_pairs", link)

    def dci_power_mw(self, s: int) -> Affine:
        """DCI power drawn at site s, MW: half of each lit pair's power on links ending there."""
        key = ("dci", s)
        if key not in self._cache:
            terms = []
            for link, ends in enumerate(self.link_ends if self.planning else ()):
                var = self._built("build_fibre_pairs", link)
                if var is not None and s in ends:
                    terms.append((self.pair_mw[link] / 2.0, var))
            self._cache[key] = Affine(float(self.dci_mw[s]), tuple(terms))
        return self._cache[key]

    def grid_limit_mw(self, s: int) -> Affine:
        """Most grid import at site s, MW: the envelope's where the grid follows it."""
        if self.planning and self.follows[s]:
            return self.envelope_mw(s)
        return Affine(float(self.grid_limit[s]))

    def battery_mw(self, s: int) -> Affine:
        """Charge and discharge power of the battery built at s, MW."""
        return self._affine(0.0, 1.0, "build_battery_mw", s)

    def battery_mwh(self, s: int) -> Affine:
        """Energy capacity of the battery built at s, MWh."""
        return self._affine(0.0, 1.0, "build_battery_mwh", s)
