"""The scenario file format: one pydantic model per section.

Field names carry no units; each quantity field stores its value in the unit
named in its description (and in the JSON Schema's ``unit``) and accepts a
string with units such as ``"250 MW"``. docs/scenarios.md is checked against
this module by a test.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any, Literal

import pandas as pd
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from geomodel.geo import coordinate_problem
from geomodel.scenario.units import Quantity

Name = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", max_length=64)]
Fraction = Annotated[float, Field(gt=0, le=1)]

#: Default PUE per cooling class (facts sheet section 4.5, mid-points of the estimate ranges).
COOLING_PUE: dict[str, float] = {
    "legacy_air": 1.6,
    "air_economiser": 1.3,
    "hot_humid_air": 1.42,
    "free_cooling": 1.1,
    "liquid": 1.14,
    "immersion": 1.06,
}


class Section(BaseModel):
    """Base of every scenario section: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", validate_default=True)


class Located(Section):
    lat: float = Field(description="latitude, degrees north (WGS84)")
    lon: float = Field(description="longitude, degrees east (WGS84)")

    @model_validator(mode="after")
    def _coordinates(self) -> Located:
        if not (math.isfinite(self.lat) and math.isfinite(self.lon)):
            raise ValueError("lat and lon must be finite numbers")
        problem = coordinate_problem(self.lat, self.lon)
        if problem:
            raise ValueError(problem)
        return self


class Aggregation(Section):
    typical_days: int = Field(ge=1, le=366, description="number of typical days (tsam)")


