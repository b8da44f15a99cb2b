"""Built-in onshore wind (``wind_onshore``) with a synthetic, reproducible profile.

For each UTC calendar year touched by a time index, the profile is one year-long
series drawn for the site:

1. the two horizontal wind components follow independent Gaussian AR(1)
   processes, z(t) = phi z(t-1) + sqrt(1 - phi^2) e(t), with hourly persistence
   ``persistence_per_hour`` (a 200-hour burn-in makes them start stationary);
2. the speed sqrt((z1^2 + z2^2) / 2) is then Rayleigh distributed, a Weibull
   with shape 2 and unit scale; it is multiplied by 1 + ``winter_boost`` x
   (-season) so that winters are windier, and by a scale lambda in m/s;
3. a power curve turns speed into output: 0 below cut-in, (v^3 - v_in^3) /
   (v_rated^3 - v_in^3) up to rated, 1 up to cut-out, 0 above;
4. lambda is found by bisection so that the year's mean output nears the onshore
   wind capacity factor of the grid region nearest the site, and a final factor
   (clipped at 1) makes the mean equal it exactly.

The random draws are seeded by (``seed``, latitude and longitude rounded to 0.01
degree, year): the same entry at the same place gives the same series, a
different seed gives another. Series are cached per (site, year).

A site that asks for it (``weather:`` on its source) gets a profile from the
measured 10 m wind speed of its weather point instead: taken to hub height by the
log law of the neutral surface layer, v_hub = v_10 ln(h / z0) / ln(10 m / z0)
(windpowerlib's ``logarithmic_profile``), with the roughness length z0 of the
surface around the weather point: a Davenport-Wieringa terrain class
(``TERRAIN_ROUGHNESS_M``; default ``very_rough``, 0.5 m, since the archive's
points stand in cities and their 10 m wind is a city's) or the site's own
``roughness_length``; or, when the site gives a ``shear_exponent``, by the power
law v_hub = v_10 (h / 10 m)^alpha (Peterson and Hennessey 1978, J. Appl. Meteorol.
17, 390-394). The hub-height wind goes through the power curve of a named turbine
from windpowerlib's library (OpenEnergy Database curves at the standard air
density of 1.225 kg/m3; zero below the curve's first and above its last wind
speed, its cut-out). Output / nominal power is the capacity factor; no wake,
availability or electrical losses are taken off (docs/fidelity.md compares the
zones' capacity factors with published fleet figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from pydantic import Field, model_validator

from geomodel.catalog.entries import PowerSource
from geomodel.geo import Location
from geomodel.hookspecs import hookimpl
from geomodel.scenario.schema.weather import TERRAIN_ROUGHNESS_M

from .._tables import generator_fields, nearest_grid_region
from ._profiles import clock, scale_to_mean, season_cosine, utc_year

GEOMODEL_PLUGIN_API = "1"

BURN_IN_HOURS = 200
#: The turbine and hub height a weather-driven profile uses unless the site names its own:
#: a 3 MW, 115 m rotor machine common on land; 100 m is about the mean hub height of US
#: turbines installed in 2022 (LBNL Land-Based Wind Market Report 2023: 98 m) [estimate].
DEFAULT_TURBINE = "E-115/3000"
DEFAULT_HUB_HEIGHT_M = 100.0
#: Terrain around a weather point unless the site names its own: the built-in points
#: stand in cities, Davenport-Wieringa "very rough" (scattered buildings, suburbs).
DEFAULT_TERRAIN = "very_rough"
#: Height of the measured wind speed.
MEASURED_HEIGHT_M = 10.0
#: Bracket (m/s) for the speed scale lambda; its top keeps clear of mass cut-outs.
SPEED_SCALE_BRACKET = (1.0, 15.0)


def power_curve(speed: np.ndarray, cut_in: float, rated: float, cut_out: float) -> np.ndarray:
    """Output (0..1) of a turbine: cubic from cut-in to rated, flat to cut-out, then 0."""
    ramp = (speed**3 - cut_in**3) / (rated**3 - cut_in**3)
    output = np.where(speed < rated, ramp, 1.0)
    return np.where((speed < cut_in) | (speed >= cut_out), 0.0, output)


def ar1(noise: np.ndarray, persistence: float) -> np.ndarray:
    """z(t) = phi z(t-1) + sqrt(1 - phi^2) e(t) from z = 0, for one series."""
    gain = np.sqrt(1 - persistence**2)
    level, levels = 0.0, []
    for step in (gain * noise).tolist():  # plain floats: ~20x faster than numpy scalars
        level = persistence * level + step
        levels.append(level)
    return np.asarray(levels)


def unit_speeds(
    seed: int, lat: float, lon: float, hours: int, year: int, persistence: float
) -> np.ndarray:
    """Rayleigh (Weibull k=2, scale 1) hourly speeds from two AR(1) wind components."""
    key = [seed, round((lat + 90) * 100), round((lon + 180) * 100), year]
    noise = np.random.default_rng(key).standard_normal((2, BURN_IN_HOURS + hours))
    u, v = (ar1(row, persistence)[BURN_IN_HOURS:] for row in noise)
    return np.sqrt((u**2 + v**2) / 2)


@lru_cache(maxsize=1024)
def year_series(
    seed: int,
    lat: float,
    lon: float,
    year: int,
    persistence: float,
    winter_boost: float,
    speeds_m_s: tuple[float, float, float],
    target: float,
) -> np.ndarray:
    """Hourly output over one UTC year whose mean equals ``target`` exactly."""
    year_hours = utc_year(year)
    shape = unit_speeds(seed, lat, lon, len(year_hours), year, persistence)
    shape = shape * (1 - winter_boost * season_cosine(clock(year_hours), lat))

    def mean_output(speed_scale: float) -> float:
        return float(power_curve(speed_scale * shape, *speeds_m_s).mean())

    low, high = SPEED_SCALE_BRACKET
    if mean_output(high) < target:
        raise ValueError(f"wind capacity factor {target} is out of reach of the power curve")
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (middle, high) if mean_output(middle) < target else (low, middle)
    output = power_curve(high * shape, *speeds_m_s)
    series = np.minimum(scale_to_mean(output, target) * output, 1.0)
    series.flags.writeable = False  # shared through the cache
    return series


class WindOnshore(PowerSource):
    """Onshore wind with a synthetic hourly profile scaled to the nearest region's CF."""

    kind: str = "wind"
    seed: int = Field(default=0, ge=0, description="random seed of the synthetic series")
    cut_in_m_s: float = Field(default=3.0, gt=0)
    rated_m_s: float = Field(default=12.0, gt=0)
    cut_out_m_s: float = Field(default=25.0, gt=0)
    persistence_per_hour: float = Field(
        default=0.97, ge=0, lt=1, description="AR(1) coefficient of the wind components"
    )
    winter_boost: float = Field(
        default=0.1, ge=0, lt=1, description="relative extra wind speed at midwinter"
    )

    @model_validator(mode="after")
    def _speeds_in_order(self) -> WindOnshore:
        if not self.cut_in_m_s < self.rated_m_s < self.cut_out_m_s:
            raise ValueError("need cut_in_m_s < rated_m_s < cut_out_m_s")
        return self

    weather_options: ClassVar[frozenset[str] | None] = frozenset(
        {"turbine", "hub_height", "terrain", "roughness_length", "shear_exponent"}
    )

    def weather_capacity_factor(
        self, location: Location, weather: pd.DataFrame, options: Mapping[str, Any]
    ) -> np.ndarray:
        roughness_m = (
            options.get("roughness_length")
            or TERRAIN_ROUGHNESS_M[options.get("terrain") or DEFAULT_TERRAIN]
        )
        return turbine_output(
            weather["wind_speed_10m_m_s"].to_numpy(),
            options.get("turbine") or DEFAULT_TURBINE,
            options.get("hub_height") or DEFAULT_HUB_HEIGHT_M,
            roughness_m,
            options.get("shear_exponent"),
        )

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        target = float(nearest_grid_region(location)["wind_onshore_cf"])
        speeds = (self.cut_in_m_s, self.rated_m_s, self.cut_out_m_s)
        lat, lon = round(location.lat, 2), round(location.lon, 2)
        times = clock(time_index)
        output = np.empty(len(time_index))
        for year in np.unique(times.year):
            series = year_series(
                self.seed,
                lat,
                lon,
                int(year),
                self.persistence_per_hour,
                self.winter_boost,
                speeds,
                target,
            )
            in_year = times.year == year
            output[in_year] = series[times.hour_slot[in_year]]
        n = len(time_index)
        return pd.DataFrame(
            {
                "capacity_factor": output,
                "price_usd_per_mwh": np.full(n, self.price_usd_per_mwh),
                "carbon_kg_per_mwh": np.full(n, self.carbon_kg_per_mwh),
            },
            index=time_index,
        )


