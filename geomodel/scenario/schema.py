"""The scenario file format: one pydantic model per section.

Field names carry no units; each quantity field stores its value in the unit
named in its description (and in the JSON Schema's ``unit``) and accepts a
string with units such as ``"250 MW"``. docs/scenarios.md is checked against
this module by a test.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import pandas as pd
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    model_validator,
)

from geomodel.scenario.units import Quantity

#: Pattern of every name a scenario defines (sites, regions, jobs, services, variants).
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
Name = Annotated[str, Field(pattern=NAME_PATTERN, max_length=64)]
Fraction = Annotated[float, Field(gt=0, le=1, json_schema_extra={"unit": "1"})]
ONE_DAY_SHAPE = [0.5, 0.4, 0.35, 0.3, 0.3, 0.35, 0.5, 0.7, 0.9, 1.1, 1.2, 1.3]
ONE_DAY_SHAPE += [1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.25, 1.2, 1.1, 1.0, 0.8, 0.6]


def _not_a_number(value: Any) -> Any:
    """Refuse numbers where a date-time is expected (pydantic would read them as Unix time)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise ValueError("expected a date-time such as 2025-01-01T00:00:00+00:00, not a number")
    return value


#: A date-time with a UTC offset or zone, given as ISO 8601 text.
Timestamp = Annotated[AwareDatetime, BeforeValidator(_not_a_number)]