class TimeSpec(Section):
    """The horizon: start, length and step."""

    start: AwareDatetime = Field(description="first hour, with a UTC offset or zone")
    hours: int | None = Field(default=None, gt=0, le=10 * 8784, description="horizon length, h")
    end: AwareDatetime | None = Field(default=None, description="end of the horizon (exclusive)")
    resolution: Quantity("h", gt=0, le=24) = Field(default=1.0, description="time step, h")
    aggregation: Aggregation | None = Field(default=None, description="typical-day clustering")

    @model_validator(mode="after")
    def _length(self) -> TimeSpec:
        if (self.hours is None) == (self.end is None):
            raise ValueError("give exactly one of 'hours' or 'end'")
        if self.end is not None and self.end <= self.start:
            raise ValueError(f"end {self.end} must be after start {self.start}")
        if not float(self.resolution).is_integer() or 24 % int(self.resolution):
            raise ValueError(f"resolution must divide a day in whole hours, got {self.resolution} h")
        if self.horizon_hours % self.resolution:
            raise ValueError(
                f"horizon of {self.horizon_hours:g} h is not a whole number of "
                f"{self.resolution:g} h steps"
            )
        return self

    @property
    def horizon_hours(self) -> float:
        if self.hours is not None:
            return float(self.hours)
        return (self.end - self.start).total_seconds() / 3600.0

    @property
    def steps(self) -> int:
        return int(self.horizon_hours // self.resolution)

    def index(self) -> pd.DatetimeIndex:
        """Start of every time step, in the start's time zone."""
        return pd.date_range(self.start, periods=self.steps, freq=f"{int(self.resolution)}h")

    def hourly_index(self) -> pd.DatetimeIndex:
        """Every hour of the horizon (profiles are hourly; steps may be longer)."""
        return pd.date_range(self.start, periods=int(self.horizon_hours), freq="1h")


class PowerSupply(Section):
    """A generator on site or a contracted source, by catalogue name."""

    capacity: Quantity("MW", ge=0) = Field(description="installed or contracted capacity, MW")
    price: Quantity("USD/MWh", ge=-500) | None = Field(
        default=None, description="overrides the catalogue price, USD/MWh"
    )
    carbon: Quantity("kgCO2/MWh", ge=0) | None = Field(
        default=None, description="overrides the catalogue carbon intensity, kgCO2e/MWh"
    )
    profile_csv: str | None = Field(
        default=None, description="CSV of hourly capacity factors replacing the catalogue profile"
    )
    profile_column: str | None = Field(default=None, description="column of profile_csv")

    @model_validator(mode="after")
    def _csv_with_column(self) -> PowerSupply:
        if (self.profile_csv is None) != (self.profile_column is None):
            raise ValueError("'profile_csv' and 'profile_column' go together")
        return self


class Site(Located):
    """A data centre: location, power, cooling and installed hardware."""

    grid: Name | None = Field(
        default=None, description="grid power source (kind grid), e.g. grid_de; none = off-grid"
    )
    grid_import_limit: Quantity("MW", ge=0) | None = Field(
        default=None, description="most the grid connection can deliver, MW (default: envelope)"
    )
    power_envelope: Quantity("MW", gt=0) = Field(description="facility power limit, MW")
    pue: float | None = Field(default=None, ge=1, le=3, description="power usage effectiveness")
    cooling: Literal[tuple(COOLING_PUE)] | None = Field(  # type: ignore[valid-type]
        default=None, description="cooling class, sets a default PUE"
    )
    systems: dict[Name, Annotated[int, Field(ge=0)]] = Field(
        description="installed hardware: catalogue system name -> number of systems"
    )
    availability: Fraction = Field(
        default=0.97, description="fraction of installed chips usable at any hour"
    )
    power_sources: dict[Name, PowerSupply] = Field(
        default_factory=dict, description="on-site or contracted sources by catalogue name"
    )
    jurisdiction: str = Field(
        default="", max_length=32, description="country or data-residency zone, e.g. CN, EU"
    )

    @model_validator(mode="after")
    def _pue_or_cooling(self) -> Site:
        if self.pue is None and self.cooling is None:
            raise ValueError(f"give 'pue' or 'cooling' (one of {', '.join(COOLING_PUE)})")
        if self.pue is not None and self.cooling is not None:
            raise ValueError("give 'pue' or 'cooling', not both")
        return self

    @property
    def effective_pue(self) -> float:
        return self.pue if self.pue is not None else COOLING_PUE[self.cooling]


class Demand(Section):
    """Demand of one service in one region, tokens per second."""

    constant: Quantity("token/s", ge=0) | None = Field(default=None, description="flat demand, tokens/s")
    daily_shape: list[Annotated[float, Field(ge=0)]] | None = Field(
        default=None, description="24 hourly multipliers in local solar time, mean-normalised"
    )
    mean: Quantity("token/s", ge=0) | None = Field(
        default=None, description="mean demand the daily shape is scaled to, tokens/s"
    )
    csv: str | None = Field(default=None, description="CSV file relative to the scenario")
    column: str | None = Field(default=None, description="column of the CSV to read")
    scale: float = Field(default=1.0, ge=0, description="multiplier applied to the series")

    @model_validator(mode="before")
    @classmethod
    def _bare_number_is_constant(cls, value: Any) -> Any:
        if isinstance(value, int | float | str) and not isinstance(value, bool):
            return {"constant": value}
        return value

    @model_validator(mode="after")
    def _one_kind(self) -> Demand:
        kinds = [k for k in ("constant", "daily_shape", "csv") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("give exactly one of 'constant', 'daily_shape' (with 'mean') or 'csv'")
        if self.daily_shape is not None:
            if len(self.daily_shape) != 24:
                raise ValueError(f"daily_shape needs 24 values, got {len(self.daily_shape)}")
            if self.mean is None:
                raise ValueError("daily_shape needs 'mean' (tokens/s)")
            if sum(self.daily_shape) <= 0:
                raise ValueError("daily_shape must have a positive value")
        if self.csv is not None and self.column is None:
            raise ValueError("csv needs 'column'")
        return self


class Region(Located):
    """Where inference users are, and how much they ask for."""

    demand: dict[Name, Demand] = Field(
        default_factory=dict, description="inference service name -> demand"
    )


class LinkRoute(Section):
    """A DCI route between two sites."""

    sites: tuple[Name, Name] = Field(description="the two site names")
    technology: Name = Field(description="link technology from the catalogue")
    fibre_pairs: int = Field(default=1, ge=1, le=1000)
    length: Quantity("km", gt=0) | None = Field(
        default=None, description="route length, km (default: geodesic x route factor)"
    )
    route_factor: float | None = Field(default=None, ge=1, le=3)

    @model_validator(mode="after")
    def _two_sites(self) -> LinkRoute:
        if self.sites[0] == self.sites[1]:
            raise ValueError(f"a link joins two different sites, got {self.sites[0]!r} twice")
        return self


class LinkMesh(Section):
    """A link between every pair of sites (within ``max_length`` if given)."""

    technology: Name
    fibre_pairs: int = Field(default=1, ge=1, le=1000)
    route_factor: float | None = Field(default=None, ge=1, le=3)
    max_length: Quantity("km", gt=0) | None = Field(
        default=None, description="only pairs whose route is at most this long, km"
    )


class Links(Section):
    mesh: LinkMesh | None = None
    routes: list[LinkRoute] = Field(default_factory=list, description="explicit routes")


class Window(Section):
    start: AwareDatetime | None = None
    end: AwareDatetime | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if self.start and self.end and self.start >= self.end:
            raise ValueError(f"window start {self.start} must be before end {self.end}")
        return self


class TrainingJob(Section):
    """A training run measured in FLOP, with its parallel layout and constraints."""

    compute: Quantity("EFLOP", gt=0) | None = Field(
        default=None, description="total training compute, EFLOP (1 EFLOP = 1e18 FLOP)"
    )
    params: float | None = Field(default=None, gt=0, description="model parameters (6·N·D rule)")
    tokens: float | None = Field(default=None, gt=0, description="training tokens (6·N·D rule)")
    tp: int = Field(default=1, ge=1, description="tensor-parallel degree")
    ep: int = Field(default=1, ge=1, description="expert-parallel degree")
    pp: int = Field(default=1, ge=1, description="pipeline-parallel degree")
    max_chips: int | None = Field(default=None, gt=0, description="most chips at any time")
    mfu: Fraction = Field(default=0.4, description="model FLOPs utilisation")
    precision: Literal["bf16", "fp8"] = "bf16"
    window: Window | None = Field(default=None, description="when the job may run")
    sites: list[Name] | None = Field(default=None, description="allowed sites (default: all)")
    jurisdictions: list[str] | None = Field(
        default=None, description="allowed site jurisdictions (data residency)"
    )
    gradient_size: Quantity("GB", gt=0) | None = Field(
        default=None, description="gradient bytes per data-parallel sync, GB (default 2 B/param)"
    )
    sync_interval: Quantity("s", gt=0) = Field(
        default=10.0, description="time between gradient synchronisations, s"
    )
    checkpoint_size: Quantity("GB", gt=0) | None = Field(
        default=None, description="checkpoint size, GB (default 14 B/param)"
    )
    checkpoint_bandwidth: Quantity("GB/s", gt=0) = Field(
        default=100.0, description="checkpoint write bandwidth, GB/s"
    )
    restart: Quantity("min", ge=0) = Field(default=10.0, description="restart time, minutes")
    pipeline_latency_budget: Quantity("ms", gt=0) | None = Field(
        default=None,
        description="most one-way link latency a pipeline stage may cross, ms (none: in one site)",
    )

    @model_validator(mode="after")
    def _work(self) -> TrainingJob:
        has_nd = self.params is not None and self.tokens is not None
        if (self.compute is None) == (not has_nd):
            if self.compute is None:
                raise ValueError("give 'compute' or both 'params' and 'tokens'")
            raise ValueError("give 'compute' or 'params' and 'tokens', not both")
        if (self.params is None) != (self.tokens is None) and self.compute is None:
            raise ValueError("'params' and 'tokens' go together")
        if self.gradient_size is None and self.params is None:
            raise ValueError("give 'gradient_size' (GB) or 'params' to derive it")
        return self

    @property
    def compute_eflop(self) -> float:
        """Total work: as given, or 6 x params x tokens (Kaplan et al. 2020)."""
        if self.compute is not None:
            return self.compute
        return 6.0 * self.params * self.tokens / 1e18

    @property
    def group_chips(self) -> int:
        """Chips in one TP x EP group, which must sit inside a scale-up domain."""
        return self.tp * self.ep

    @property
    def gradient_gb(self) -> float:
        return self.gradient_size if self.gradient_size is not None else 2.0 * self.params / 1e9

    @property
    def checkpoint_gb(self) -> float:
        if self.checkpoint_size is not None:
            return self.checkpoint_size
        return 14.0 * self.params / 1e9 if self.params else 0.0


class InferenceService(Section):
    """A model served to users: compute per token, SLA and achieved efficiency."""

    flop_per_token: Quantity("FLOP", gt=0) | None = Field(
        default=None, description="compute per generated token, FLOP"
    )
    active_params: float | None = Field(
        default=None, gt=0, description="active parameters per token (2·N FLOP per token)"
    )
    sla: Quantity("ms", gt=0) = Field(description="round-trip network latency limit, ms")
    efficiency: Fraction = Field(default=0.3, description="achieved fraction of peak FLOPS")
    precision: Literal["bf16", "fp8"] = "fp8"
    systems: list[Name] | None = Field(default=None, description="allowed systems (default: all)")

    @model_validator(mode="after")
    def _compute(self) -> InferenceService:
        if (self.flop_per_token is None) == (self.active_params is None):
            raise ValueError("give exactly one of 'flop_per_token' or 'active_params'")
        return self

    @property
    def flop_per_token_value(self) -> float:
        return self.flop_per_token if self.flop_per_token else 2.0 * self.active_params


class LatencyModel(Section):
    """How user-to-site latency is estimated (DESIGN section 4)."""

    technology: Name = Field(default="smf_400zr", description="fibre used for propagation")
    route_factor: float = Field(default=1.5, ge=1, le=3, description="route km / great-circle km")
    overhead: Quantity("ms", ge=0) = Field(
        default=2.0, description="fixed round-trip overhead (access network, processing), ms"
    )


class Objective(Section):
    """Weights of the objective terms."""

    energy_price_multiplier: float = Field(default=1.0, ge=0)
    carbon_price: Quantity("USD/tCO2", ge=0) = Field(default=0.0, description="USD/tCO2e")
    latency_weight: Quantity("USD/ms/Mtoken", ge=0) = Field(
        default=0.0, description="USD per ms of round trip per million tokens served"
    )
    unserved_penalty: Quantity("USD/Mtoken", ge=0) = Field(
        default=100.0, description="USD per million tokens of demand not served"
    )


class IntegerOptions(Section):
    systems_on_off: bool = Field(default=False, description="whole systems on or off per step")
    dp_replicas: bool = Field(default=False, description="whole data-parallel replicas")
    site_participation: bool = Field(default=False, description="binary site use per job")


class SolverOptions(Section):
    time_limit: Quantity("s", gt=0) = Field(default=600.0, description="seconds")
    mip_gap: float = Field(default=0.01, ge=0, le=1, description="relative MIP gap")
    threads: int = Field(default=1, ge=0, le=256, description="HiGHS threads (0 = automatic)")
    integer: IntegerOptions = Field(default_factory=IntegerOptions)


class Scenario(Section):
    """One planning question: time, sites, users, links, work, objective, solver."""

    name: str = Field(default="", max_length=200)
    description: str = Field(default="", max_length=5000)
    time: TimeSpec
    sites: dict[Name, Site] = Field(min_length=1)
    regions: dict[Name, Region] = Field(default_factory=dict)
    links: Links = Field(default_factory=Links)
    training: dict[Name, TrainingJob] = Field(default_factory=dict)
    inference: dict[Name, InferenceService] = Field(default_factory=dict)
    latency: LatencyModel = Field(default_factory=LatencyModel)
    objective: Objective = Field(default_factory=Objective)
    solver: SolverOptions = Field(default_factory=SolverOptions)
    variants: dict[Name, dict[str, Any]] = Field(
        default_factory=dict, description="named partial overrides, deep-merged when chosen"
    )
    _origin: Any = PrivateAttr(default=None)

    @property
    def origin(self) -> Any:
        """Where the scenario came from (files, variants, series, hash); set by the loader."""
        return self._origin


def window_bounds(job: TrainingJob, time: TimeSpec) -> tuple[datetime, datetime]:
    """The job's window clipped to the horizon."""
    start = time.start
    end = time.start + pd.Timedelta(hours=time.horizon_hours)
    if job.window is not None:
        start = max(start, job.window.start or start)
        end = min(end, job.window.end or end)
    return start, end
