"""Helpers to build self-describing Dataset variables (units and description on each)."""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr


def variable(
    dims: tuple[str, ...] | str, values: Any, units: str, description: str, **attrs: Any
) -> xr.Variable:
    """A Variable with ``units`` and ``description`` attributes."""
    dims = (dims,) if isinstance(dims, str) else dims
    return xr.Variable(dims, np.asarray(values), {"units": units, "description": description, **attrs})


def is_planning(inputs: xr.Dataset) -> bool:
    """True when the inputs hold build options (docs/planning.md)."""
    return bool(inputs.attrs.get("planning", 0))
