"""The energy half of a pathway, checked against PyPSA's multi-investment-period optimisation.

    python bench/pathway_pypsa.py                        # 2 sites, 24 h, 3 periods
    python bench/pathway_pypsa.py --sites 3 --hours 48 --json out.json

The sites of bench/pypsa_crosscheck.py (real grid regions with measured 2023 prices and
carbon; each serves the city next to it, so its compute load is fixed by the demand)
may build solar and onshore wind; the pathway has three periods (2026, 2028, 2030) in
which demand grows, energy prices and the carbon price change, and wind lives only 3
years, so what is built in 2026 serves 2026 and 2028 and retires before 2030.

geomodel solves it with ``solve_pathway``. PyPSA is given its own network, built here
from the numbers in geomodel's per-period inputs Datasets (series, prices, carbon,
capacity factors, annuities, limits): snapshots indexed by (period, step), one
extendable generator per site, source and build period with ``build_year`` and
``lifetime``, ``capital_cost`` the annuity plus fixed O&M a year, the period weights as
``investment_period_weightings`` (years) and the objective weights computed here by
PyPSA's documented social discounting (``get_investment_weighting`` of its
multi-investment example, written out below), the snapshot weights scaling each
period's representative hours to a year, and the load of each period computed from its
inputs by the power formula of docs/model.md (4). A site's limit on a source holds for
the sum of the generations alive in a period, as geomodel's does (an extra constraint).
Objectives must agree to 1e-6 relative (exit status 1 otherwise). Batteries are not in
this check (bench/pypsa_crosscheck.py compares them in a single period).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from pypsa_crosscheck import REL_TOLERANCE, compared, scenario, site_load_mw  # noqa: E402

YEARS = (2026, 2028, 2030)
GROWTH = (1.0, 1.3, 1.6)
PRICE_SCALE = (1.0, 1.15, 1.3)
CARBON_PRICE = (40.0, 80.0, 120.0)
RATE = 0.07
LIFETIMES = {"solar": "30 years", "wind": "3 years"}


def pathway_scenario(n_sites: int, hours: int) -> dict[str, Any]:
    """bench/pypsa_crosscheck.py's scenario without batteries, over three periods."""
    data = scenario(n_sites, hours)
    for site in data["sites"].values():
        del site["build"]["battery"]
    data["name"] = f"pathway-pypsa-{n_sites}x{hours}"
    data["finance"] = {"discount_rate": RATE, "lifetimes": LIFETIMES}
    data["periods"] = {
        "years": list(YEARS),
        "demand_growth": {"chat": list(GROWTH)},
        "energy_price_scale": list(PRICE_SCALE),
        "carbon_price": [f"{c} USD/tCO2" for c in CARBON_PRICE],
        "lead_times": {"solar": 0, "wind": 0},  # PyPSA has no lead time
    }
    return data


def social_discount(t: float, rate: float) -> float:
    return 1 / (1 + rate) ** t


def investment_weighting(years: list[float], rate: float) -> list[float]:
    """PyPSA's example ``get_investment_weighting``: per period, the sum of the social
    discount over the years it covers, counted from the first period."""
    ends = [sum(years[: i + 1]) for i in range(len(years))]
    starts = [0.0, *ends[:-1]]
    return [
        sum(social_discount(t, rate) for t in range(int(a), int(b)))
        for a, b in zip(starts, ends, strict=True)
    ]


def geomodel_side(path: Path) -> dict[str, Any]:
    from geomodel.pathway import solve_pathway

    started = time.perf_counter()
    result = solve_pathway(path)
    assert result.has_solution, result.messages
    built = result.timeline()
    return {
        "objective_usd": result.kpis["net_present_cost_usd"],
        "build": {
            f"{row['where']} {row['what']} {row['online']}": float(row["amount"])
            for row in built.to_dict(orient="records")
        },
        "seconds": time.perf_counter() - started,
    }


