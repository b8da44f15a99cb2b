"""The energy half of a plan, checked against an independent formulation in PyPSA.

    python bench/pypsa_crosscheck.py                      # 3 sites, 168 h
    python bench/pypsa_crosscheck.py --sites 2 --hours 48 --json out.json

The same sites with a fixed compute load, the same hourly series and the same costs
are solved twice: by geomodel (planning mode) and by PyPSA (pip install
"geomodel[pypsa]"), each in a fresh Python process, one after the other. Each site
(real grid regions with measured 2023 prices and carbon: ERCOT, MISO, DE-LU) serves
the inference demand of a city next to it, within an SLA only that site meets, so its
load is fixed by the demand; it may build solar, onshore wind and a battery (power and
energy sized separately) at the cost catalogue's defaults.

PyPSA is given its own network, built here from the numbers in geomodel's inputs
Dataset (the series, prices, carbon, capacity factors, annuities and limits, which is
what "the same series and costs" means), with one difference: the load. PyPSA's load is
computed here from the inputs by the power formula of docs/model.md (4): PUE x (installed
chips x idle kW + working chips x (active - idle) kW), where the working chips serve the
demand at its FLOP per token, the chips' peak and the service's efficiency. Extendable
generators carry ``capital_cost`` = (annuity + fixed O&M) x the horizon's share of a
year, the battery is a Store with a charger and a discharger Link (the discharger's
p_nom x efficiency tied to the charger's, as PyPSA-Eur does). Objectives must agree to
1e-6 relative (exit status 1 otherwise).

Prints one table: objective, what each built, seconds (network/model build and solve,
imports excluded) and the peak RSS of each process. The lead re-runs it on a quiet
machine; docs/planning.md records a run.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fresh_process import run_fresh  # noqa: E402

#: name, lat, lon, grid, system, systems, nearby city (lat, lon), demand Mtoken/s
SITES = (
    ("abilene", 32.52, -99.78, "grid_us_tx_ercot", "gb200_nvl72", 300, (32.45, -99.73), 60.0),
    ("council_bluffs", 41.26, -95.86, "grid_us_ia_miso", "hgx_h100_8", 2000, (41.26, -95.94), 30.0),
    ("frankfurt", 50.11, 8.68, "grid_de", "hgx_b200_8", 1500, (50.0, 8.27), 40.0),
)
#: hourly shape of demand (local solar time); the load follows it
DAY = [0.5, 0.4, 0.35, 0.3, 0.3, 0.35, 0.5, 0.7, 0.9, 1.1, 1.2, 1.3]
DAY += [1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.25, 1.2, 1.1, 1.0, 0.8, 0.6]
REL_TOLERANCE = 1e-6
SOURCES = ("solar_pv", "wind_onshore")


def scenario(n_sites: int, hours: int, carbon_price: float = 80.0) -> dict[str, Any]:
    """A planning scenario: each site serves its city and may build solar, wind and a battery."""
    sites, regions = {}, {}
    for name, lat, lon, grid, system, count, city, mtoken in SITES[:n_sites]:
        sites[name] = {
            "lat": lat,
            "lon": lon,
            "grid": grid,
            "power_envelope": "400 MW",
            "cooling": "liquid",
            "availability": 1.0,
            "systems": {system: count},
            "build": {
                "power_sources": {source: {"max": "300 MW"} for source in SOURCES},
                "battery": {"power": {"max": "200 MW"}, "energy": {"max": "800 MWh"}, "efficiency": 0.9},
            },
        }
        regions[f"{name}_city"] = {
            "lat": city[0],
            "lon": city[1],
            "demand": {"chat": {"daily_shape": DAY, "mean": f"{mtoken}e6 token/s"}},
        }
    return {
        "name": f"pypsa-crosscheck-{n_sites}x{hours}",
        "time": {"start": "2025-07-01T00:00:00+00:00", "hours": hours},
        "sites": sites,
        "regions": regions,
        "inference": {
            "chat": {"flop_per_token": 7.4e10, "sla": "6 ms", "efficiency": 0.3, "precision": "fp8"}
        },
        "objective": {"carbon_price": f"{carbon_price} USD/tCO2", "unserved_penalty": "1000 USD/Mtoken"},
        "solver": {"threads": 1, "method": "ipm"},
    }


def build_inputs_of(path: Path):
    from geomodel.catalog import build_catalog
    from geomodel.inputs.build import build_inputs
    from geomodel.scenario import load_scenario

    catalog = build_catalog()
    return build_inputs(load_scenario(path, catalog=catalog), catalog), catalog


def site_load_mw(inputs) -> Any:
    """(site, time) facility load by docs/model.md (4), from the inputs alone.

    Each region's demand is served at its own site on its one system: working chips =
    token/s demanded / token/s one chip serves (``service_tokens_per_s_per_chip``, the
    performance model's rate at the service's limits).
    """
    import numpy as np

    chips = inputs["chips_installed"].values  # (site, system)
    idle = inputs["idle_power_kw_per_chip"].values / 1000
    serving = inputs["serving_power_kw_per_chip"].values / 1000  # a serving chip's draw
    pue = inputs["pue"].values
    demand = inputs["demand_tokens_per_s"].values[0]  # (region, time), service 0
    per_chip = inputs["service_tokens_per_s_per_chip"].values[0]  # (system,)
    load = np.zeros((inputs.sizes["site"], inputs.sizes["time"]))
    for s in range(inputs.sizes["site"]):
        (h,) = np.flatnonzero(chips[s] > 0)
        working = demand[s] / per_chip[h]  # region s is next to site s
        load[s] = pue[s] * (chips[s, h] * idle[h] + working * (serving[h] - idle[h]))
    return load


def pypsa_network(inputs):
    """PyPSA's own network of the same sites, series, costs and (computed) load."""
    import numpy as np
    import pypsa

    pypsa.options.api.legacy_string_dtype = True  # today's behaviour, said explicitly
    sites = [str(s) for s in inputs["site"].values]
    sources = [str(k) for k in inputs["source"].values]
    weight_hours = inputs["weight"].values * inputs["dt_hours"].values
    years = float(weight_hours.sum()) / 8760.0
    carbon_price = float(inputs.attrs["carbon_price_usd_per_tco2"])
    multiplier = float(inputs.attrs.get("energy_price_multiplier", 1.0))
    network = pypsa.Network()
    network.set_snapshots(range(inputs.sizes["time"]))
    network.snapshot_weightings.loc[:, "objective"] = weight_hours
    network.snapshot_weightings.loc[:, "generators"] = weight_hours
    network.snapshot_weightings.loc[:, "stores"] = inputs["dt_hours"].values
    load = site_load_mw(inputs)
    for s, site in enumerate(sites):
        network.add("Bus", site)
        network.add("Load", f"{site} load", bus=site, p_set=load[s])
        price = inputs["grid_price_usd_per_mwh"].values[s] * multiplier
        carbon = inputs["grid_carbon_kg_per_mwh"].values[s] / 1000
        network.add(
            "Generator",
            f"{site} grid",
            bus=site,
            p_nom=float(inputs["grid_import_limit_mw"].values[s]),
            marginal_cost=price + carbon_price * carbon,
        )
        for k, source in enumerate(sources):
            most = float(inputs["build_max_source_mw"].values[s, k])
            if most <= 0:
                continue
            per_mw = (
                inputs["source_annuity_usd_per_mw_year"].values[s, k]
                + inputs["source_fixed_om_usd_per_mw_year"].values[s, k]
            )
            network.add(
                "Generator",
                f"{site} {source}",
                bus=site,
                p_nom_extendable=True,
                p_nom_max=most,
                capital_cost=float(per_mw) * years,
                p_max_pu=inputs["source_capacity_factor"].values[s, k],
                marginal_cost=inputs["source_price_usd_per_mwh"].values[s, k] * multiplier
                + carbon_price * inputs["source_carbon_kg_per_mwh"].values[s, k] / 1000,
            )
        one_way = float(np.sqrt(inputs["battery_efficiency"].values[s]))
        network.add("Bus", f"{site} battery")
        energy_cost = (
            inputs["battery_annuity_usd_per_mwh_year"].values[s]
            + inputs["battery_fixed_om_usd_per_mwh_year"].values[s]
        )
        network.add(
            "Store",
            f"{site} battery",
            bus=f"{site} battery",
            e_nom_extendable=True,
            e_nom_max=float(inputs["build_max_battery_mwh"].values[s]),
            e_cyclic=True,
            capital_cost=float(energy_cost) * years,
        )
        power_cost = (
            inputs["battery_annuity_usd_per_mw_year"].values[s]
            + inputs["battery_fixed_om_usd_per_mw_year"].values[s]
        )
        most_mw = float(inputs["build_max_battery_mw"].values[s])
        network.add(
            "Link",
            f"{site} charger",
            bus0=site,
            bus1=f"{site} battery",
            efficiency=one_way,
            p_nom_extendable=True,
            p_nom_max=most_mw,
            capital_cost=float(power_cost) * years,
        )
        network.add(
            "Link",
            f"{site} discharger",
            bus0=f"{site} battery",
            bus1=site,
            efficiency=one_way,
            p_nom_extendable=True,
            p_nom_max=most_mw / one_way,
        )
    return network