def _not_a_boolean(value: Any) -> Any:
    """Refuse true and false where a count is expected (pydantic would read them as 1 and 0)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, not {str(value).lower()}")
    return value


#: A whole number of something (days, steps, chips, threads); true and false are not counts.
Count = Annotated[int, BeforeValidator(_not_a_boolean)]


def _latitude(value: float) -> float:
    if not -90 <= value <= 90:
        hint = " (that looks like a longitude: did you swap lat and lon?)" if abs(value) <= 180 else ""
        raise ValueError(f"latitude must lie in [-90, 90]{hint}")
    return value


def _longitude(value: float) -> float:
    if not -180 <= value <= 180:
        raise ValueError("longitude must lie in [-180, 180]")
    return value


Latitude = Annotated[
    float, AfterValidator(_latitude), Field(json_schema_extra={"minimum": -90, "maximum": 90})
]
Longitude = Annotated[
    float, AfterValidator(_longitude), Field(json_schema_extra={"minimum": -180, "maximum": 180})
]

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

    model_config = ConfigDict(extra="forbid", validate_default=True, allow_inf_nan=False)


class Located(Section):
    """Fields of anything with a place on the map."""

    lat: Latitude = Field(
        description="latitude, degrees north (WGS84)",
        examples=[32.52],
        json_schema_extra={"unit": "degrees"},
    )
    lon: Longitude = Field(
        description="longitude, degrees east (WGS84)",
        examples=[-99.78],
        json_schema_extra={"unit": "degrees"},
    )


class Aggregation(Section):
    """Clustering of the horizon into typical days (used for year-long studies)."""

    typical_days: Count = Field(
        ge=1,
        le=366,
        description="number of typical days (tsam)",
        examples=[8],
        json_schema_extra={"unit": "days"},
    )
    segments: Count | None = Field(
        default=None,
        ge=1,
        le=24,
        description=(
            "steps per typical day: adjacent hours with similar prices, weather and demand "
            "merged into this many segments of varying length (tsam); none: 24 hourly steps"
        ),
        examples=[6],
        json_schema_extra={"unit": "steps"},
    )


class TimeSpec(Section):
    """The horizon: start, length and step."""

    start: Timestamp = Field(
        description="first hour, ISO 8601 with a UTC offset",
        examples=["2025-07-01T00:00:00-05:00"],
    )
    hours: Count | None = Field(
        default=None,
        gt=0,
        le=10 * 8784,
        description="horizon length (give this or 'end')",
        examples=[48],
        json_schema_extra={"unit": "h"},
    )
    end: Timestamp | None = Field(
        default=None,
        description="end of the horizon, exclusive (give this or 'hours')",
        examples=["2025-07-08T00:00:00-05:00"],
    )
    resolution: Quantity("h", gt=0, le=24) = Field(
        default=1.0,
        description="time step; whole hours dividing a day (1, 2, 3, 4, 6, 8, 12, 24)",
        examples=["2 h"],
    )
    aggregation: Aggregation | None = Field(
        default=None, description="typical-day clustering", examples=[{"typical_days": 8}]
    )

    @model_validator(mode="after")
    def _length(self) -> TimeSpec:
        if (self.hours is None) == (self.end is None):
            raise ValueError("give exactly one of 'hours' or 'end'")
        if self.end is not None and self.end <= self.start:
            raise ValueError(f"end {self.end} must be after start {self.start}")
        if not float(self.resolution).is_integer() or 24 % int(self.resolution):
            raise ValueError(
                f"resolution must be whole hours dividing a day (1, 2, 3, 4, 6, 8, 12 or 24), "
                f"got {self.resolution:g} h"
            )
        if not self.horizon_hours.is_integer():
            raise ValueError(f"the horizon must be whole hours, got {self.horizon_hours:g} h")
        if self.horizon_hours % self.resolution:
            raise ValueError(
                f"horizon of {self.horizon_hours:g} h is not a whole number of "
                f"{self.resolution:g} h steps"
            )
        if self.aggregation is not None:
            if self.resolution != 1:
                raise ValueError(
                    "typical days (time.aggregation) are built from hourly steps: "
                    f"use time.resolution 1 h, not {self.resolution:g} h"
                )
            if self.horizon_hours % 24:
                raise ValueError(
                    f"typical days need a horizon of whole days, got {self.horizon_hours:g} h"
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

    @property
    def model_steps(self) -> int:
        """Steps of the model: typical days times steps per day when the horizon is aggregated."""
        aggregation = self.aggregation
        days = int(self.horizon_hours // 24)
        if aggregation is None or (aggregation.typical_days >= days and not aggregation.segments):
            return self.steps
        return min(aggregation.typical_days, days) * (aggregation.segments or 24)

    def index(self) -> pd.DatetimeIndex:
        """Start of every time step, in the start's time zone."""
        return pd.date_range(self.start, periods=self.steps, freq=f"{int(self.resolution)}h")

    def hourly_index(self) -> pd.DatetimeIndex:
        """Every hour of the horizon (profiles are hourly; steps may be longer)."""
        return pd.date_range(self.start, periods=int(self.horizon_hours), freq="1h")


class PowerSupply(Section):
    """A generator on site or a contracted source, by catalogue name."""

    capacity: Quantity("MW", ge=0) = Field(
        description="installed or contracted capacity", examples=["150 MW"]
    )
    price: Quantity("USD/MWh", ge=-500) | None = Field(
        default=None, description="overrides the catalogue price", examples=["35 USD/MWh"]
    )
    carbon: Quantity("kgCO2/MWh", ge=0) | None = Field(
        default=None,
        description="overrides the catalogue carbon intensity (kgCO2e/MWh = gCO2e/kWh)",
        examples=["12 kgCO2/MWh"],
    )
    profile_csv: str | None = Field(
        default=None,
        description="CSV of hourly capacity factors (0..1) replacing the catalogue profile",
        examples=["profiles/abilene.csv"],
    )
    profile_column: str | None = Field(
        default=None, description="column of profile_csv", examples=["solar_pv"]
    )

    @model_validator(mode="after")
    def _csv_with_column(self) -> PowerSupply:
        if (self.profile_csv is None) != (self.profile_column is None):
            raise ValueError("'profile_csv' and 'profile_column' go together")
        return self


