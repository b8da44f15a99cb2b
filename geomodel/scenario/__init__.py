"""Scenario files: format, loading, validation and the inputs Dataset."""

from geomodel.scenario.load import load_scenario, load_scenario_text
from geomodel.scenario.problems import Problem, ScenarioError
from geomodel.scenario.schema import Scenario

__all__ = ["Problem", "Scenario", "ScenarioError", "load_scenario", "load_scenario_text"]
