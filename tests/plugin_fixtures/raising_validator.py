"""A scenario check that raises: the scenario can then not be said to pass it."""

from geomodel import hookimpl


@hookimpl
def validate_scenario(scenario, catalog):
    raise RuntimeError("water table fixture_aquifers.csv not found")
