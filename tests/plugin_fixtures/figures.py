"""Valid field values for test entries; the plugin fixtures build on these.

The numbers are shaped like an 8-GPU HGX H100 server, a standard-fibre 400ZR link
and a grid region, so that each is valid; tests change one field at a time.
"""

from __future__ import annotations

from typing import Any


def hardware_fields(name: str, **changes: Any) -> dict[str, Any]:
    return {
        "name": name,
        "source": "test fixture",
        "source_type": "estimate",
        "vendor": "Test",
        "system": "Test 8-GPU server",
        "chip": "T1",
        "chips_per_system": 8,
        "scale_up_domain_chips": 8,
        "racks_per_system": 0.25,
        "bf16_dense_pflops_per_chip": 0.989,
        "fp8_dense_pflops_per_chip": 1.979,
        "hbm_gb_per_chip": 80,
        "active_power_kw_per_chip": 1.275,
        "idle_power_kw_per_chip": 0.4,
        "scale_up_bandwidth_gbyte_s_per_chip": 900,
        "scale_out_bandwidth_gbit_s_per_chip": 400,
        "mtbf_hours_per_chip": 50_000,
        **changes,
    }


def link_fields(name: str, **changes: Any) -> dict[str, Any]:
    return {
        "name": name,
        "source": "test fixture",
        "source_type": "estimate",
        "fibre_kind": "standard_smf",
        "optics": "400ZR",
        "latency_us_per_km": 4.9,
        "capacity_gbit_s_per_fibre_pair": 19_200,
        "transceiver_power_w_per_gbit_s": 0.1,
        "amplifier_power_w_per_span": 200,
        "span_km": 80,
        "reach_km": 120,
        "route_factor": 1.3,
        **changes,
    }


def power_fields(name: str, **changes: Any) -> dict[str, Any]:
    return {
        "name": name,
        "source": "test fixture",
        "source_type": "estimate",
        "kind": "grid",
        "price_usd_per_mwh": 80,
        "carbon_kg_per_mwh": 380,
        "capacity_factor": 1.0,
        **changes,
    }
