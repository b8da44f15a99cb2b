"""Built-ins win, and no plugin failure goes unsaid (issue 13, items 1, 4 and 5).

The plugins are real modules under tests/plugin_fixtures/, registered directly or
through a distribution installed on sys.path with entry points in the ``geomodel``
group, beside geomodel's own built-ins (which stay enabled here: precedence over
them is the point).
"""

from __future__ import annotations

import importlib

import pytest
from plugin_fixtures import TESTS_DIR, installed_plugin_distributions, write_distribution

from geomodel.catalog import build_catalog
from geomodel.errors import PluginError, UnknownNameError
from geomodel.plugin_loader import (
    BUILTIN_DISTRIBUTION,
    DISABLE_ENV,
    STRICT_ENV,
    installed_entry_points,
    load_plugins,
)

#: sorts before "geomodel", as in the issue's reproduction
ACME = "acme-breakage"


@pytest.fixture(autouse=True)
def _no_plugin_environment(monkeypatch):
    monkeypatch.delenv(STRICT_ENV, raising=False)
    monkeypatch.delenv(DISABLE_ENV, raising=False)


def install_acme(folder, monkeypatch, entry_point: str) -> None:
    """``acme-breakage`` installed with ``plugin_fixtures.shadow_builtin`` (which registers
    ``hgx_h100_8``) as ``entry_point``; every other third-party distribution is blocked,
    the built-ins are not."""
    others = installed_plugin_distributions() - {BUILTIN_DISTRIBUTION}
    write_distribution(folder, ACME, "0.0.1", {entry_point: "plugin_fixtures.shadow_builtin"})
    monkeypatch.syspath_prepend(str(TESTS_DIR))
    monkeypatch.syspath_prepend(str(folder))
    if others:
        monkeypatch.setenv(DISABLE_ENV, ",".join(sorted(others)))


@pytest.fixture
def acme(tmp_path, monkeypatch):
    install_acme(tmp_path, monkeypatch, "acme")
    return tmp_path


def fixture(name: str):
    return importlib.import_module(f"plugin_fixtures.{name}")


# --- item 1: built-ins load first and win ------------------------------------------


def test_the_built_ins_load_before_a_distribution_that_sorts_before_geomodel(acme):
    order = [ep.dist.name for ep in installed_entry_points() if ep.dist is not None]
    assert ACME < BUILTIN_DISTRIBUTION  # the trap: plain sorting would load acme first
    first_other = next(i for i, d in enumerate(order) if d != BUILTIN_DISTRIBUTION)
    assert set(order[:first_other]) == {BUILTIN_DISTRIBUTION}
    assert ACME in order[first_other:]


def test_a_plugin_cannot_replace_a_built_in_entry_and_is_named_as_the_failure(acme):
    catalog = build_catalog()
    # An HGX H100 server holds 8 GPUs (NVIDIA HGX H100 datasheet); acme says 2.
    assert catalog.hardware_system("hgx_h100_8").chips_per_system == 8
    assert catalog.provider[("hardware systems", "hgx_h100_8")] == "hardware"
    assert catalog.plugins["hardware"].distribution == BUILTIN_DISTRIBUTION
    (refused,) = [f for f in catalog.failures if f.distribution == ACME]
    assert (refused.name, refused.stage, refused.entry, refused.kind) == (
        "acme",
        "register_hardware_systems",
        "hgx_h100_8",
        "hardware systems",
    )
    assert str(refused) == (
        "plugin 'acme' (distribution acme-breakage) register_hardware_systems: hardware system "
        "'hgx_h100_8' is also defined by plugin 'hardware' (distribution geomodel), which loaded "
        "first: refused, a built-in entry cannot be replaced"
    )
    # the built-in is blamed for nothing, and acme's own entry is kept
    assert not [f for f in catalog.failures if f.distribution == BUILTIN_DISTRIBUTION]
    assert catalog.provider[("hardware systems", "acme_own_server")] == "acme"


def test_a_plugin_taking_a_built_in_plugin_name_is_refused(tmp_path, monkeypatch):
    install_acme(tmp_path, monkeypatch, "hardware")
    host = load_plugins()
    assert host.plugins["hardware"].distribution == BUILTIN_DISTRIBUTION
    (refused,) = [f for f in host.failures if f.distribution == ACME]
    assert refused.stage == "load"
    assert "refused: plugin name 'hardware' is already used by geomodel" in refused.reason


# --- item 4: an unknown name says which plugin tried to register it ----------------