@lru_cache(maxsize=64)
def turbine_curve(turbine: str) -> tuple[np.ndarray, np.ndarray]:
    """(wind speeds m/s, output / nominal power) of a turbine of windpowerlib's library."""
    from windpowerlib import WindTurbine

    machine = WindTurbine(turbine_type=turbine, hub_height=DEFAULT_HUB_HEIGHT_M)
    curve = machine.power_curve
    return curve["wind_speed"].to_numpy(float), curve["value"].to_numpy(float) / machine.nominal_power


def hub_speed_m_s(
    wind_speed_10m_m_s: np.ndarray,
    hub_height_m: float,
    roughness_m: float,
    shear_exponent: float | None = None,
) -> np.ndarray:
    """The measured 10 m wind at hub height: the log law over ``roughness_m``, or the power
    law with ``shear_exponent`` when one is given (module docstring)."""
    from windpowerlib.wind_speed import hellman, logarithmic_profile

    speed = np.asarray(wind_speed_10m_m_s, dtype=float)
    if shear_exponent is not None:
        return np.asarray(
            hellman(speed, MEASURED_HEIGHT_M, hub_height_m, hellman_exponent=shear_exponent)
        )
    return np.asarray(logarithmic_profile(speed, MEASURED_HEIGHT_M, hub_height_m, roughness_m))


def turbine_output(
    wind_speed_10m_m_s: np.ndarray,
    turbine: str,
    hub_height_m: float,
    roughness_m: float,
    shear_exponent: float | None = None,
) -> np.ndarray:
    """Capacity factor of ``turbine`` at each measured 10 m wind speed (module docstring)."""
    from windpowerlib.power_output import power_curve

    hub_speed = hub_speed_m_s(wind_speed_10m_m_s, hub_height_m, roughness_m, shear_exponent)
    speeds, output = turbine_curve(turbine)
    return np.clip(np.asarray(power_curve(hub_speed, speeds, output)), 0.0, 1.0)


@hookimpl
def register_power_sources() -> list[PowerSource]:
    """Onshore wind."""
    return [WindOnshore(**generator_fields("wind_onshore"))]
