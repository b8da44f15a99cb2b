"""A hook implementation asking for an argument its spec does not offer."""

from geomodel import hookimpl


@hookimpl
def register_hardware_systems(catalog):
    return []
