"""The performance model's fitted constants: achievable shares of peak, per system family.

Three numbers per family of systems (the vendor whose chips and serving and training
software they are): the share of dense peak FLOPS that matrix work reaches while
serving (``serving_flops_share``) and while training (``training_flops_share``), and
the share of HBM bandwidth that streaming weights and KV caches reaches
(``hbm_share``). They are fitted by ``bench/mlperf_fit.py`` on published MLPerf
results of the chips the table names in ``fitted_on`` and nothing else; a family with
no fitted row (a plugin's vendor, or one MLPerf has no results for) takes the
``default`` row, the mean of the fitted families, and estimates say so.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from geomodel.catalog.entries import HardwareSystem

DEFAULT_FAMILY = "default"


@dataclass(frozen=True)
class FamilyConstants:
    """Achievable shares of peak for one family of systems."""

    family: str
    serving_flops_share: float
    hbm_share: float
    training_flops_share: float
    fitted_on: str  #: the chips whose published results fixed these values

    @property
    def fitted(self) -> bool:
        return self.family != DEFAULT_FAMILY


@cache
def fitted_constants() -> dict[str, FamilyConstants]:
    """Every family's constants, from ``geomodel/performance/data/fitted_constants.csv``."""
    text = files("geomodel.performance").joinpath("data", "fitted_constants.csv").read_text("utf-8")
    rows = csv.DictReader(io.StringIO(text))
    return {
        row["family"]: FamilyConstants(
            family=row["family"],
            serving_flops_share=float(row["serving_flops_share"]),
            hbm_share=float(row["hbm_share"]),
            training_flops_share=float(row["training_flops_share"]),
            fitted_on=row["fitted_on"],
        )
        for row in rows
    }


def family_of(system: HardwareSystem) -> str:
    """The family a system's constants come from: its vendor, lower case."""
    return system.vendor.strip().lower()


def constants_for(system: HardwareSystem) -> FamilyConstants:
    """The constants of a system's family, or the default ones when it has none fitted."""
    table = fitted_constants()
    return table.get(family_of(system), table[DEFAULT_FAMILY])
