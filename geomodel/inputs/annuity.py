"""Annuities: a capital cost spread over an asset's life at a discount rate.

Planning mode charges each build decision its equal yearly payment, so that a
plan's objective adds capex of assets with different lifetimes on one yearly
basis. With costs in constant dollars (``plugins/data/build_costs.csv`` holds
2024 USD) the rate is a real one; docs/costs.md gives the default and its source.
"""

from __future__ import annotations

import math


def capital_recovery_factor(rate: float, lifetime_years: float) -> float:
    """Share of the capex paid each year: r (1 + r)^n / ((1 + r)^n - 1).

    n equal yearly payments of this share, discounted at ``rate``, are worth the
    capex today; without discounting (rate 0) the share is 1 / n.
    """
    if not lifetime_years > 0:
        raise ValueError(f"lifetime must be > 0 years, got {lifetime_years}")
    if not rate > -1:
        raise ValueError(f"discount rate must be > -1, got {rate}")
    if rate == 0:
        return 1.0 / lifetime_years
    growth_less_one = math.expm1(lifetime_years * math.log1p(rate))  # (1 + r)^n - 1, exact near r = 0
    return rate * (growth_less_one + 1.0) / growth_less_one


def annuity(capex: float, rate: float, lifetime_years: float) -> float:
    """The equal yearly payment that repays ``capex`` over the lifetime (capex units a year)."""
    return capex * capital_recovery_factor(rate, lifetime_years)