class Site(Located):
    """A data centre: location, power, cooling and installed hardware."""

    grid: Name | None = Field(
        default=None,
        description="grid power source (kind grid) by catalogue name; none = off-grid",
        examples=["grid_us_tx_ercot"],
    )
    grid_import_limit: Quantity("MW", ge=0) | None = Field(
        default=None,
        description="most the grid connection delivers (default: the power envelope)",
        examples=["150 MW"],
    )
    power_envelope: Quantity("MW", gt=0) = Field(
        description="facility power limit (IT x PUE + DCI)", examples=["200 MW"]
    )
    pue: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="power usage effectiveness (give this or 'cooling')",
        examples=[1.2],
        json_schema_extra={"unit": "1"},
    )
    cooling: Literal[tuple(COOLING_PUE)] | None = Field(  # type: ignore[valid-type]
        default=None,
        description="cooling class, sets the PUE (give this or 'pue')",
        examples=["liquid"],
    )
    systems: dict[Name, Annotated[int, Field(ge=0)]] = Field(
        description="installed hardware: catalogue system name -> number of systems",
        examples=[{"gb200_nvl72": 600}],
        json_schema_extra={"unit": "systems"},
    )
    availability: Fraction = Field(
        default=0.97,
        description="fraction of installed chips usable at any hour (maintenance, spares)",
        examples=[0.95],
    )
    power_sources: dict[Name, PowerSupply] = Field(
        default_factory=dict,
        description="on-site or contracted sources by catalogue name",
        examples=[{"solar_pv": {"capacity": "150 MW"}}],
    )
    jurisdiction: str = Field(
        default="",
        max_length=32,
        description="country or data-residency zone, matched by training jobs' 'jurisdictions'",
        examples=["US"],
    )

    @model_validator(mode="after")
    def _pue_or_cooling(self) -> Site:
        if self.pue is None and self.cooling is None:
            raise ValueError(f"give 'pue' or 'cooling' (one of {', '.join(COOLING_PUE)})")
        if self.pue is not None and self.cooling is not None:
            raise ValueError("give 'pue' or 'cooling', not both")
        if self.grid is None and self.grid_import_limit is not None:
            raise ValueError("'grid_import_limit' needs a 'grid' to import from")
        return self

    @property
    def effective_pue(self) -> float:
        return self.pue if self.pue is not None else COOLING_PUE[self.cooling]


class Demand(Section):
    """Demand of one service in one region, tokens per second.

    A bare number or quantity (``chat: 30e6 token/s``) is a constant demand.
    """

    constant: Quantity("token/s", ge=0) | None = Field(
        default=None, description="flat demand", examples=["30e6 token/s"]
    )
    daily_shape: list[Annotated[float, Field(ge=0)]] | None = Field(
        default=None,
        description="24 hourly multipliers in local solar time, from midnight; "
        "scaled so a day averages 'mean'",
        examples=[ONE_DAY_SHAPE],
        json_schema_extra={"unit": "1"},
    )
    mean: Quantity("token/s", ge=0) | None = Field(
        default=None, description="mean demand of the daily shape", examples=["60e6 token/s"]
    )
    csv: str | None = Field(
        default=None,
        description="CSV of hourly demand in tokens/s, relative to the file naming it",
        examples=["demand/us.csv"],
    )
    column: str | None = Field(default=None, description="column of the CSV", examples=["new_york"])
    scale: float = Field(
        default=1.0,
        ge=0,
        description="multiplier applied to the series (growth, what-if)",
        examples=[1.5],
        json_schema_extra={"unit": "1"},
    )

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        """The JSON Schema allows the shorthand too: a number or a quantity string."""
        schema = handler.resolve_ref_schema(handler(core_schema))
        shorthand = [{"type": "number", "minimum": 0}, {"type": "string"}]
        return {"anyOf": [dict(schema), *shorthand], "description": schema.get("description", "")}

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
        elif self.mean is not None:
            raise ValueError("'mean' goes with 'daily_shape' only")
        if (self.csv is None) != (self.column is None):
            raise ValueError("'csv' and 'column' go together")
        return self


