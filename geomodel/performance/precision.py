"""Bytes per number in each format weights, KV caches and activations are kept in."""

from __future__ import annotations

from geomodel.catalog.entries import PRECISIONS, Precision

#: Storage per value. FP4 is NVIDIA's NVFP4 block format: 4-bit values plus one FP8
#: scale per 16 (4.5 bits; NVIDIA Technical Blog, "Introducing NVFP4", 2025); the
#: OCP MXFP4 format (one 8-bit scale per 32) would be 4.25 bits.
BYTES_PER_VALUE: dict[str, float] = {"fp4": 4.5 / 8, "fp8": 1.0, "int8": 1.0, "bf16": 2.0}

#: Activations cross the scale-up network in BF16.
ACTIVATION_BYTES = 2.0


def bytes_per_value(precision: Precision) -> float:
    """Bytes one number takes in ``precision``."""
    if precision not in BYTES_PER_VALUE:
        raise ValueError(f"unknown precision {precision!r}; allowed: {', '.join(PRECISIONS)}")
    return BYTES_PER_VALUE[precision]
