"""The whole scenario file: one pydantic model holding every section."""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr

from geomodel.scenario.schema.fields import Name, Section
from geomodel.scenario.schema.job_tables import DataMovement, JobTable
from geomodel.scenario.schema.links import Links
from geomodel.scenario.schema.options import LatencyModel, Objective, SolverOptions
from geomodel.scenario.schema.pathway import Periods
from geomodel.scenario.schema.planning import Finance
from geomodel.scenario.schema.regions import Region
from geomodel.scenario.schema.signals import Signals
from geomodel.scenario.schema.sites import Site
from geomodel.scenario.schema.time import TimeSpec
from geomodel.scenario.schema.workloads import InferenceService, TrainingJob


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
    job_tables: dict[Name, JobTable] = Field(
        default_factory=dict,
        description="tables of training jobs (CSV or Parquet, one row per job) by name",
        examples=[{"trace": {"file": "data/trace-week.csv", "system": "hgx_h100_8"}}],
    )
    data_movement: DataMovement = Field(
        default_factory=DataMovement,
        description="transfer price, energy and delay of running a job away from its data",
        examples=[{"price": "0.02 USD/GB"}],
    )
    inference: dict[Name, InferenceService] = Field(
        default_factory=dict, description="inference services by name", examples=[{"chat": "..."}]
    )
    latency: LatencyModel = Field(
        default_factory=LatencyModel,
        description="user-to-site latency model",
        examples=[{"route_factor": 1.3}],
    )
    signals: Signals = Field(
        default_factory=Signals,
        description="grid series (measured or shaped), carbon basis and price terms per region",
        examples=[{"carbon_basis": "direct"}],
    )
    objective: Objective = Field(
        default_factory=Objective,
        description="weights of the objective terms",
        examples=[{"carbon_price": "50 USD/tCO2"}],
    )
    finance: Finance = Field(
        default_factory=Finance,
        description="discount rate and lifetimes that turn capex into a yearly payment (planning)",
        examples=[{"discount_rate": 0.07}],
    )
    periods: Periods | None = Field(
        default=None,
        description="investment periods of a pathway (planning over several years)",
        examples=[{"years": [2026, 2028, 2030]}],
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
        description="settings of model-extension plugins, by plugin name (a name no loaded "
        "plugin takes is an error; docs/plugins.md)",
        examples=[{"battery": {"sites": {"abilene": {"energy": "400 MWh", "power": "100 MW"}}}}],
    )
    _origin: Any = PrivateAttr(default=None)

    @property
    def origin(self) -> Any:
        """Where the scenario came from (files, variants, series, hash); set by the loader."""
        return self._origin
