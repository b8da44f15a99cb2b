"""Weather-driven sites at every measured weather point: the year's PUE, solar and wind.

Run by hand (tests/inputs/test_weather_fidelity.py checks rows of the table it prints):

    python bench/weather_fidelity.py            # a plain table
    python bench/weather_fidelity.py --markdown # the table docs/fidelity.md shows

For each of the 16 weather points of the shipped 2023 year: the mean and 99th
percentile outdoor wet-bulb, the share of hours an evaporative plant's economiser
carries the load alone (wet-bulb <= 12 degC), the annual mean PUE on each cooling
kind's curve (``pue: {model: weather}``; the peak on the evaporative one), the
evaporative plant's annual WUE (geomodel.inputs.water), and the annual capacity
factors of weather-driven solar (``solar_pv``, per kW of DC nameplate) and wind
(``wind_onshore``, E-115/3000 at 100 m, the log law over the default terrain) next to
the catalogue's figure for the nearest grid region.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

import numpy as np

from geomodel.inputs.pue import outdoor_temperature_c, weather_pue, wet_bulb_c
from geomodel.inputs.water import tower_wue
from geomodel.scenario.schema.pue import COOLING_CURVES
from geomodel.scenario.schema.weather import TERRAIN_ROUGHNESS_M
from geomodel_builtins import measured, weather
from geomodel_builtins._tables import nearest_grid_region
from geomodel_builtins.power import solar, wind

HEAD = (
    "weather point",
    "wet-bulb mean degC",
    "wet-bulb p99 degC",
    "economiser hours",
    "PUE evaporative (max)",
    "PUE air",
    "PUE liquid",
    "WUE evaporative L/kWh",
    "solar CF (catalogue)",
    "wind CF (catalogue)",
)


@dataclass(frozen=True)
class ZoneRow:
    zone: str
    wet_bulb_mean_c: float
    wet_bulb_p99_c: float
    economiser_share: float
    pue_mean: float
    pue_max: float
    pue_air: float
    pue_liquid: float
    wue: float
    solar_cf: float
    solar_cf_catalogue: float
    wind_cf: float
    wind_cf_catalogue: float

    def cells(self) -> list[str]:
        def catalogue(value: float) -> str:
            return f"{value:.2f}" if value > 0 else "none"

        return [
            self.zone,
            f"{self.wet_bulb_mean_c:.1f}",
            f"{self.wet_bulb_p99_c:.1f}",
            f"{self.economiser_share:.0%}",
            f"{self.pue_mean:.3f} ({self.pue_max:.3f})",
            f"{self.pue_air:.3f}",
            f"{self.pue_liquid:.3f}",
            f"{self.wue:.2f}",
            f"{self.solar_cf:.3f} ({catalogue(self.solar_cf_catalogue)})",
            f"{self.wind_cf:.3f} ({catalogue(self.wind_cf_catalogue)})",
        ]


def zone_row(zone: str) -> ZoneRow:
    """The year at one weather point."""
    hours = measured.data_hours()
    frame = weather.site_weather(zone, hours)
    pue = {
        kind: weather_pue(outdoor_temperature_c(frame, curve), curve)
        for kind, curve in COOLING_CURVES.items()
    }
    wet = wet_bulb_c(frame["temperature_c"].to_numpy(), frame["relative_humidity_pct"].to_numpy())
    point = weather.weather_points()[zone]
    region = nearest_grid_region(point)
    solar_cf = solar.weather_output(point, frame, 0.25)
    wind_cf = wind.turbine_output(
        frame["wind_speed_10m_m_s"].to_numpy(),
        wind.DEFAULT_TURBINE,
        wind.DEFAULT_HUB_HEIGHT_M,
        TERRAIN_ROUGHNESS_M[wind.DEFAULT_TERRAIN],
    )
    return ZoneRow(
        zone,
        float(wet.mean()),
        float(np.percentile(wet, 99)),
        float(np.mean(wet <= COOLING_CURVES["evaporative"].economiser_below)),
        float(pue["evaporative"].mean()),
        float(pue["evaporative"].max()),
        float(pue["air"].mean()),
        float(pue["liquid"].mean()),
        float(tower_wue(frame, pue["evaporative"]).mean()),
        float(solar_cf.mean()),
        float(region["solar_cf"]),
        float(wind_cf.mean()),
        float(region["wind_onshore_cf"]),
    )


def rows() -> list[ZoneRow]:
    return [zone_row(zone) for zone in sorted(weather.weather_points())]


def markdown(table: list[ZoneRow]) -> str:
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in table]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    table = rows()
    if args.markdown:
        print(markdown(table))
        return
    widths = (14, 19, 18, 17, 22, 9, 11, 22, 21, 20)
    print("".join(h.ljust(w) for h, w in zip(HEAD, widths, strict=True)))
    for row in table:
        print("".join(c.ljust(w) for c, w in zip(row.cells(), widths, strict=True)))


if __name__ == "__main__":
    main()