def pypsa_network(path: Path):
    """PyPSA's multi-period network of the same sites, series, costs and (computed) loads."""
    import numpy as np
    import pandas as pd
    import pypsa

    from geomodel.catalog import build_catalog
    from geomodel.inputs.pathway import build_pathway_inputs
    from geomodel.model.pathway import period_inputs
    from geomodel.scenario import load_scenario

    catalog = build_catalog()
    tree = build_pathway_inputs(load_scenario(path, catalog=catalog), catalog)
    periods = period_inputs(tree)
    root = tree.to_dataset(inherit=False)
    first = periods[0]
    sites = [str(s) for s in first["site"].values]
    sources = [str(k) for k in first["source"].values]
    steps = first.sizes["time"]
    weights = [float(w) for w in root["period_weight_years"].values]
    pypsa.options.api.legacy_string_dtype = True
    network = pypsa.Network()
    network.set_snapshots(pd.MultiIndex.from_product([list(YEARS), range(steps)]))
    network.investment_periods = list(YEARS)
    network.investment_period_weightings["years"] = weights
    network.investment_period_weightings["objective"] = investment_weighting(weights, RATE)
    weight_hours = np.concatenate(
        [
            p["weight"].values
            * p["dt_hours"].values
            * 8760
            / float(np.sum(p["weight"].values * p["dt_hours"].values))
            for p in periods
        ]
    )
    network.snapshot_weightings.loc[:, "objective"] = weight_hours
    network.snapshot_weightings.loc[:, "generators"] = weight_hours
    loads = np.concatenate([site_load_mw(p) for p in periods], axis=1)  # (site, period x step)
    limits = []
    for s, site in enumerate(sites):
        network.add("Bus", site)
        network.add("Load", f"{site} load", bus=site, p_set=loads[s])
        marginal = np.concatenate(
            [
                p["grid_price_usd_per_mwh"].values[s]
                * float(p.attrs.get("energy_price_multiplier", 1.0))
                + float(p.attrs["carbon_price_usd_per_tco2"])
                * p["grid_carbon_kg_per_mwh"].values[s]
                / 1000
                for p in periods
            ]
        )
        network.add(
            "Generator",
            f"{site} grid",
            bus=site,
            p_nom=float(first["grid_import_limit_mw"].values[s]),
            marginal_cost=pd.Series(marginal, index=network.snapshots),
        )
        life = {
            k: float(root["build_source_mw_lifetime_years"].values[s, k]) for k in range(len(sources))
        }
        for k, source in enumerate(sources):
            most = float(first["build_max_source_mw"].values[s, k])
            if most <= 0:
                continue
            factor = np.concatenate([p["source_capacity_factor"].values[s, k] for p in periods])
            marginal = np.concatenate(
                [
                    p["source_price_usd_per_mwh"].values[s, k]
                    + float(p.attrs["carbon_price_usd_per_tco2"])
                    * p["source_carbon_kg_per_mwh"].values[s, k]
                    / 1000
                    for p in periods
                ]
            )
            names = []
            for position, year in enumerate(YEARS):
                p = periods[position]
                name = f"{site} {source} {year}"
                names.append(name)
                network.add(
                    "Generator",
                    name,
                    bus=site,
                    build_year=year,
                    lifetime=life[k],
                    p_nom_extendable=True,
                    p_nom_max=most,
                    capital_cost=float(
                        p["source_annuity_usd_per_mw_year"].values[s, k]
                        + p["source_fixed_om_usd_per_mw_year"].values[s, k]
                    ),
                    p_max_pu=pd.Series(factor, index=network.snapshots),
                    marginal_cost=pd.Series(marginal, index=network.snapshots),
                )
            limits.append((names, most, life[k]))
    return network, limits


def site_limits(limits):
    """geomodel's limit: the generations of a site's source alive in a period sum to at
    most its most (``build_max_source_mw``)."""

    def add(network, snapshots) -> None:
        p_nom = network.model["Generator-p_nom"]
        dim = p_nom.dims[0]
        for names, most, life in limits:
            for year in YEARS:
                alive = [n for n, y in zip(names, YEARS, strict=True) if y <= year < y + life]
                network.model.add_constraints(
                    p_nom.sel({dim: alive}).sum() <= most, name=f"{names[0]} {year} most"
                )

    return add


def pypsa_side(path: Path) -> dict[str, Any]:
    import logging

    for name in ("pypsa", "linopy"):
        logging.getLogger(name).setLevel(logging.ERROR)
    started = time.perf_counter()
    network, limits = pypsa_network(path)
    status, condition = network.optimize(
        solver_name="highs",
        multi_investment_periods=True,
        extra_functionality=site_limits(limits),
        include_objective_constant=False,
        solver_options={"threads": 1, "output_flag": False},
    )
    assert status == "ok", (status, condition)
    built = network.generators.p_nom_opt
    return {
        "objective_usd": float(network.objective),
        "build": {
            name: float(value)
            for name, value in built.items()
            if value > 1e-6 and not name.endswith(" grid")
        },
        "seconds": time.perf_counter() - started,
    }


def crosscheck(n_sites: int, hours: int) -> dict[str, Any]:
    import yaml

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pathway.yaml"
        path.write_text(yaml.safe_dump(pathway_scenario(n_sites, hours), sort_keys=False))
        sides = {"geomodel": geomodel_side(path), "pypsa": pypsa_side(path)}
    return compared(n_sites, hours, sides)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=2, choices=range(1, 4))
    parser.add_argument("--hours", type=int, default=24)
    parser.add_argument("--json", type=Path, help="also write the report as JSON")
    args = parser.parse_args(argv)
    report = crosscheck(args.sites, args.hours)
    ours, theirs = report["geomodel"]["objective_usd"], report["pypsa"]["objective_usd"]
    print(
        f"{report['sites']} sites x {report['hours']} h x {len(YEARS)} periods; objectives "
        f"{ours:,.2f} (geomodel) and {theirs:,.2f} (PyPSA) differ by "
        f"{report['relative_difference']:.2e} (relative)"
    )
    for tool in ("geomodel", "pypsa"):
        print(f"{tool}: built {json.dumps(report[tool]['build'])}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0 if report["relative_difference"] <= REL_TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
