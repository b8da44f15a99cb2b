"""Training jobs from a table (CSV or Parquet, one row per job), and what moving data costs.

The table's columns are documented in docs/scenarios.md ("Job tables") and read
by :mod:`geomodel.scenario.jobtable`; these sections hold what the scenario
says about a table as a whole and about moving a job away from its data.
"""

from __future__ import annotations

from pydantic import Field

from geomodel.scenario.schema.fields import Fraction, Name, Section
from geomodel.scenario.schema.workloads import Precision
from geomodel.scenario.units import Quantity


class JobTable(Section):
    """A table of training jobs: a trace excerpt, a workload forecast."""

    file: str = Field(
        description="the table, .csv or .parquet, relative to the scenario file",
        examples=["data/trace-week.csv"],
    )
    columns: dict[str, str] = Field(
        default_factory=dict,
        description="standard column name -> the table's own name for it, for traces with "
        "their own headers",
        examples=[{"name": "job_id", "chips": "gpu_num"}],
    )
    system: Name | None = Field(
        default=None,
        description="hardware system the rows' GPU-hours and durations were measured on, for "
        "rows without a 'system' value",
        examples=["hgx_h100_8"],
    )
    mfu: Fraction = Field(
        default=0.4,
        description="model FLOPs utilisation of rows without an 'mfu' value",
        examples=[0.35],
    )
    precision: Precision = Field(
        default="bf16",
        description="number format of rows without a 'precision' value",
        examples=["fp8"],
    )
    slack: Quantity("h", ge=0) | None = Field(
        default=None,
        description="time a job may finish after its earliest finish (arrival + run time), "
        "for rows without 'deadline' or 'slack' (none: the end of the horizon)",
        examples=["24 h"],
    )
    stay_at_origin: bool = Field(
        default=False,
        description="every job runs only at its 'origin' site (the local-only counterfactual)",
        examples=[True],
    )
    failures_in_work: bool = Field(
        default=True,
        description="the rows' work already includes time lost to failures and restarts, as "
        "measured trace durations do (goodput 1); false applies the goodput model on top",
        examples=[False],
    )
    restart: Quantity("min", ge=0) = Field(
        default=10.0,
        description="time to restart after a failure, when failures_in_work is false",
        examples=["5 min"],
    )


class DataMovement(Section):
    """What a job pays for running away from the site that holds its data."""

    price: Quantity("USD/GB", ge=0) | None = Field(
        default=None,
        description="transfer price per GB moved (default: cloud inter-region prices by "
        "distance class, docs/catalogues.md)",
        examples=["0.02 USD/GB"],
    )
    energy: Quantity("kWh/GB", ge=0) | None = Field(
        default=None,
        description="network energy per GB moved (default: docs/catalogues.md)",
        examples=["0.004 kWh/GB"],
    )
    delay: bool = Field(
        default=False,
        description="a job may start away from its origin only after its data has arrived "
        "(data_size at 'bandwidth'), which eats into its slack",
        examples=[True],
    )
    bandwidth: Quantity("Gbit/s", gt=0) = Field(
        default=10.0,
        description="transfer rate a job's data moves at, for the delay",
        examples=["100 Gbit/s"],
    )


JobTables = dict[Name, JobTable]
