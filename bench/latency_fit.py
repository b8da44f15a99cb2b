"""Refit the user-to-site latency model to the measured round trips and print its error table.

Run by hand (a test imports it to check the shipped constants):

    python bench/latency_fit.py            # the fit, the table, and the shipped constants
    python bench/latency_fit.py --markdown # the table as docs/fidelity.md shows it

Data: docs/data/latency/ (sources.csv says who measured what, when, at which
percentile). The model (geomodel/tools/latency.py):

    round trip = overhead + 2 x d x (f_far + (f_near - f_far) x h / (d + h)) x u / 1000

with u = 4.896 us/km (standard single-mode fibre) and h = 1,000 km. The three free
numbers (overhead, f_near, f_far) minimise the sum of |log(model / measured)| (a
least-absolute-deviation fit of the relative error, robust to the few pairs a
provider routes far around) over the cloud providers' tables (Azure, AWS, IBM
Cloud), on 75 % of their pairs drawn at random with seed 14; the other 25 % are
held back. The table reports the median absolute relative error by great-circle
band on the fitted pairs, the held-back pairs, each provider left out of a refit,
and the WonderProxy public-internet pings (never fitted).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from pyproj import Geod
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "docs" / "data" / "latency"
sys.path.insert(0, str(ROOT))

from geomodel.tools.dci import SMF_LATENCY_US_PER_KM  # noqa: E402
from geomodel.tools.latency import (  # noqa: E402
    FITTED_OVERHEAD_MS,
    FITTED_ROUTE_FACTOR_FAR,
    FITTED_ROUTE_FACTOR_NEAR,
    ROUTE_FACTOR_HALF_KM,
)

#: The constants geomodel ships (geomodel/tools/latency.py), rounded from the fit.
SHIPPED = (FITTED_OVERHEAD_MS, FITTED_ROUTE_FACTOR_NEAR, FITTED_ROUTE_FACTOR_FAR)

FITTED_SOURCES = ("azure", "aws", "ibm")
CHECK_SOURCES = ("wonderproxy",)
HELD_OUT_SHARE = 0.25
SEED = 14
BANDS: tuple[tuple[str, float, float], ...] = (
    ("< 500 km", 0.0, 500.0),
    ("500-3000 km", 500.0, 3000.0),
    ("3000-5000 km", 3000.0, 5000.0),
    ("> 5000 km", 5000.0, np.inf),
)
START = (2.0, 2.5, 1.5)


def round_trips(data: Path = DATA) -> pd.DataFrame:
    """Every measured pair with its great-circle distance (``km``), WGS84."""
    places = pd.read_csv(data / "places.csv").set_index(["source", "place"])
    pairs = pd.read_csv(data / "round_trips.csv")
    a = places.loc[list(zip(pairs.source, pairs.place_a, strict=True))]
    b = places.loc[list(zip(pairs.source, pairs.place_b, strict=True))]
    _, _, metres = Geod(ellps="WGS84").inv(a.lon.values, a.lat.values, b.lon.values, b.lat.values)
    return pairs.assign(km=metres / 1000.0)


def model_ms(params: np.ndarray | tuple[float, float, float], km: np.ndarray) -> np.ndarray:
    """The model's round trip for (overhead ms, f_near, f_far) at great-circle ``km``."""
    overhead, near, far = params
    factor = far + (near - far) * ROUTE_FACTOR_HALF_KM / (km + ROUTE_FACTOR_HALF_KM)
    return overhead + 2.0 * km * factor * SMF_LATENCY_US_PER_KM / 1000.0


def fit(pairs: pd.DataFrame) -> np.ndarray:
    """(overhead ms, f_near, f_far) minimising sum |log(model / measured)|."""
    km, measured = pairs.km.to_numpy(), pairs.rtt_ms.to_numpy()

    def loss(params: np.ndarray) -> float:
        return float(np.abs(np.log(np.maximum(model_ms(params, km), 1e-6) / measured)).sum())

    options = {"maxiter": 20_000, "xatol": 1e-7, "fatol": 1e-10}
    return minimize(loss, START, method="Nelder-Mead", options=options).x