class Region(Located):
    """Where inference users are, and how much they ask for."""

    demand: dict[Name, Demand] = Field(
        default_factory=dict,
        description="inference service name -> demand (constant, daily shape or CSV)",
        examples=[{"chat": "30e6 token/s"}],
    )


class LinkRoute(Section):
    """A DCI route between two sites."""

    sites: tuple[Name, Name] = Field(description="the two site names", examples=[["abilene", "ashburn"]])
    technology: Name = Field(description="link technology from the catalogue", examples=["hcf_800zr"])
    fibre_pairs: Count = Field(
        default=1,
        ge=1,
        le=1000,
        description="lit fibre pairs on the route",
        examples=[4],
        json_schema_extra={"unit": "pairs"},
    )
    length: Quantity("km", gt=0) | None = Field(
        default=None,
        description="route length (default: geodesic distance x route factor)",
        examples=["1900 km"],
    )
    route_factor: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="route km / great-circle km (default: the technology's)",
        examples=[1.4],
        json_schema_extra={"unit": "1"},
    )

    @model_validator(mode="after")
    def _two_sites(self) -> LinkRoute:
        if self.sites[0] == self.sites[1]:
            raise ValueError(f"a link joins two different sites, got {self.sites[0]!r} twice")
        if self.length is not None and self.route_factor is not None:
            raise ValueError("give 'length' or 'route_factor', not both")
        return self


class LinkMesh(Section):
    """A link between every pair of sites (within ``max_length`` if given)."""

    technology: Name = Field(description="link technology from the catalogue", examples=["smf_800zr"])
    fibre_pairs: Count = Field(
        default=1,
        ge=1,
        le=1000,
        description="lit fibre pairs on each route",
        examples=[2],
        json_schema_extra={"unit": "pairs"},
    )
    route_factor: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="route km / great-circle km (default: the technology's)",
        examples=[1.3],
        json_schema_extra={"unit": "1"},
    )
    max_length: Quantity("km", gt=0) | None = Field(
        default=None, description="only pairs whose route is at most this long", examples=["2000 km"]
    )


class Links(Section):
    """Data-centre interconnect between sites: an automatic mesh and/or explicit routes."""

    mesh: LinkMesh | None = Field(
        default=None,
        description="link every site pair with one technology",
        examples=[{"technology": "smf_800zr", "fibre_pairs": 2}],
    )
    routes: list[LinkRoute] = Field(
        default_factory=list,
        description="explicit routes (win over the mesh for their pair)",
        examples=[[{"sites": ["abilene", "ashburn"], "technology": "hcf_800zr"}]],
    )


class Window(Section):
    """When a job may run (clipped to the horizon)."""

    start: Timestamp | None = Field(
        default=None,
        description="earliest start (default: start of the horizon)",
        examples=["2025-07-01T12:00:00-05:00"],
    )
    end: Timestamp | None = Field(
        default=None,
        description="deadline, exclusive (default: end of the horizon)",
        examples=["2025-07-02T12:00:00-05:00"],
    )

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if self.start and self.end and self.start >= self.end:
            raise ValueError(f"window start {self.start} must be before end {self.end}")
        return self


Precision = Literal["bf16", "fp8"]