def test_an_unknown_name_names_the_plugin_that_tried_to_register_it():
    catalog = build_catalog(
        load_plugins(
            use_entry_points=False, extra_plugins=[("tries", fixture("partly_invalid_hardware"))]
        )
    )
    with pytest.raises(UnknownNameError) as raised:
        catalog.hardware_system("fixture_tried_server")
    message = str(raised.value)
    assert message.startswith("unknown hardware system 'fixture_tried_server'")
    assert (
        "plugin 'tries' (distribution local) tried to register 'fixture_tried_server' and failed: "
        "entry 0 ('fixture_tried_server') is invalid: active_power_kw_per_chip = -1.0 kW per chip "
        "is outside the physical range [0.05, 5] kW per chip"
    ) in message


def test_an_unknown_name_mentions_plugins_whose_whole_hook_failed():
    catalog = build_catalog(
        load_plugins(use_entry_points=False, extra_plugins=[("raising", fixture("raising_hook"))])
    )
    with pytest.raises(UnknownNameError) as raised:
        catalog.hardware_system("vendor_server")
    assert (
        "it may be among the hardware systems of a plugin that failed: plugin 'raising' "
        "(distribution local) could not register its hardware systems: RuntimeError: vendor "
        "table fixture_missing.csv not found"
    ) in str(raised.value)
    # a link technology the same plugin registered fine has nothing to blame
    with pytest.raises(UnknownNameError) as other:
        catalog.link_technology("no_such_link")
    assert "failed" not in str(other.value)


# --- item 5: a typed entry with a bad value loses only itself, by name --------------


def test_a_bad_typed_entry_is_named_and_its_neighbours_are_kept():
    catalog = build_catalog(
        load_plugins(use_entry_points=False, extra_plugins=[("typed", fixture("typed_invalid_entry"))])
    )
    assert sorted(catalog.power_sources) == ["fixture_grid_after", "fixture_grid_before"]
    (failure,) = catalog.failures
    assert failure.entry == "fixture_grid_bad"
    assert failure.reason == (
        "entry 1 ('fixture_grid_bad') is invalid: price_usd_per_mwh = -9000 USD/MWh is outside "
        "the physical range [-500, 5000] USD/MWh"
    )


def test_outside_a_catalogue_build_a_bad_entry_still_raises():
    from pydantic import ValidationError

    from geomodel import PowerSource

    fields = importlib.import_module("plugin_fixtures.figures").power_fields
    with pytest.raises(ValidationError):
        PowerSource(**fields("fixture_grid_bad", price_usd_per_mwh=-9000))


def test_an_unknown_name_to_disable_is_a_warning(monkeypatch):
    monkeypatch.setenv(DISABLE_ENV, "grdi,hardware")
    host = load_plugins()
    assert "hardware" not in host.plugins
    (warning,) = host.warnings
    assert warning.startswith(
        f"{DISABLE_ENV} names 'grdi', which is no installed plugin or distribution, so it disables "
        "nothing; did you mean 'grid'?"
    )


def test_strict_mode_lists_every_failure_not_the_first(monkeypatch):
    monkeypatch.setenv(STRICT_ENV, "1")
    host = load_plugins(
        use_entry_points=False,
        extra_plugins=[
            ("api_v2", fixture("api_v2")),
            ("raising", fixture("raising_hook")),
            ("typed", fixture("typed_invalid_entry")),
        ],
        strict=False,
    )
    host.strict = True
    with pytest.raises(PluginError) as raised:
        build_catalog(host)
    lines = str(raised.value).splitlines()
    assert lines[0] == f"3 plugin failures ({STRICT_ENV} is set):"
    assert [line.split(")")[0] for line in lines[1:]] == [
        "  plugin 'api_v2' (distribution local",
        "  plugin 'raising' (distribution local",
        "  plugin 'typed' (distribution local",
    ]


def test_strict_mode_from_the_environment_lists_load_and_catalogue_failures(monkeypatch):
    """build_catalog() loads with strict mode deferred, so one error holds both stages."""
    monkeypatch.setenv(STRICT_ENV, "1")
    monkeypatch.setenv(DISABLE_ENV, BUILTIN_DISTRIBUTION)
    extra = [("api_v2", fixture("api_v2")), ("raising", fixture("raising_hook"))]
    monkeypatch.setattr(
        "geomodel.catalog.registry.load_plugins",
        lambda strict=None: load_plugins(use_entry_points=False, extra_plugins=extra, strict=strict),
    )
    with pytest.raises(PluginError) as raised:
        build_catalog()
    text = str(raised.value)
    assert "plugin 'api_v2' (distribution local) load:" in text
    assert "plugin 'raising' (distribution local) register_hardware_systems:" in text
