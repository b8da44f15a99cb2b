"""Built-in utility solar PV (``solar_pv``) with a pvlib clear-sky profile.

For each hour (evaluated at its midpoint) pvlib gives the sun's position and the
simplified Solis clear-sky irradiance (no downloaded data needed); the isotropic
sky model transposes it onto a fixed plane tilted at the site's latitude and
facing the equator. Plane-of-array irradiance / 1000 W/m2 is the raw output.

The raw output is then scaled so that its mean over the reference year
(``reference_year``, hourly in UTC) equals the solar capacity factor of the
grid region nearest the site in ``grid_regions.csv``, and clipped to [0, 1].
Clear sky overstates output; the uniform scale stands in for clouds, soiling
and losses. The scale is computed once per location and cached.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import pvlib
from pydantic import Field

from geomodel.catalog.entries import PowerSource
from geomodel.geo import Location
from geomodel.hookspecs import hookimpl

from .._tables import generator_fields, nearest_grid_region
from ._profiles import scale_to_mean, utc_year

GEOMODEL_PLUGIN_API = "1"

STC_IRRADIANCE_W_M2 = 1000.0


def clear_sky_output(location: Location, time_index: pd.DatetimeIndex, albedo: float) -> np.ndarray:
    """Clear-sky plane-of-array irradiance / 1000 W/m2 at each hour's midpoint; 0 at night."""
    times = time_index + pd.Timedelta(minutes=30)
    sun = pvlib.solarposition.get_solarposition(times, location.lat, location.lon)
    sky = pvlib.clearsky.simplified_solis(sun["apparent_elevation"])
    poa = pvlib.irradiance.get_total_irradiance(
        surface_tilt=abs(location.lat),
        surface_azimuth=180.0 if location.lat >= 0 else 0.0,
        solar_zenith=sun["apparent_zenith"],
        solar_azimuth=sun["azimuth"],
        dni=sky["dni"],
        ghi=sky["ghi"],
        dhi=sky["dhi"],
        albedo=albedo,
        model="isotropic",
    )["poa_global"].to_numpy()
    daylight = sun["apparent_elevation"].to_numpy() > 0
    return np.where(daylight, np.nan_to_num(poa) / STC_IRRADIANCE_W_M2, 0.0).clip(min=0.0)


@lru_cache(maxsize=1024)
def annual_scale(location: Location, albedo: float, year: int) -> float:
    """Factor that brings the clear-sky output's mean over ``year`` to the region's CF."""
    target = float(nearest_grid_region(location)["solar_cf"])
    return scale_to_mean(clear_sky_output(location, utc_year(year), albedo), target)


class SolarPV(PowerSource):
    """Fixed, latitude-tilted, equator-facing PV with a scaled clear-sky profile."""

    kind: str = "solar"
    albedo: float = Field(default=0.25, ge=0, le=1, description="ground reflectance")
    reference_year: int = Field(
        default=2023, ge=1901, le=2099, description="year whose UTC hours the scale is fitted on"
    )

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        scale = annual_scale(location, self.albedo, self.reference_year)
        output = clear_sky_output(location, time_index, self.albedo)
        n = len(time_index)
        return pd.DataFrame(
            {
                "capacity_factor": np.minimum(scale * output, 1.0),
                "price_usd_per_mwh": np.full(n, self.price_usd_per_mwh),
                "carbon_kg_per_mwh": np.full(n, self.carbon_kg_per_mwh),
            },
            index=time_index,
        )


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """Utility-scale solar PV."""
    return [SolarPV(**generator_fields("solar_pv"))]
