"""The evaporative PUE curve against the published 2023 PUE of named hyperscale sites.

Run by hand (tests/inputs/test_cooling_fidelity.py recomputes the table and the fit):

    python bench/cooling_fidelity.py            # the fit and a plain table
    python bench/cooling_fidelity.py --markdown # the table docs/fidelity.md shows

Google publishes each campus's quarterly PUE (google.com/about/datacenters/efficiency,
"PUE by campus"); a site's 2023 figure here is the mean of its four 2023 quarters, as
its IT load is steady. The three campuses within reach of a weather point of the
shipped 2023 year are Quilicura (Chile, 11 km from the Santiago point), Singapore
(Jurong West, 18 km) and Midlothian (Texas, 37 km from the Dallas point). The
evaporative curve's two PUE levels are fitted on the two that bracket the climates,
Quilicura (cool, dry: mostly economiser) and Singapore (hot, humid: chillers all year);
Midlothian and Singapore's second campus are predicted. The fit solves two equations in
two unknowns (the curve is linear in its PUE levels); the temperatures of the curve keep
their design values.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

import numpy as np

from geomodel.inputs.pue import outdoor_temperature_c, weather_pue
from geomodel.scenario.schema.pue import COOLING_CURVES, PueCurve
from geomodel_builtins import measured, weather


@dataclass(frozen=True)
class PublishedSite:
    name: str
    zone: str  #: weather point
    distance_km: float  #: from the weather point
    quarters_2023: tuple[float, float, float, float]
    fitted: bool

    @property
    def pue_2023(self) -> float:
        return float(np.mean(self.quarters_2023))


#: Google's 2023 quarterly PUE by campus (Google data centers efficiency page, "PUE by
#: campus", read 2025) [vendor].
SITES = (
    PublishedSite("Google Quilicura, Chile", "CL-SIC", 11, (1.09, 1.09, 1.09, 1.09), True),
    PublishedSite("Google Singapore", "SG", 18, (1.13, 1.13, 1.13, 1.13), True),
    PublishedSite("Google Midlothian, Texas", "US-TEX-ERCO", 37, (1.11, 1.14, 1.16, 1.10), False),
    PublishedSite("Google Singapore (2nd campus)", "SG", 18, (1.19, 1.19, 1.19, 1.17), False),
)
HEAD = ("site", "weather point (km)", "published 2023", "curve 2023", "difference", "role")


def year_pue(zone: str, curve: PueCurve) -> float:
    """Mean hourly PUE of ``curve`` over the shipped 2023 year at ``zone``'s weather point."""
    frame = weather.site_weather(zone, measured.data_hours())
    return float(weather_pue(outdoor_temperature_c(frame, curve), curve).mean())


def fit_evaporative() -> tuple[float, float]:
    """``(pue_economiser, pue_design)`` of the evaporative curve that reproduce the fitted
    sites exactly: the year's mean PUE is a + b x pue_economiser + c x pue_design."""
    base = COOLING_CURVES["evaporative"]
    rows, targets = [], []
    for site in (s for s in SITES if s.fitted):
        at_one = year_pue(site.zone, replace(base, pue_economiser=1.0, pue_design=1.0))
        at_design = year_pue(site.zone, replace(base, pue_economiser=1.0, pue_design=2.0)) - at_one
        rows.append([1.0 - at_design, at_design])  # PUE = p0 (1 - share) + p1 share
        targets.append(site.pue_2023)
    economiser, design = np.linalg.solve(np.array(rows), np.array(targets))
    return float(economiser), float(design)


def table(curve: PueCurve) -> list[list[str]]:
    lines = []
    for site in SITES:
        modelled = year_pue(site.zone, curve)
        lines.append(
            [
                site.name,
                f"{site.zone} ({site.distance_km:g})",
                f"{site.pue_2023:.3f}",
                f"{modelled:.3f}",
                f"{modelled - site.pue_2023:+.3f}",
                "fitted" if site.fitted else "predicted",
            ]
        )
    return lines


def markdown(lines: list[list[str]]) -> str:
    out = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    out += ["| " + " | ".join(cells) + " |" for cells in lines]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    economiser, design = fit_evaporative()
    if not args.markdown:
        print(f"fit: pue_economiser {economiser:.4f}, pue_design {design:.4f}")
    lines = table(COOLING_CURVES["evaporative"])
    if args.markdown:
        print(markdown(lines))
        return
    for cells in lines:
        print("  ".join(cells))


if __name__ == "__main__":
    main()
