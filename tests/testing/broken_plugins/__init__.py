"""Plugins broken on purpose, one way each, for the conformance-check tests.

Each is a real plugin module as an author might write it; the tests register it
with :func:`geomodel.testing.check_plugin` and expect the checks to fail with a
message naming the plugin and the field.
"""