def tie_discharger_to_charger(network, snapshots) -> None:
    """The battery's one power rating: discharger p_nom x efficiency = charger p_nom (AC)."""
    p_nom = network.model["Link-p_nom"]
    dim = p_nom.dims[0]
    for site in network.buses.index[~network.buses.index.str.endswith(" battery")]:
        efficiency = float(network.links.loc[f"{site} discharger", "efficiency"])
        charger = p_nom.sel({dim: [f"{site} charger"]}).assign_coords({dim: [site]})
        discharger = p_nom.sel({dim: [f"{site} discharger"]}).assign_coords({dim: [site]})
        network.model.add_constraints(
            charger - efficiency * discharger == 0, name=f"{site} battery power"
        )


def geomodel_side(path: Path) -> dict[str, Any]:
    """Solve with geomodel; the objective, the build and the time of inputs, build and solve."""
    started = time.perf_counter()
    inputs, catalog = build_inputs_of(path)
    from geomodel.api import solve_inputs

    result = solve_inputs(inputs, host=catalog.host)
    seconds = time.perf_counter() - started
    assert result.ok, result.messages
    data = result.dataset
    load = site_load_mw(inputs)
    facility = data["facility_power_mw"].values
    return {
        "objective_usd": result.kpis["objective"],
        "build": {
            site: {
                **{
                    source: float(data["built_source_mw"].sel(site=site, source=source))
                    for source in SOURCES
                },
                "battery_mw": float(data["built_battery_mw"].sel(site=site)),
                "battery_mwh": float(data["built_battery_mwh"].sel(site=site)),
            }
            for site in [str(s) for s in inputs["site"].values]
        },
        "load_difference_mw": float(abs(facility - load).max()),
        "seconds": seconds,
        "unserved_fraction": result.kpis["unserved_fraction"],
    }


