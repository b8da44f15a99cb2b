"""What a site pays and emits per MWh from the grid, hour by hour, and what that rests on.

Price: ``multiplier x base + adder``, where the base is the site's own series
(``sites.<site>.grid_price.constant`` or ``csv``) or else the grid region's profile
(measured or shaped, ``signals.grid_series``). The adder and the multiplier are the
site's own where it sets them, else the scenario's for its region
(``signals.grid_prices``), else the region's default adder and 1; a site with its own
series gets neither region term nor default adder (its series is taken as its bill).

Carbon: the site's own series where given, else the region's profile in the scenario's
basis (``signals.carbon_basis``), see :func:`carbon_in_basis`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from geomodel.catalog import PowerSource
from geomodel.scenario.schema import Scenario, Site


@dataclass(frozen=True)
class GridSignal:
    """A site's hourly grid price (USD/MWh) and carbon (kgCO2e/MWh) and their bases in words."""

    price_usd_per_mwh: np.ndarray
    carbon_kg_per_mwh: np.ndarray
    price_basis: str
    carbon_basis: str


def carbon_in_basis(source: PowerSource, frame: pd.DataFrame, basis: str) -> tuple[np.ndarray, str]:
    """A profile's carbon in ``basis`` and how it was obtained.

    The profile's own column for that basis where it has one (measured grids); else its
    carbon where the source counts in ``basis`` already; else its carbon scaled by the
    ratio of the source's two annual figures (a flat other figure where the first is 0);
    else, when the source knows only one basis, its carbon as is (the scenario's checks
    warn about that).
    """
    column = f"carbon_{basis}_kg_per_mwh"
    if column in frame.columns:
        return frame[column].to_numpy(dtype=float), basis
    own = frame["carbon_kg_per_mwh"].to_numpy(dtype=float)
    if source.carbon_basis == basis:
        return own, basis
    other = source.carbon_other_basis_kg_per_mwh
    if other is None:
        return own, f"{source.carbon_basis} (no {basis} figure known; used as is)"
    if source.carbon_kg_per_mwh > 0:
        scaled = own * (other / source.carbon_kg_per_mwh)
    else:
        scaled = np.full(len(own), other)
    return scaled, f"{basis}, scaled from {source.carbon_basis} by the catalogue's two annual figures"


def price_terms(scenario: Scenario, site: Site, source: PowerSource) -> tuple[float, float, str]:
    """(multiplier, adder USD/MWh, where the adder comes from) for the site's grid price."""
    own = site.grid_price
    region = scenario.signals.grid_prices.get(site.grid)
    brings_series = own is not None and own.given
    multiplier, adder, origin = 1.0, 0.0, "none"
    if not brings_series:
        adder, origin = source.price_adder_usd_per_mwh, "the region's default adder"
        if region is not None and region.multiplier is not None:
            multiplier = region.multiplier
        if region is not None and region.adder is not None:
            adder, origin = region.adder, "signals.grid_prices"
    if own is not None and own.multiplier is not None:
        multiplier = own.multiplier
    if own is not None and own.adder is not None:
        adder, origin = own.adder, "the site's grid_price"
    return multiplier, adder, origin


def site_grid_signal(
    scenario: Scenario,
    site_name: str,
    site: Site,
    source: PowerSource,
    profile: pd.DataFrame,
    own_series: dict[tuple[str, str], pd.Series],
) -> GridSignal:
    """Price and carbon of the grid at one site on the profile's hours."""
    basis = scenario.signals.carbon_basis
    region_basis = source.series_basis()
    n = len(profile)
    own_price = site.grid_price
    if own_price is not None and own_price.constant is not None:
        base, price_basis = (
            np.full(n, own_price.constant),
            f"the site's constant {own_price.constant:g} USD/MWh",
        )
    elif own_price is not None and own_price.csv is not None:
        base = own_series[(site_name, "price")].to_numpy(dtype=float)
        price_basis = f"the site's series {own_price.csv}:{own_price.column}"
    else:
        base = profile["price_usd_per_mwh"].to_numpy(dtype=float)
        price_basis = f"{source.name}: {region_basis['price_usd_per_mwh']}"
    multiplier, adder, origin = price_terms(scenario, site, source)
    price_basis += f"; paid = {multiplier:g} x price + {adder:g} USD/MWh (adder: {origin})"
    own_carbon = site.grid_carbon
    if own_carbon is not None and own_carbon.constant is not None:
        carbon = np.full(n, own_carbon.constant)
        carbon_basis = f"the site's constant {own_carbon.constant:g} kgCO2e/MWh, counted as {basis}"
    elif own_carbon is not None and own_carbon.csv is not None:
        carbon = own_series[(site_name, "carbon")].to_numpy(dtype=float)
        carbon_basis = f"the site's series {own_carbon.csv}:{own_carbon.column}, counted as {basis}"
    else:
        carbon, how = carbon_in_basis(source, profile, basis)
        carbon_basis = f"{source.name}: {region_basis['carbon_kg_per_mwh']}; counted {how}"
    return GridSignal(
        price_usd_per_mwh=multiplier * base + adder,
        carbon_kg_per_mwh=carbon,
        price_basis=price_basis,
        carbon_basis=carbon_basis,
    )
