"""The scenario file format: one pydantic model per section, one module per part of it.

Field names carry no units; each quantity field stores its value in the unit
named in its description (and in the JSON Schema's ``unit``) and accepts a
string with units such as ``"250 MW"``. docs/scenarios.md is checked against
this package by a test.
"""

from geomodel.scenario.schema.compute import JobPool, ModelShape
from geomodel.scenario.schema.fields import (
    NAME_PATTERN,
    Count,
    Fraction,
    Latitude,
    Located,
    Longitude,
    Name,
    Section,
    Timestamp,
)
from geomodel.scenario.schema.job_tables import DataMovement, JobTable
from geomodel.scenario.schema.links import LinkMesh, LinkRoute, Links
from geomodel.scenario.schema.options import (
    IntegerOptions,
    LatencyModel,
    Objective,
    SolverOptions,
)
from geomodel.scenario.schema.pathway import Periods, Retirement, SystemYears
from geomodel.scenario.schema.planning import (
    CORE_ASSET_CLASSES,
    BatteryBuild,
    CapacityBuild,
    EnergyBuild,
    Finance,
    LinkCandidate,
    SiteBuild,
    SourceBuild,
    SystemBuild,
)
from geomodel.scenario.schema.regions import ONE_DAY_SHAPE, Demand, Region
from geomodel.scenario.schema.scenario import Scenario
from geomodel.scenario.schema.signals import DEFAULT_CARBON_BASIS, PriceTerms, Signals
from geomodel.scenario.schema.sites import (
    COOLING_PUE,
    OwnSeries,
    PowerSupply,
    Site,
    SiteGridCarbon,
    SiteGridPrice,
)
from geomodel.scenario.schema.time import Aggregation, TimeSpec
from geomodel.scenario.schema.workloads import (
    InferenceService,
    Precision,
    TokenLengths,
    TrainingJob,
    Window,
    window_bounds,
)

__all__ = [
    "COOLING_PUE",
    "CORE_ASSET_CLASSES",
    "DEFAULT_CARBON_BASIS",
    "NAME_PATTERN",
    "ONE_DAY_SHAPE",
    "Aggregation",
    "BatteryBuild",
    "CapacityBuild",
    "Count",
    "DataMovement",
    "Demand",
    "EnergyBuild",
    "Finance",
    "Fraction",
    "InferenceService",
    "IntegerOptions",
    "JobPool",
    "JobTable",
    "LatencyModel",
    "Latitude",
    "LinkCandidate",
    "LinkMesh",
    "LinkRoute",
    "Links",
    "Located",
    "Longitude",
    "ModelShape",
    "Name",
    "Objective",
    "OwnSeries",
    "Periods",
    "PowerSupply",
    "Precision",
    "PriceTerms",
    "Region",
    "Retirement",
    "Scenario",
    "Section",
    "Signals",
    "Site",
    "SiteBuild",
    "SiteGridCarbon",
    "SiteGridPrice",
    "SolverOptions",
    "SourceBuild",
    "SystemBuild",
    "SystemYears",
    "TimeSpec",
    "Timestamp",
    "TokenLengths",
    "TrainingJob",
    "Window",
    "window_bounds",
]