def pypsa_side(path: Path) -> dict[str, Any]:
    """Solve PyPSA's network with HiGHS; the objective, the build and the time."""
    import logging

    for name in ("pypsa", "linopy"):  # its notes on carriers and progress are not results
        logging.getLogger(name).setLevel(logging.ERROR)
    inputs, _ = build_inputs_of(path)  # not timed: the same inputs geomodel read
    started = time.perf_counter()
    network = pypsa_network(inputs)
    status, condition = network.optimize(
        solver_name="highs",
        extra_functionality=tie_discharger_to_charger,
        include_objective_constant=False,  # no fixed capacity carries a capital cost here
        solver_options={"threads": 1, "solver": "ipm", "run_crossover": "on", "output_flag": False},
    )
    seconds = time.perf_counter() - started
    assert status == "ok", (status, condition)
    generators = network.generators.p_nom_opt
    return {
        "objective_usd": float(network.objective + network.objective_constant),
        "build": {
            site: {
                **{source: float(generators.get(f"{site} {source}", 0.0)) for source in SOURCES},
                "battery_mw": float(network.links.p_nom_opt[f"{site} charger"]),
                "battery_mwh": float(network.stores.e_nom_opt[f"{site} battery"]),
            }
            for site in [str(s) for s in inputs["site"].values]
        },
        "seconds": seconds,
    }


def _child(tool: str, path: str) -> None:
    answer = (geomodel_side if tool == "geomodel" else pypsa_side)(Path(path))
    answer["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(answer))


def crosscheck(n_sites: int, hours: int, fresh: bool = True) -> dict[str, Any]:
    """Both sides on one scenario; ``fresh``: each in its own process (for its peak memory)."""
    import yaml

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "crosscheck.yaml"
        path.write_text(yaml.safe_dump(scenario(n_sites, hours), sort_keys=False))
        if fresh:
            sides = {tool: run_fresh(__file__, tool, str(path)) for tool in ("geomodel", "pypsa")}
        else:
            sides = {"geomodel": geomodel_side(path), "pypsa": pypsa_side(path)}
    return compared(n_sites, hours, sides)


def compared(n_sites: int, hours: int, sides: dict[str, Any]) -> dict[str, Any]:
    """The report of one cross-check: both sides and their objectives' relative difference."""
    ours, theirs = sides["geomodel"]["objective_usd"], sides["pypsa"]["objective_usd"]
    return {
        "sites": n_sites,
        "hours": hours,
        **sides,
        "relative_difference": abs(ours - theirs) / abs(theirs),
    }


def print_table(report: dict[str, Any]) -> None:
    difference = report["relative_difference"]
    print(f"{report['sites']} sites x {report['hours']} h; objectives differ by {difference:.2e}")
    header = f"{'tool':10} {'objective USD':>16} {'solar MW':>10} {'wind MW':>10} {'battery MW':>11}"
    header += f" {'battery MWh':>12} {'seconds':>8} {'peak MB':>8}"
    print(header)
    for tool in ("geomodel", "pypsa"):
        side = report[tool]
        built = side["build"].values()
        total = {key: sum(b[key] for b in built) for key in (*SOURCES, "battery_mw", "battery_mwh")}
        print(
            f"{tool:10} {side['objective_usd']:16,.2f} {total['solar_pv']:10.2f}"
            f" {total['wind_onshore']:10.2f} {total['battery_mw']:11.2f} {total['battery_mwh']:12.2f}"
            f" {side['seconds']:8.2f} {side.get('peak_rss_mb', float('nan')):8.0f}"
        )


def main(argv: list[str]) -> int:
    if argv and argv[0] == "_child":
        _child(*argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=3, choices=range(1, len(SITES) + 1))
    parser.add_argument("--hours", type=int, default=168)
    parser.add_argument("--json", type=Path, help="also write the report as JSON")
    args = parser.parse_args(argv)
    report = crosscheck(args.sites, args.hours)
    print_table(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0 if report["relative_difference"] <= REL_TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
