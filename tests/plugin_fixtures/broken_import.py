"""A plugin whose own dependency is missing: it fails when imported."""

import geomodel_fixture_missing_dependency  # noqa: F401

from geomodel import hookimpl


@hookimpl
def register_hardware_systems():
    return []
