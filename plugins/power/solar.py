"""Built-in utility solar PV (``solar_pv``): a scaled clear-sky profile, or measured cloud cover.

For each hour (evaluated at its midpoint) pvlib gives the sun's position and the
simplified Solis clear-sky irradiance (no downloaded data needed); the isotropic
sky model transposes it onto a fixed plane tilted at the site's latitude and
facing the equator. Plane-of-array irradiance / 1000 W/m2 is the raw output.

The raw output is then scaled so that its mean over the reference year
(``reference_year``, hourly in UTC) equals the solar capacity factor of the
grid region nearest the site in ``grid_regions.csv``, and clipped to [0, 1].
Clear sky overstates output; the uniform scale stands in for clouds, soiling
and losses. The scale is computed once per location and cached.

A site that asks for it (``weather:`` on its source) gets a profile from the
measured weather of its weather point instead, with no scaling: the clear-sky
global horizontal irradiance times Kasten and Czeplak's cloud factor
1 - 0.75 (N/8)^3.4 (N the total cloud cover in oktas; F. Kasten and G. Czeplak,
"Solar and terrestrial radiation dependent on the amount and type of cloud",
Solar Energy 24 (1980) 177-189, fitted to ten years of Hamburg observations; the
relation pvlib's former forecast module offered), split into direct and diffuse
by the Erbs et al. (1982) correlation, transposed as above, then PVWatts v5's DC
model (A. Dobos, NREL/TP-6A20-62641, 2014): output per kW of DC nameplate =
POA / 1000 W/m2 x (1 - 0.0047 (T_cell - 25 degC)), a standard module's
temperature coefficient, less PVWatts' default 14 % of system losses (soiling,
shading, wiring, mismatch, availability; the inverter is not modelled). The cell
temperature comes from the Sandia array model (King et al., SAND2004-3535, open
rack, glass/polymer) with the measured air temperature and 10 m wind speed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

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
#: Kasten and Czeplak (1980): GHI = GHI_clear x (1 - A (N/8)^B), N in oktas.
KASTEN_CZEPLAK_A = 0.75
KASTEN_CZEPLAK_B = 3.4
#: PVWatts v5 standard module: relative DC power change per kelvin of cell temperature.
TEMPERATURE_COEFFICIENT_PER_K = -0.0047
#: PVWatts v5 default system losses.
SYSTEM_LOSSES = 0.14
#: Sandia array temperature model, open rack, glass/polymer module (a, b, deltaT).
CELL_TEMPERATURE_MODEL = pvlib.temperature.TEMPERATURE_MODEL_PARAMETERS["sapm"][
    "open_rack_glass_polymer"
]


def clear_sky_output(location: Location, time_index: pd.DatetimeIndex, albedo: float) -> np.ndarray:
    """Clear-sky plane-of-array irradiance / 1000 W/m2 at each hour's midpoint; 0 at night."""
    times = time_index + pd.Timedelta(minutes=30)
    sun = pvlib.solarposition.get_solarposition(times, location.lat, location.lon)
    sky = pvlib.clearsky.simplified_solis(sun["apparent_elevation"])
    poa = _plane_of_array(location, sun, sky["dni"], sky["ghi"], sky["dhi"], albedo)
    return _by_day(sun, poa / STC_IRRADIANCE_W_M2)


def _plane_of_array(location: Location, sun: pd.DataFrame, dni, ghi, dhi, albedo: float) -> np.ndarray:
    """Irradiance on a plane tilted at the latitude, facing the equator (isotropic sky), W/m2."""
    return pvlib.irradiance.get_total_irradiance(
        surface_tilt=abs(location.lat),
        surface_azimuth=180.0 if location.lat >= 0 else 0.0,
        solar_zenith=sun["apparent_zenith"],
        solar_azimuth=sun["azimuth"],
        dni=dni,
        ghi=ghi,
        dhi=dhi,
        albedo=albedo,
        model="isotropic",
    )["poa_global"].to_numpy()


def _by_day(sun: pd.DataFrame, output: np.ndarray) -> np.ndarray:
    """``output`` while the sun is up, 0 at night, never negative."""
    daylight = sun["apparent_elevation"].to_numpy() > 0
    return np.where(daylight, np.nan_to_num(output), 0.0).clip(min=0.0)


def cloudy_ghi(clear_ghi: np.ndarray, cloud_cover_pct: np.ndarray) -> np.ndarray:
    """Global horizontal irradiance under clouds: Kasten and Czeplak (1980)."""
    oktas = np.clip(np.asarray(cloud_cover_pct, dtype=float), 0.0, 100.0) / 100.0 * 8.0
    return np.asarray(clear_ghi) * (1.0 - KASTEN_CZEPLAK_A * (oktas / 8.0) ** KASTEN_CZEPLAK_B)


def weather_output(location: Location, weather: pd.DataFrame, albedo: float) -> np.ndarray:
    """Output per unit of DC nameplate at each hour's midpoint, from measured weather."""
    times = weather.index + pd.Timedelta(minutes=30)
    sun = pvlib.solarposition.get_solarposition(times, location.lat, location.lon)
    clear = pvlib.clearsky.simplified_solis(sun["apparent_elevation"])["ghi"].fillna(0.0)
    ghi = cloudy_ghi(clear.to_numpy(), weather["cloud_cover_pct"].to_numpy())
    split = pvlib.irradiance.erbs(ghi, sun["zenith"].to_numpy(), times)
    poa = np.nan_to_num(_plane_of_array(location, sun, split["dni"], ghi, split["dhi"], albedo))
    cell_c = pvlib.temperature.sapm_cell(
        poa,
        weather["temperature_c"].to_numpy(),
        weather["wind_speed_10m_m_s"].to_numpy(),
        **CELL_TEMPERATURE_MODEL,
    )
    # PVWatts: POA / 1000 W/m2 x pdc0 x (1 + gamma (T_cell - 25 degC)), with pdc0 = 1
    dc = pvlib.pvsystem.pvwatts_dc(poa, cell_c, 1.0, TEMPERATURE_COEFFICIENT_PER_K)
    return np.minimum(_by_day(sun, np.asarray(dc) * (1.0 - SYSTEM_LOSSES)), 1.0)


@lru_cache(maxsize=1024)
def annual_scale(location: Location, albedo: float, year: int) -> float:
    """Factor that brings the clear-sky output's mean over ``year`` to the region's CF."""
    target = float(nearest_grid_region(location)["solar_cf"])
    return scale_to_mean(clear_sky_output(location, utc_year(year), albedo), target)


class SolarPV(PowerSource):
    """Fixed, latitude-tilted, equator-facing PV with a scaled clear-sky profile."""

    weather_options: ClassVar[frozenset[str] | None] = frozenset()
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

    def weather_capacity_factor(
        self, location: Location, weather: pd.DataFrame, options: Mapping[str, Any]
    ) -> np.ndarray:
        return weather_output(location, weather, self.albedo)


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """Utility-scale solar PV."""
    return [SolarPV(**generator_fields("solar_pv"))]
