"""Water every site uses per kWh of IT energy (WUE, L/kWh) at every hour, and its cap and price.

WUE here is The Green Grid's: site water over IT energy. A site's own ``wue`` is used as
given; otherwise its cooling kind's:

* ``air`` and ``liquid`` reject heat in dry coolers and use none (0 L/kWh; closed-loop
  "zero-water" designs such as Microsoft's 2024 data centres and the Abilene campus)
  [estimate: make-up water of the closed loops and offices left out];
* ``evaporative`` with a constant PUE: 1.06 L/kWh, Google's fleet in 2023 (6.1 billion US
  gallons = 23.1 GL consumed by its data centres, Google Environmental Report 2024, over
  24 TWh / PUE 1.10 of IT energy) [vendor];
* ``evaporative`` with a weather-driven PUE: the towers evaporate water to carry the heat,
  hour by hour. All the facility's power ends as heat for the towers, PUE(t) kWh per kWh
  of IT. Outdoor air (dry-bulb, humidity) enters and leaves saturated at
  ``TOWER_AIR_RISE_K`` above its wet-bulb; what it evaporates per kWh of heat is the rise
  in its humidity ratio over the rise in its enthalpy (psychrolib, ASHRAE Handbook
  Fundamentals), 3600 x dW / dh kg/kWh: about 1.5 L in warm humid air, where the heat
  leaves almost all as vapour, less in cold air, which also warms, and more in hot dry
  air, which the water cools as it evaporates. Blow-down to
  keep the dissolved salts at ``CYCLES_OF_CONCENTRATION`` adds N / (N - 1):

      WUE(t) = PUE(t) x 3600 x dW(t) / dh(t) x N / (N - 1)      (L/kWh of IT energy)

The caps (``water_cap``, m3 a year) are scaled to the horizon's hours.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd

from geomodel.catalog import Catalog
from geomodel.geo import Location
from geomodel.inputs.pue import SEA_LEVEL_PA, wet_bulb_c
from geomodel.inputs.weather import site_weather
from geomodel.scenario.schema import Scenario
from geomodel.scenario.schema.pue import COOLING_WUE_L_PER_KWH

#: The tower's leaving air, saturated, is this far above the entering wet-bulb: about half
#: the 4 K approach plus 5 K range above it, where the warm water meets the air [estimate].
TOWER_AIR_RISE_K = 6.0
#: Cycles of concentration of the tower water; blow-down is 1 / (N - 1) of evaporation
#: (typical 3-6) [estimate].
CYCLES_OF_CONCENTRATION = 5.0
#: Joules in a kWh.
J_PER_KWH = 3.6e6
HOURS_PER_YEAR = 8760.0


def evaporated_kg_per_kwh_heat(
    temperature_c: np.ndarray, relative_humidity_pct: np.ndarray
) -> np.ndarray:
    """Water a cooling tower evaporates per kWh of heat it rejects, at each outdoor state."""
    wet_bulb = wet_bulb_c(temperature_c, relative_humidity_pct)
    pairs = np.round(np.column_stack([temperature_c, relative_humidity_pct, wet_bulb]), 2)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    values = np.array([_evaporated(float(t), float(rh), float(wb)) for t, rh, wb in unique])
    return values[inverse.ravel()]


@lru_cache(maxsize=65_536)
def _evaporated(temperature_c: float, relative_humidity_pct: float, wet_bulb_c_: float) -> float:
    import psychrolib

    psychrolib.SetUnitSystem(psychrolib.SI)
    humidity = min(max(relative_humidity_pct / 100.0, 0.0), 1.0)
    ratio_in = psychrolib.GetHumRatioFromRelHum(temperature_c, humidity, SEA_LEVEL_PA)
    enthalpy_in = psychrolib.GetMoistAirEnthalpy(temperature_c, ratio_in)  # J/kg dry air
    leaving_c = wet_bulb_c_ + TOWER_AIR_RISE_K
    ratio_out = psychrolib.GetSatHumRatio(leaving_c, SEA_LEVEL_PA)
    enthalpy_out = psychrolib.GetSatAirEnthalpy(leaving_c, SEA_LEVEL_PA)
    return J_PER_KWH * max(ratio_out - ratio_in, 0.0) / (enthalpy_out - enthalpy_in)


def tower_wue(weather: pd.DataFrame, pue: np.ndarray) -> np.ndarray:
    """WUE (L/kWh of IT energy) of an evaporative plant at each hour (module docstring)."""
    evaporated = evaporated_kg_per_kwh_heat(
        weather["temperature_c"].to_numpy(dtype=float),
        weather["relative_humidity_pct"].to_numpy(dtype=float),
    )
    blow_down = CYCLES_OF_CONCENTRATION / (CYCLES_OF_CONCENTRATION - 1.0)
    return np.asarray(pue, dtype=float) * evaporated * blow_down


def site_wue(
    scenario: Scenario, hours: pd.DatetimeIndex, catalog: Catalog, pue: np.ndarray
) -> np.ndarray:
    """(site, hour) WUE in L/kWh: the site's own, its kind's constant, or the towers' at the
    weather where the PUE follows the weather (``pue``: the sites' hourly PUE)."""
    wue = np.empty((len(scenario.sites), len(hours)))
    for i, site in enumerate(scenario.sites.values()):
        if site.wue is not None:
            wue[i] = site.wue
        elif site.cooling == "evaporative" and site.pue_curve is not None:
            weather = site_weather(catalog, Location(lat=site.lat, lon=site.lon), hours)
            wue[i] = tower_wue(weather, pue[i])
        else:
            wue[i] = COOLING_WUE_L_PER_KWH[site.cooling]
    return wue


def water_caps_m3(scenario: Scenario, hours: pd.DatetimeIndex) -> np.ndarray:
    """Each site's water cap over the horizon, m3 (NaN: no cap): its yearly cap x hours / 8760."""
    share = len(hours) / HOURS_PER_YEAR
    return np.array(
        [np.nan if s.water_cap is None else s.water_cap * share for s in scenario.sites.values()]
    )
