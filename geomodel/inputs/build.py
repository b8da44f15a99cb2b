"""Build the inputs Dataset the model reads: one scenario resolved against the catalogue.

Every variable carries ``units`` and ``description``; the Dataset's attributes
hold the scenario hash, the objective weights, the solver options and the
versions used. The model never sees YAML or plugins, only this Dataset.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.catalog import Catalog, build_catalog
from geomodel.inputs.data_movement import transfer_costs
from geomodel.inputs.dataset import variable
from geomodel.inputs.fleet_costs import installed_capital_variables
from geomodel.inputs.jobs import first_steps, job_variables, plan_jobs, transfer_variables
from geomodel.inputs.planning import (
    build_plan,
    planning_attributes,
    planning_variables,
    with_planned_links,
    with_planned_sources,
    with_planned_systems,
)
from geomodel.inputs.power import site_power
from geomodel.inputs.provenance import signal_attributes
from geomodel.inputs.pue import site_pue
from geomodel.inputs.serving import service_variables
from geomodel.inputs.timesteps import TimeSteps, plain_steps, typical_days
from geomodel.inputs.water import site_wue, water_caps_m3
from geomodel.inputs.weather import site_weather_notes
from geomodel.scenario.extension_checks import settings_for_inputs
from geomodel.scenario.network import region_site_latency_ms, scenario_links
from geomodel.scenario.schema import Scenario
from geomodel.scenario.serving_rates import service_rates


def build_inputs(scenario: Scenario, catalog: Catalog | None = None) -> xr.Dataset:
    """The inputs Dataset of a loaded scenario."""
    catalog = catalog if catalog is not None else build_catalog()
    hours = scenario.time.hourly_index()
    plan = build_plan(scenario, catalog)  # None unless the scenario may build something
    sites = list(scenario.sites)
    systems = with_planned_systems(
        sorted({s for site in scenario.sites.values() for s in site.systems}), plan
    )
    regions = list(scenario.regions)
    services = list(scenario.inference)
    links = with_planned_links(scenario_links(scenario, catalog), plan)
    power = site_power(with_planned_sources(scenario, plan), catalog, hours)
    pue = site_pue(scenario, hours, catalog)
    wue = site_wue(scenario, hours, catalog, pue)
    planned = plan_jobs(scenario, catalog, systems, links, hours)
    steps = _time_steps(scenario, power, pue, wue, services, regions, planned.windows, hours)
    series = steps.series

    data: dict[str, xr.Variable] = {}
    data.update(
        dt_hours=variable("time", steps.dt_hours, "h", "duration of each time step"),
        weight=variable(
            "time", steps.weight, "1", "how many times each step counts (days of its typical day)"
        ),
    )
    data.update(_sites(scenario, systems, catalog))
    data.update(
        pue=variable(
            ("site", "time"),
            series["pue"],
            "1",
            "power usage effectiveness (facility / IT power) at each step",
        ),
        wue_l_per_kwh=variable(
            ("site", "time"),
            series["wue"],
            "L/kWh",
            "water used per kWh of IT energy at each step (cooling kind and weather)",
        ),
        water_cap_m3=variable(
            "site",
            water_caps_m3(scenario, hours),
            "m3",
            "most water the site may use over the horizon (NaN: no cap)",
        ),
        water_price_usd_per_m3=variable(
            "site",
            [s.water_price or 0.0 for s in scenario.sites.values()],
            "USD/m3",
            "price of water at the site, in the objective",
        ),
        grid_price_usd_per_mwh=variable(
            ("site", "time"), series["grid_price"], "USD/MWh", "grid energy price at the site"
        ),
        grid_carbon_kg_per_mwh=variable(
            ("site", "time"), series["grid_carbon"], "kgCO2e/MWh", "grid carbon intensity at the site"
        ),
        grid_import_limit_mw=variable(
            "site", power.grid_import_limit_mw, "MW", "most the grid connection delivers (0: off-grid)"
        ),
        source_capacity_mw=variable(
            ("site", "source"),
            power.capacity_mw,
            "MW",
            "installed or contracted capacity of each source at each site",
        ),
        source_capacity_factor=variable(
            ("site", "source", "time"),
            series["capacity_factor"],
            "1",
            "available fraction of source capacity",
        ),
        source_price_usd_per_mwh=variable(
            ("site", "source", "time"), series["source_price"], "USD/MWh", "energy price of each source"
        ),
        source_carbon_kg_per_mwh=variable(
            ("site", "source", "time"),
            series["source_carbon"],
            "kgCO2e/MWh",
            "carbon intensity of each source",
        ),
        demand_tokens_per_s=variable(
            ("service", "region", "time"), series["demand"], "token/s", "inference demand of each region"
        ),
    )
    data.update(_systems(systems, catalog))
    data["latency_ms"] = variable(
        ("region", "site"),
        region_site_latency_ms(scenario, catalog),
        "ms",
        "round-trip network latency from region to site",
    )
    data.update(service_variables(scenario, service_rates(scenario, catalog, systems), systems))
    transfer = transfer_costs(scenario, _site_carbon(power))
    first = first_steps(planned, transfer, float(scenario.time.resolution), len(sites))
    jobs, classes = job_variables(
        planned,
        steps.job_weight,
        steps.dt_hours,
        first,
        scenario.solver.merge_jobs,
        scenario.solver.integer.model_dump(),
        scenario.solver.participation,
    )
    data.update(jobs)
    data.update(transfer_variables(transfer))
    data.update(_links(links))
    data.update(
        planning_variables(plan, scenario, systems, power.sources, links, power.grid_import_limit_mw)
    )
    data.update(installed_capital_variables(scenario, catalog, systems))
    coords = {
        "time": (
            "time",
            steps.start.tz_convert("UTC").tz_localize(None).as_unit("ns"),
            {"description": "start of each time step (UTC); for typical days, of its first member day"},
        ),
        "site": ("site", _names(sites)),
        "system": ("system", _names(systems)),
        "region": ("region", _names(regions)),
        "service": ("service", _names(services)),
        "job": ("job", _names(classes.names)),
        "job_member": ("job_member", _names(planned.columns.name)),
        "to_site": ("to_site", _names(sites)),
        "source": ("source", _names(power.sources)),
        "link": ("link", _names(link.name for link in links)),
        "source_kind": ("source", _names(power.source_kind)),
        "site_lat": ("site", _degrees(s.lat for s in scenario.sites.values()), _DEGREES_NORTH),
        "site_lon": ("site", _degrees(s.lon for s in scenario.sites.values()), _DEGREES_EAST),
        "jurisdiction": ("site", _names(s.jurisdiction for s in scenario.sites.values())),
        "region_lat": ("region", _degrees(r.lat for r in scenario.regions.values()), _DEGREES_NORTH),
        "region_lon": ("region", _degrees(r.lon for r in scenario.regions.values()), _DEGREES_EAST),
        "link_site_a": ("link", _names(link.site_a for link in links)),
        "link_site_b": ("link", _names(link.site_b for link in links)),
        "link_technology": ("link", _names(link.technology.name for link in links)),
    }
    if steps.typical_day_of is not None:
        data["typical_day_of"] = variable(
            "calendar_day", steps.typical_day_of, "1", "typical day (0-based) each calendar day maps to"
        )
        coords["calendar_day"] = (
            "calendar_day",
            steps.calendar_days.tz_convert("UTC").tz_localize(None).as_unit("ns"),
            {"description": "start of each day of the horizon (UTC)"},
        )
        data["step_of_hour"] = variable(
            "hour", steps.step_of_hour, "1", "model step (0-based) each hour of the horizon maps to"
        )
        coords["hour"] = (
            "hour",
            hours[: len(steps.step_of_hour)].tz_convert("UTC").tz_localize(None).as_unit("ns"),
            {"description": "every hour of the horizon (UTC)"},
        )
    dataset = xr.Dataset(data, coords=coords)
    dataset.attrs.update(_attributes(scenario, catalog, hours))
    dataset.attrs.update(planning_attributes(plan, scenario, steps.weight * steps.dt_hours))
    dataset.attrs.update(signal_attributes(scenario, power.grid_basis))
    dataset.attrs["site_weather_json"] = json.dumps(site_weather_notes(scenario, catalog))
    aggregated = steps.typical_day_of is not None
    # as built: a 4-day horizon asked for 9 typical days has 4
    dataset.attrs["typical_days"] = int(steps.typical_day_of.max()) + 1 if aggregated else 0
    dataset.attrs["segments_per_day"] = (scenario.time.aggregation.segments or 24) if aggregated else 0
    return dataset


def _time_steps(scenario, power, pue, wue, services, regions, window, hours) -> TimeSteps:
    """Hourly series on model steps: plain steps, or typical days when asked for.

    ``window`` is (window, hour): the distinct job windows; the steps' ``job_weight``
    comes back per window.
    """
    demand = np.zeros((len(services), len(regions), len(hours)))
    for (region, service), series in scenario.origin.demand_series.items():
        if service in services:
            demand[services.index(service), regions.index(region)] = series.to_numpy()
    hourly = {
        "grid_price": power.grid_price_usd_per_mwh,
        "grid_carbon": power.grid_carbon_kg_per_mwh,
        "capacity_factor": power.capacity_factor,
        "source_price": power.price_usd_per_mwh,
        "source_carbon": power.carbon_kg_per_mwh,
        "pue": pue,
        "wue": wue,
        "demand": demand,
    }
    aggregation = scenario.time.aggregation
    if aggregation is not None:
        return typical_days(
            hourly,
            hours,
            aggregation.typical_days,
            window,
            bounded=frozenset({"capacity_factor"}),
            n_segments=aggregation.segments,
        )
    return plain_steps(hourly, hours, int(scenario.time.resolution), window)


def _site_carbon(power) -> np.ndarray:
    """Each site's mean carbon intensity over the horizon, kg/MWh: its grid's, or for a site
    without a grid the mean of its sources weighted by what they can give (NaN: none)."""
    grid = power.grid_carbon_kg_per_mwh.mean(axis=1)
    available = power.capacity_mw[:, :, None] * power.capacity_factor  # (site, source, hour)
    total = available.sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        sources = (available * power.carbon_kg_per_mwh).sum(axis=(1, 2)) / total
    return np.where(power.grid_import_limit_mw > 0, grid, np.where(total > 0, sources, np.nan))


_DEGREES_NORTH = {"units": "degrees_north", "description": "latitude (WGS84)"}
_DEGREES_EAST = {"units": "degrees_east", "description": "longitude (WGS84)"}


def _names(values: Iterable[str]) -> np.ndarray:
    """Labels as a string array, also when there are none (NetCDF needs the type)."""
    return np.array(list(values), dtype=str)


def _degrees(values: Iterable[float]) -> np.ndarray:
    return np.array(list(values), dtype=float)


def _sites(scenario: Scenario, systems: list[str], catalog: Catalog) -> dict[str, xr.Variable]:
    site_list = list(scenario.sites.values())
    chips = np.array(
        [
            [site.systems.get(s, 0) * catalog.hardware_system(s).chips_per_system for s in systems]
            for site in site_list
        ],
        dtype=float,
    )
    return {
        "power_envelope_mw": variable(
            "site", [s.power_envelope for s in site_list], "MW", "facility power limit"
        ),
        "availability": variable(
            "site",
            [s.utilisation for s in site_list],
            "1",
            "achievable utilisation (sites.<site>.utilisation): share of installed chips work can use",
        ),
        "envelope_at_load": variable(
            "site",
            [int(s.envelope_basis == "at_load") for s in site_list],
            "1",
            "1 where the envelope counts working chips at their training or serving power, "
            "0 where at nameplate",
        ),
        "chips_installed": variable(
            ("site", "system"), chips, "chips", "installed chips of each system at each site"
        ),
    }


def _systems(systems: list[str], catalog: Catalog) -> dict[str, xr.Variable]:
    specs = [catalog.hardware_system(s) for s in systems]
    return {
        "chips_per_system": variable(
            "system", [h.chips_per_system for h in specs], "chips", "chips in one system"
        ),
        "scale_up_domain_chips": variable(
            "system", [h.scale_up_domain_chips for h in specs], "chips", "chips on one scale-up bus"
        ),
        "active_power_kw_per_chip": variable(
            "system",
            [h.active_power_kw_per_chip for h in specs],
            "kW",
            "nameplate power of a working chip, all-in (the envelope's, where a site counts it)",
        ),
        "training_power_kw_per_chip": variable(
            "system",
            [h.training_kw_per_chip for h in specs],
            "kW",
            "typical power of a chip at training load, all-in",
        ),
        "serving_power_kw_per_chip": variable(
            "system",
            [h.serving_kw_per_chip for h in specs],
            "kW",
            "typical power of a chip at serving load, all-in",
        ),
        "idle_power_kw_per_chip": variable(
            "system", [h.idle_power_kw_per_chip for h in specs], "kW", "power of an idle chip, all-in"
        ),
        "mtbf_hours_per_chip": variable(
            "system",
            [h.mtbf_hours_per_chip for h in specs],
            "h",
            "mean time between job-interrupting faults per chip",
        ),
    }


def _links(links) -> dict[str, xr.Variable]:
    return {
        "link_length_km": variable("link", [link.length_km for link in links], "km", "route length"),
        "link_latency_ms": variable(
            "link", [link.latency_ms for link in links], "ms", "one-way propagation latency"
        ),
        "link_capacity_gbit_s": variable(
            "link", [link.capacity_gbit_s for link in links], "Gb/s", "capacity of all fibre pairs"
        ),
        "link_power_mw": variable(
            "link",
            [link.power_mw_at_capacity for link in links],
            "MW",
            "power of the link lit at full capacity",
        ),
    }


def _attributes(scenario: Scenario, catalog: Catalog, hours: pd.DatetimeIndex) -> dict:
    from geomodel import __version__

    origin = scenario.origin
    objective = scenario.objective
    return {
        "scenario_name": scenario.name,
        "scenario_hash": origin.scenario_hash if origin else "",
        "scenario_json": scenario.model_dump_json(exclude={"variants"}),
        "variants": ",".join(origin.variants) if origin else "",
        "timezone": str(hours.tz),
        "energy_price_multiplier": objective.energy_price_multiplier,
        "carbon_price_usd_per_tco2": objective.carbon_price,
        "latency_weight_usd_per_ms_per_mtoken": objective.latency_weight,
        "unserved_penalty_usd_per_mtoken": objective.unserved_penalty,
        "solver_options": scenario.solver.model_dump_json(),
        "shed_idle_power": int(scenario.solver.shed_idle_power),
        "extensions_json": json.dumps(
            settings_for_inputs(scenario, catalog), sort_keys=True, default=str
        ),
        "geomodel_version": __version__,
        "plugin_versions": json.dumps(catalog.versions(), sort_keys=True),
    }