def held_out_mask(n: int, share: float = HELD_OUT_SHARE, seed: int = SEED) -> np.ndarray:
    """True for the pairs held back from the fit: ``share`` of ``n`` drawn with ``seed``."""
    held = np.zeros(n, dtype=bool)
    held[np.random.default_rng(seed).choice(n, round(n * share), replace=False)] = True
    return held


@dataclass(frozen=True)
class Row:
    """Median absolute relative error (%) overall and per band, with pair counts."""

    label: str
    pairs: int
    overall_pct: float
    bias_pct: float
    bands: tuple[tuple[float, int], ...]


def error_row(label: str, pairs: pd.DataFrame, predicted: np.ndarray) -> Row:
    relative = predicted / pairs.rtt_ms.to_numpy() - 1.0
    km = pairs.km.to_numpy()
    bands = []
    for _, low, high in BANDS:
        inside = (km >= low) & (km < high)
        median = float(np.median(np.abs(relative[inside]))) * 100 if inside.any() else float("nan")
        bands.append((median, int(inside.sum())))
    return Row(
        label,
        len(pairs),
        float(np.median(np.abs(relative))) * 100,
        float(np.median(relative)) * 100,
        tuple(bands),
    )


@dataclass(frozen=True)
class FitReport:
    params: np.ndarray
    rows: list[Row]


def report(data: Path = DATA) -> FitReport:
    """The fit on 75 % of the cloud pairs and the table of the shipped model's errors
    (the rows of held-out providers refit without them)."""
    every = round_trips(data)
    cloud = every[every.source.isin(FITTED_SOURCES)].reset_index(drop=True)
    held = held_out_mask(len(cloud))
    fitted, kept_back = cloud[~held], cloud[held]
    params = fit(fitted)
    rows = [
        error_row("fitted (75 % of cloud pairs)", fitted, model_ms(SHIPPED, fitted.km.to_numpy())),
        error_row("held back (25 %)", kept_back, model_ms(SHIPPED, kept_back.km.to_numpy())),
    ]
    for source in FITTED_SOURCES:
        others = cloud[cloud.source != source]
        alone = cloud[cloud.source == source]
        rows.append(
            error_row(f"{source} held out (refit on the others)", alone, model_ms(fit(others), alone.km))
        )
    for source in CHECK_SOURCES:
        check = every[every.source == source]
        label = f"{source} (public internet, not fitted)"
        rows.append(error_row(label, check, model_ms(SHIPPED, check.km)))
    return FitReport(params, rows)


def _cells(row: Row) -> list[str]:
    bands = [f"{m:.1f} ({n})" if n else "- (0)" for m, n in row.bands]
    return [row.label, str(row.pairs), f"{row.overall_pct:.1f}", f"{row.bias_pct:+.1f}", *bands]


def markdown(fit_report: FitReport) -> str:
    head = ["pairs", "n", "all", "median bias", *(name for name, _, _ in BANDS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cells(row)) + " |" for row in fit_report.rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    fit_report = report()
    overhead, near, far = fit_report.params
    print(f"fitted: overhead {overhead:.3f} ms, f_near {near:.4f}, f_far {far:.4f}, h 1000 km")
    print("shipped: overhead {} ms, f_near {}, f_far {} (the table's model)".format(*SHIPPED))
    print("median absolute error, % (pairs); target: <= 12 % overall, <= 18 % in every band")
    if args.markdown:
        print(markdown(fit_report))
        return
    widths = (44, 6, 6, 8, 12, 12, 13, 12)
    head = ["pairs", "n", "all", "bias", *(name for name, _, _ in BANDS)]
    print("".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    for row in fit_report.rows:
        print("".join(c.ljust(w) for c, w in zip(_cells(row), widths, strict=True)))


if __name__ == "__main__":
    main()
