"""Hand-built catalogue entries for the tool tests: figures chosen so the
expected values can be derived by hand, independent of the built-in plugins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from geomodel.catalog import HardwareSystem, LinkTechnology


def system(**overrides: Any) -> HardwareSystem:
    """An 8-chip, H100-like server; override any field."""
    fields: dict[str, Any] = {
        "name": "test_hgx_8",
        "source": "hand-built test entry",
        "source_type": "estimate",
        "vendor": "Test",
        "system": "Test HGX 8-GPU",
        "chip": "T100",
        "chips_per_system": 8,
        "scale_up_domain_chips": 8,
        "racks_per_system": 0.25,
        "bf16_dense_pflops_per_chip": 0.989,
        "hbm_gb_per_chip": 80,
        "active_power_kw_per_chip": 1.275,  # 10.2 kW per 8-GPU server
        "idle_power_kw_per_chip": 0.3,
        "scale_up_bandwidth_gbyte_s_per_chip": 900,
        "scale_out_bandwidth_gbit_s_per_chip": 400,
        "mtbf_hours_per_chip": 50_000,
        "capex_usd_per_system": 250_000,
    }
    fields.update(overrides)
    return HardwareSystem(**fields)


def link(**overrides: Any) -> LinkTechnology:
    """Standard fibre with 400ZR-like optics; override any field."""
    fields: dict[str, Any] = {
        "name": "test_smf",
        "source": "hand-built test entry",
        "source_type": "estimate",
        "fibre_kind": "standard_smf",
        "optics": "400ZR",
        "latency_us_per_km": 4.90,
        "capacity_gbit_s_per_fibre_pair": 25_600,
        "transceiver_power_w_per_gbit_s": 0.1,
        "amplifier_power_w_per_span": 500,
        "span_km": 80,
        "reach_km": 120,
        "route_factor": 1.3,
    }
    fields.update(overrides)
    return LinkTechnology(**fields)


@pytest.fixture(scope="session")
def make_system() -> Callable[..., HardwareSystem]:
    return system


@pytest.fixture(scope="session")
def make_link() -> Callable[..., LinkTechnology]:
    return link


@pytest.fixture
def hgx() -> HardwareSystem:
    return system()


@pytest.fixture
def nvl72() -> HardwareSystem:
    return system(
        name="test_nvl72",
        system="Test NVL72",
        chips_per_system=72,
        scale_up_domain_chips=72,
        racks_per_system=1,
        bf16_dense_pflops_per_chip=2.5,
        active_power_kw_per_chip=145 / 72,  # 145 kW all-in per rack
        capex_usd_per_system=3_000_000,
    )


@pytest.fixture
def cm384() -> HardwareSystem:
    return system(
        name="test_cm384",
        system="Test CloudMatrix 384",
        chips_per_system=384,
        scale_up_domain_chips=384,
        racks_per_system=16,
        bf16_dense_pflops_per_chip=0.78,
        active_power_kw_per_chip=559 / 384,  # 559 kW per supernode
        capex_usd_per_system=None,
    )


@pytest.fixture
def smf() -> LinkTechnology:
    return link()


@pytest.fixture
def hcf() -> LinkTechnology:
    return link(name="test_hcf", fibre_kind="hollow_core", optics="800ZR", latency_us_per_km=3.40)
