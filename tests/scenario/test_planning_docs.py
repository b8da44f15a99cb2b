"""docs/planning.md documents every planning field and KPI, and its first plan loads."""

from __future__ import annotations

import re
from pathlib import Path

from geomodel.results.kpis import KPI_SPECS
from geomodel.scenario import load_scenario_text
from geomodel.scenario.schema import (
    BatteryBuild,
    CapacityBuild,
    Finance,
    LinkCandidate,
    SiteBuild,
    SourceBuild,
    SystemBuild,
)

DOC = (Path(__file__).resolve().parents[2] / "docs" / "planning.md").read_text(encoding="utf-8")
PLANNING_KPIS = (
    "capex_usd_per_year",
    "fixed_om_usd_per_year",
    "opex_usd",
    "total_cost_usd_per_year",
    "usd_per_eflop",
    "usd_per_mtoken",
    "investment_cost_term_usd",
    "fixed_om_cost_term_usd",
    "storage_cost_term_usd",
)


def test_every_planning_field_is_named_in_the_guide():
    for section in (
        SiteBuild,
        SystemBuild,
        CapacityBuild,
        SourceBuild,
        BatteryBuild,
        LinkCandidate,
        Finance,
    ):
        for name in section.model_fields:
            assert f"`{name}" in DOC or f"{name}:" in DOC, f"{section.__name__}.{name}"


def test_every_planning_kpi_is_defined_in_the_guide():
    for name in PLANNING_KPIS:
        assert name in KPI_SPECS
        assert f"`{name}`" in DOC, name


def test_the_first_plan_is_a_valid_scenario(tmp_path, catalog):
    (block,) = re.findall(r"```yaml\n(# scenario:.*?)```", DOC, re.DOTALL)
    scenario = load_scenario_text(block, tmp_path, catalog=catalog)
    assert scenario.sites["quincy"].build.new_site