class TrainingJob(Section):
    """A training run measured in FLOP, with its parallel layout and constraints."""

    compute: Quantity("EFLOP", gt=0) | None = Field(
        default=None,
        description="total training compute (1 EFLOP = 1e18 FLOP); or give params and tokens",
        examples=["2e24 FLOP"],
    )
    params: float | None = Field(
        default=None,
        gt=0,
        description="model parameters N (compute = 6·N·D)",
        examples=[70e9],
        json_schema_extra={"unit": "parameters"},
    )
    tokens: float | None = Field(
        default=None,
        gt=0,
        description="training tokens D (compute = 6·N·D)",
        examples=[15e12],
        json_schema_extra={"unit": "tokens"},
    )
    tp: Count = Field(
        default=1,
        ge=1,
        description="tensor-parallel degree",
        examples=[8],
        json_schema_extra={"unit": "chips"},
    )
    ep: Count = Field(
        default=1,
        ge=1,
        description="expert-parallel degree",
        examples=[8],
        json_schema_extra={"unit": "chips"},
    )
    pp: Count = Field(
        default=1,
        ge=1,
        description="pipeline-parallel degree",
        examples=[4],
        json_schema_extra={"unit": "stages"},
    )
    max_chips: Count | None = Field(
        default=None,
        gt=0,
        description="most chips at any time (default: all installed)",
        examples=[40000],
        json_schema_extra={"unit": "chips"},
    )
    mfu: Fraction = Field(default=0.4, description="model FLOPs utilisation", examples=[0.45])
    precision: Precision = Field(
        default="bf16", description="number format of the peak FLOPS used", examples=["fp8"]
    )
    window: Window | None = Field(
        default=None,
        description="when the job may run (default: the whole horizon)",
        examples=[{"end": "2025-07-02T12:00:00-05:00"}],
    )
    sites: list[Name] | None = Field(
        default=None, description="allowed sites (default: all)", examples=[["abilene", "ashburn"]]
    )
    jurisdictions: list[str] | None = Field(
        default=None,
        description="allowed site jurisdictions, for data residency (default: all)",
        examples=[["US"]],
    )
    gradient_size: Quantity("GB", gt=0) | None = Field(
        default=None,
        description="gradient bytes per data-parallel sync (default: 2 B/param)",
        examples=["140 GB"],
    )
    sync_interval: Quantity("s", gt=0) = Field(
        default=10.0, description="time between gradient synchronisations", examples=["8 s"]
    )
    checkpoint_size: Quantity("GB", gt=0) | None = Field(
        default=None, description="checkpoint size (default: 14 B/param)", examples=["980 GB"]
    )
    checkpoint_bandwidth: Quantity("GB/s", gt=0) = Field(
        default=100.0, description="checkpoint write bandwidth", examples=["200 GB/s"]
    )
    restart: Quantity("min", ge=0) = Field(
        default=10.0, description="time to restart after a failure", examples=["15 min"]
    )
    pipeline_latency_budget: Quantity("ms", gt=0) | None = Field(
        default=None,
        description="most one-way link latency a pipeline stage may cross "
        "(none: stages stay in one site)",
        examples=["1 ms"],
    )

    @model_validator(mode="after")
    def _work(self) -> TrainingJob:
        if self.tokens is not None and self.params is None:
            raise ValueError("'tokens' needs 'params' (compute = 6 x params x tokens)")
        has_nd = self.params is not None and self.tokens is not None
        if self.compute is None and not has_nd:
            raise ValueError("give 'compute' or both 'params' and 'tokens'")
        if self.compute is not None and has_nd:
            raise ValueError("give 'compute' or 'params' and 'tokens', not both")
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
        """Gradient bytes per sync: as given, or 2 bytes (BF16) per parameter."""
        return self.gradient_size if self.gradient_size is not None else 2.0 * self.params / 1e9

    @property
    def checkpoint_gb(self) -> float:
        """Checkpoint size: as given, or 14 bytes per parameter (see docs/scenarios.md)."""
        if self.checkpoint_size is not None:
            return self.checkpoint_size
        return 14.0 * self.params / 1e9 if self.params else 0.0


