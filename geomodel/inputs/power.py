"""Hourly power-source series per site: grid price and carbon, generator profiles.

Grid series follow :mod:`geomodel.inputs.grid_signals` (measured or shaped region
profiles, price terms, own series, carbon basis); every generator's carbon is counted
in the scenario's carbon basis too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog, PowerSource
from geomodel.geo import Location
from geomodel.inputs.grid_signals import carbon_in_basis, site_grid_signal
from geomodel.inputs.weather import weather_capacity_factor
from geomodel.scenario.schema import Scenario


@dataclass(frozen=True)
class SitePower:
    """Per-site series on the hourly horizon, arrays shaped (site, [source,] hour)."""

    sources: list[str]
    source_kind: list[str]
    capacity_mw: np.ndarray
    capacity_factor: np.ndarray
    price_usd_per_mwh: np.ndarray
    carbon_kg_per_mwh: np.ndarray
    grid_price_usd_per_mwh: np.ndarray
    grid_carbon_kg_per_mwh: np.ndarray
    grid_import_limit_mw: np.ndarray
    grid_basis: dict[str, dict[str, str]]


def site_power(scenario: Scenario, catalog: Catalog, hours: pd.DatetimeIndex) -> SitePower:
    """Resolve every site's grid and generators against the catalogue profiles."""
    sites = scenario.sites
    sources = sorted({name for site in sites.values() for name in site.power_sources})
    shape = (len(sites), len(sources), len(hours))
    capacity_mw = np.zeros(shape[:2])
    capacity_factor = np.zeros(shape)
    price = np.zeros(shape)
    carbon = np.zeros(shape)
    grid_price = np.zeros((len(sites), len(hours)))
    grid_carbon = np.zeros((len(sites), len(hours)))
    grid_limit = np.zeros(len(sites))
    profile_series = scenario.origin.profile_series if scenario.origin else {}
    own_series = scenario.origin.grid_series if scenario.origin else {}
    basis = scenario.signals.carbon_basis
    grid_basis: dict[str, dict[str, str]] = {}
    for i, (site_name, site) in enumerate(sites.items()):
        location = Location(lat=site.lat, lon=site.lon)
        if site.grid is not None:
            source = _source(scenario, catalog, site.grid)
            profile = source.profile(location, hours)
            signal = site_grid_signal(scenario, site_name, site, source, profile, own_series)
            grid_price[i] = signal.price_usd_per_mwh
            grid_carbon[i] = signal.carbon_kg_per_mwh
            grid_basis[site_name] = {
                "grid": site.grid,
                "price": signal.price_basis,
                "carbon": signal.carbon_basis,
            }
            # a given limit is the grid connection and stands as given, above the envelope
            # too: facility power keeps within the envelope, and only an extension (a
            # battery charging) can draw more from the grid (docs/scenarios.md)
            limit = site.grid_import_limit
            grid_limit[i] = site.power_envelope if limit is None else limit
        for name, supply in site.power_sources.items():
            j = sources.index(name)
            source = _source(scenario, catalog, name)
            profile = source.profile(location, hours)
            capacity_mw[i, j] = supply.capacity
            custom = profile_series.get((site_name, name))
            factors = profile["capacity_factor"] if custom is None else custom
            if supply.weather is not None:
                factors = weather_capacity_factor(catalog, name, location, hours, supply.weather)
            capacity_factor[i, j] = np.asarray(factors)
            price[i, j] = (
                profile["price_usd_per_mwh"].to_numpy() if supply.price is None else supply.price
            )
            carbon[i, j] = (
                carbon_in_basis(source, profile, basis)[0] if supply.carbon is None else supply.carbon
            )
    return SitePower(
        sources=sources,
        source_kind=[catalog.power_source(name).kind for name in sources],
        capacity_mw=capacity_mw,
        capacity_factor=capacity_factor,
        price_usd_per_mwh=price,
        carbon_kg_per_mwh=carbon,
        grid_price_usd_per_mwh=grid_price,
        grid_carbon_kg_per_mwh=grid_carbon,
        grid_import_limit_mw=grid_limit,
        grid_basis=grid_basis,
    )


def _source(scenario: Scenario, catalog: Catalog, name: str) -> PowerSource:
    """The catalogue source, on shaped profiles only when the scenario asks for them."""
    source = catalog.power_source(name)
    return source.shaped() if scenario.signals.grid_series == "shaped" else source
