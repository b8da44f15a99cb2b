"""How the scenario is judged and solved: latency model, objective weights, solver options."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from geomodel.scenario.schema.fields import Count, Name, Section
from geomodel.scenario.units import Quantity


class LatencyModel(Section):
    """How user-to-site latency is estimated (docs/fidelity.md)."""

    technology: Name = Field(
        default="smf_400zr",
        description="link technology whose fibre latency (us/km) users' traffic sees",
        examples=["smf_400zr"],
    )
    route_factor: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="route km / great-circle km, the same at every distance (default: the "
        "factor fitted to measured round trips, 2.75 on short routes falling to 1.54 on long ones)",
        examples=[1.3],
        json_schema_extra={"unit": "1"},
    )
    overhead: Quantity("ms", ge=0) | None = Field(
        default=None,
        description="fixed round-trip overhead: switching, processing, the user's access network "
        "(default: the fitted 2.36 ms, which holds no access network)",
        examples=["5 ms"],
    )


class Objective(Section):
    """Weights of the objective terms."""

    energy_price_multiplier: float = Field(
        default=1.0,
        ge=0,
        description="multiplies every energy price (price scenarios)",
        examples=[1.2],
        json_schema_extra={"unit": "1"},
    )
    carbon_price: Quantity("USD/tCO2", ge=0) = Field(
        default=0.0, description="price of emissions, per tonne CO2e", examples=["100 USD/tCO2"]
    )
    latency_weight: Quantity("USD/ms/Mtoken", ge=0) = Field(
        default=0.0,
        description="cost of each ms of round trip per million tokens served",
        examples=["0.01 USD/ms/Mtoken"],
    )
    unserved_penalty: Quantity("USD/Mtoken", ge=0) = Field(
        default=100.0,
        description="cost per million tokens of demand not served",
        examples=["100 USD/Mtoken"],
    )


class IntegerOptions(Section):
    """Integer decisions beside site participation (solver.participation)."""

    @model_validator(mode="before")
    @classmethod
    def _site_participation_moved(cls, data: Any) -> Any:
        if isinstance(data, dict) and "site_participation" in data:
            raise ValueError(
                "site_participation is now solver.participation: 'exact' (binary site use, "
                "the default), 'relax_fix' or 'relaxed' (the LP relaxation, not executable)"
            )
        return data

    systems_on_off: bool = Field(
        default=False, description="whole systems on or off per step", examples=[True]
    )
    dp_replicas: bool = Field(default=False, description="whole data-parallel replicas", examples=[True])
    whole_systems: bool = Field(
        default=False,
        description="planning: systems are built whole (whole racks for rack-scale systems)",
        examples=[True],
    )
    site_opening: bool = Field(
        default=False,
        description="planning: a new site is opened or not (binary), paying its open_cost whole",
        examples=[True],
    )
    whole_fibre_pairs: bool = Field(
        default=False, description="planning: fibre pairs are lit whole", examples=[True]
    )


class SolverOptions(Section):
    """Options handed to HiGHS."""

    time_limit: Quantity("s", gt=0) = Field(
        default=600.0, description="wall-clock limit of the solve", examples=["120 s"]
    )
    mip_gap: float = Field(
        default=0.01,
        ge=0,
        le=1,
        description="relative MIP gap at which to stop",
        examples=[0.001],
        json_schema_extra={"unit": "1"},
    )
    threads: Count = Field(
        default=1,
        ge=0,
        le=256,
        description="HiGHS threads (0 = automatic)",
        examples=[4],
        json_schema_extra={"unit": "threads"},
    )
    method: Literal["auto", "dual_simplex", "primal_simplex", "ipm", "ipm_no_crossover", "pdlp"] = Field(
        default="auto",
        description=(
            "HiGHS method for a linear programme: auto picks by size as measured in "
            "docs/performance.md; ipm is interior point with crossover to a vertex "
            "solution; ipm_no_crossover is about a quarter faster on large models but "
            "returns an interior plan that spreads load over equally cheap options. "
            "A MIP's branch and bound always uses HiGHS's own choice"
        ),
        examples=["ipm"],
    )
    participation: Literal["exact", "relax_fix", "relaxed"] = Field(
        default="exact",
        description=(
            "how each synchronous training job's use of sites is decided (docs/model.md (6)): "
            "exact makes it binary, so a job uses at each step only sites linked pairwise with "
            "the capacity its gradient exchange needs (a MIP where a job could use two sites); "
            "relax_fix solves the LP, keeps each job at the group of linked sites where the LP "
            "put most of it and solves again; relaxed is the LP relaxation alone, whose plan "
            "may split a job over unlinked sites and is reported as not executable"
        ),
        examples=["relaxed"],
    )
    integer: IntegerOptions = Field(
        default_factory=IntegerOptions,
        description="other integer decisions (default: none)",
        examples=[{"systems_on_off": True}],
    )
    shed_idle_power: bool = Field(
        default=False,
        description="chips powered on at each site, system and step are a decision of the LP "
        "and idle power is paid only on powered-on chips (default: every installed chip draws "
        "idle power; docs/model.md)",
        examples=[True],
    )
    merge_jobs: bool = Field(
        default=True,
        description="merge training jobs the model cannot tell apart into one class before the "
        "build and split the results back (exact with participation relaxed; with binary site "
        "use a class is a pool whose members may share its sites in a step; docs/model.md)",
        examples=[False],
    )