class InferenceService(Section):
    """A model served to users: compute per token, SLA and achieved efficiency."""

    flop_per_token: Quantity("FLOP", gt=0) | None = Field(
        default=None,
        description="compute per generated token (give this or 'active_params')",
        examples=["74e9 FLOP"],
    )
    active_params: float | None = Field(
        default=None,
        gt=0,
        description="active parameters per token; compute = 2 x active_params FLOP per token",
        examples=[37e9],
        json_schema_extra={"unit": "parameters"},
    )
    sla: Quantity("ms", gt=0) = Field(
        description="round-trip network latency limit from a user region", examples=["25 ms"]
    )
    efficiency: Fraction = Field(
        default=0.3, description="achieved fraction of peak FLOPS while serving", examples=[0.25]
    )
    precision: Precision = Field(
        default="fp8", description="number format of the peak FLOPS used", examples=["bf16"]
    )
    systems: list[Name] | None = Field(
        default=None, description="allowed hardware systems (default: all)", examples=[["gb200_nvl72"]]
    )

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

    technology: Name = Field(
        default="smf_400zr",
        description="link technology whose fibre latency (us/km) users' traffic sees",
        examples=["smf_400zr"],
    )
    route_factor: float = Field(
        default=1.5,
        ge=1,
        le=3,
        description="route km / great-circle km",
        examples=[1.3],
        json_schema_extra={"unit": "1"},
    )
    overhead: Quantity("ms", ge=0) = Field(
        default=2.0,
        description="fixed round-trip overhead (access network, switching, processing)",
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
    """Integer decisions; all off keeps the model a linear programme."""

    systems_on_off: bool = Field(
        default=False, description="whole systems on or off per step", examples=[True]
    )
    dp_replicas: bool = Field(default=False, description="whole data-parallel replicas", examples=[True])
    site_participation: bool = Field(
        default=False, description="binary site use per job", examples=[True]
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
    integer: IntegerOptions = Field(
        default_factory=IntegerOptions,
        description="integer decisions (default: none, an LP)",
        examples=[{"systems_on_off": True}],
    )


class Scenario(Section):
    """One planning question: time, sites, users, links, work, objective, solver."""

    name: str = Field(default="", max_length=200, description="short title", examples=["quickstart"])
    description: str = Field(
        default="",
        max_length=5000,
        description="what question the scenario asks",
        examples=["Three US sites, one training job, one chat service, 48 h."],
    )
    time: TimeSpec = Field(
        description="the horizon", examples=[{"start": "2025-07-01T00:00:00-05:00", "hours": 48}]
    )
    sites: dict[Name, Site] = Field(
        min_length=1, description="data centres by name", examples=[{"abilene": "..."}]
    )
    regions: dict[Name, Region] = Field(
        default_factory=dict,
        description="inference user regions by name",
        examples=[{"new_york": "..."}],
    )
    links: Links = Field(
        default_factory=Links,
        description="DCI between sites",
        examples=[{"mesh": {"technology": "smf_800zr"}}],
    )
    training: dict[Name, TrainingJob] = Field(
        default_factory=dict, description="training jobs by name", examples=[{"pretrain": "..."}]
    )
    inference: dict[Name, InferenceService] = Field(
        default_factory=dict, description="inference services by name", examples=[{"chat": "..."}]
    )
    latency: LatencyModel = Field(
        default_factory=LatencyModel,
        description="user-to-site latency model",
        examples=[{"route_factor": 1.3}],
    )
    objective: Objective = Field(
        default_factory=Objective,
        description="weights of the objective terms",
        examples=[{"carbon_price": "50 USD/tCO2"}],
    )
    solver: SolverOptions = Field(
        default_factory=SolverOptions, description="solver options", examples=[{"time_limit": "120 s"}]
    )
    variants: dict[Name, dict[str, Any]] = Field(
        default_factory=dict,
        description="named partial overrides, deep-merged in the order chosen",
        examples=[{"carbon_100": {"objective": {"carbon_price": "100 USD/tCO2"}}}],
    )
    extensions: dict[Name, dict[str, Any]] = Field(
        default_factory=dict,
        description="settings of model-extension plugins, by plugin name; each plugin checks its own",
        examples=[{"battery": {"sites": {"abilene": {"energy": "400 MWh", "power": "100 MW"}}}}],
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
