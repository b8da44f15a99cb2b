"""What a pathway decided: the build timeline, the fleet by generation per period and the
per-period costs, as one Dataset beside each period's ordinary results (docs/planning.md,
"Pathways")."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from geomodel.inputs.dataset import variable
from geomodel.model.pathway import Vintage
from geomodel.results.result import (
    INPUTS_GROUP,
    Result,
    _netcdf_safe,
    _write_netcdf,
    attach_kpis,
)

#: build variable -> (asset, unit of its amount)
ASSETS = {
    "build_systems": ("systems", "systems"),
    "build_envelope_mw": ("facility power", "MW"),
    "build_source_mw": ("power source", "MW"),
    "build_battery_mw": ("battery power", "MW"),
    "build_battery_mwh": ("battery energy", "MWh"),
    "build_fibre_pairs": ("fibre pairs", "pairs"),
    "open_site": ("site opened", "1"),
}
#: KPIs of each period carried into the summary: name -> (units, description)
PERIOD_KPIS = {
    "energy_mwh": ("MWh/year", "facility energy a year"),
    "emissions_tco2": ("tCO2e/year", "emissions a year"),
    "unserved_fraction": ("1", "share of inference demand not served"),
    "chip_utilisation": ("1", "working chip-hours over installed and built chip-hours"),
}
#: rows smaller than this are solver noise, not a build
SMALLEST_BUILD = 1e-6
PERIOD_GROUP = "period_{year}"


@dataclass
class PathwayResult:
    """A solved pathway: the summary Dataset, each period's Result, the KPIs."""

    inputs: xr.Dataset  #: the period table (root of the inputs tree)
    dataset: xr.Dataset  #: timeline, fleet and per-period costs
    periods: list[Result] = field(default_factory=list)
    kpis: dict[str, Any] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)

    @property
    def has_solution(self) -> bool:
        return "net_present_cost_usd" in self.kpis

    @property
    def status(self) -> str:
        return str(self.kpis.get("solver_status", "infeasible"))

    def timeline(self) -> pd.DataFrame:
        """One row per build: what, where, how much, decided, online, retired."""
        return timeline_frame(self.dataset)

    def to_netcdf(self, path: str | Path) -> Path:
        """Summary at the root (inputs: the period table), each period's results and
        inputs in groups ``period_<year>`` and ``period_<year>/inputs``."""
        if "kpi_units" not in self.dataset.attrs:  # what marks a result file (a failed pathway too)
            attach_kpis(self.dataset, self.kpis, self.messages)
        path = _write_netcdf(path, self.dataset, inputs=self.inputs)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(handle)
        tmp = Path(name)
        try:
            tmp.write_bytes(path.read_bytes())
            years = self.dataset["period"].values if self.periods else []
            for year, result in zip(years, self.periods, strict=True):
                group = PERIOD_GROUP.format(year=int(year))
                _netcdf_safe(result.dataset).to_netcdf(tmp, engine="h5netcdf", mode="a", group=group)
                _netcdf_safe(result.inputs).to_netcdf(
                    tmp, engine="h5netcdf", mode="a", group=f"{group}/{INPUTS_GROUP}"
                )
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)
        return path


def _where(inputs: xr.Dataset, name: str, index) -> tuple[str, str]:
    """(what, where) of a build variable's index."""
    sites = [str(s) for s in inputs["site"].values]
    if name == "build_systems":
        return str(inputs["system"].values[index[1]]), sites[index[0]]
    if name == "build_source_mw":
        return str(inputs["source"].values[index[1]]), sites[index[0]]
    if name == "build_fibre_pairs":
        return "fibre", str(inputs["link"].values[index])
    return ASSETS[name][0], sites[index]


def summary_dataset(
    root: xr.Dataset,
    periods: list[xr.Dataset],
    built: dict[Vintage, float],
    results: list[Result],
    net_present_cost_usd: float,
) -> xr.Dataset:
    """Timeline (dimension ``build``), fleet (period, site, system) and per-period costs."""
    years = [int(y) for y in root["period"].values]
    rows = [(v, x) for v, x in built.items() if x > SMALLEST_BUILD]
    rows.sort(key=lambda r: (r[0].decided, r[0].online, r[0].name, str(r[0].index)))
    first = periods[0]
    columns: dict[str, list] = {k: [] for k in ("asset", "what", "where", "units")}
    numbers: dict[str, list] = {k: [] for k in ("amount", "decided", "online", "retires", "cost")}
    capex: list[float] = []
    for v, x in rows:
        what, where = _where(first, v.name, v.index)
        asset, units = ASSETS[v.name]
        columns["asset"].append(asset)
        columns["what"].append(what)
        columns["where"].append(where)
        columns["units"].append(units)
        numbers["amount"].append(x)
        numbers["decided"].append(years[v.decided])
        numbers["online"].append(years[v.online])
        numbers["retires"].append(v.retires_year)
        numbers["cost"].append(x * v.usd_per_unit_year)
        capex.append(x * _capex(periods[v.online], v))
    data = {
        "build_asset": variable(
            "build", np.array(columns["asset"], dtype=str), "1", "what kind of asset"
        ),
        "build_what": variable(
            "build", np.array(columns["what"], dtype=str), "1", "system, source or asset built"
        ),
        "build_where": variable("build", np.array(columns["where"], dtype=str), "1", "site or link"),
        "build_units": variable(
            "build", np.array(columns["units"], dtype=str), "1", "unit of the amount"
        ),
        "build_amount": variable("build", numbers["amount"], "1", "amount built, in build_units"),
        "build_decided_year": variable(
            "build",
            numbers["decided"],
            "year",
            "last period it may be decided in (its lead time earlier)",
        ),
        "build_online_year": variable("build", numbers["online"], "year", "period it comes online in"),
        "build_retires_year": variable(
            "build", numbers["retires"], "year", "first year it is no longer there (online + lifetime)"
        ),
        "build_capex_usd": variable(
            "build", capex, "USD", "overnight capex at the online period's price"
        ),
        "build_cost_usd_per_year": variable(
            "build", numbers["cost"], "USD/year", "annuity and fixed O&M a year while it lives"
        ),
    }
    data.update(_fleet(periods, results))
    weight = root["objective_weight"].values
    yearly = np.array([r.kpis.get("period_cost_usd_per_year", np.nan) for r in results])
    data["period_cost_usd_per_year"] = variable(
        "period", yearly, "USD/year", "operational cost a year plus annuities of the assets alive"
    )
    data["period_present_cost_usd"] = variable(
        "period", weight * yearly, "USD", "the period's share of the net present cost"
    )
    for name, (units, description) in PERIOD_KPIS.items():
        per_year = [_per_year(r, name) for r in results]
        data[f"period_{name}"] = variable("period", per_year, units, description)
    coords = {"period": years, "site": first["site"].values, "system": first["system"].values}
    out = xr.Dataset(data, coords=coords)
    out.attrs.update(
        pathway=1,
        foresight=root.attrs.get("foresight", "perfect"),
        net_present_cost_usd=net_present_cost_usd,
        scenario_name=root.attrs.get("scenario_name", ""),
    )
    return out


def _per_year(result: Result, name: str) -> float:
    """A period KPI a year (horizon totals scaled by the share of a year they stand for)."""
    value = result.kpis.get(name, np.nan)
    if name in ("energy_mwh", "emissions_tco2"):
        inputs = result.inputs
        years = float(np.sum(inputs["weight"].values * inputs["dt_hours"].values)) / 8760.0
        return float(value) / years
    return float(value)


def _capex(inputs: xr.Dataset, v: Vintage) -> float:
    names = {
        "build_systems": "system_capex_usd",
        "build_envelope_mw": "envelope_capex_usd_per_mw",
        "build_source_mw": "source_capex_usd_per_mw",
        "build_battery_mw": "battery_capex_usd_per_mw",
        "build_battery_mwh": "battery_capex_usd_per_mwh",
        "build_fibre_pairs": "link_pair_capex_usd",
        "open_site": "site_open_capex_usd",
    }
    return float(inputs[names[v.name]].values[v.index])


def _fleet(periods: list[xr.Dataset], results: list[Result]) -> dict[str, xr.Variable]:
    """Chips online per period, site and system (installed not retired plus built)."""
    chips = []
    for inputs, result in zip(periods, results, strict=True):
        online = inputs["chips_installed"].values.copy()
        if "built_chips" in result.dataset:
            online = online + result.dataset["built_chips"].values
        chips.append(online)
    envelope = [
        r.inputs["power_envelope_mw"].values
        + (r.dataset["built_envelope_mw"].values if "built_envelope_mw" in r.dataset else 0.0)
        for r in results
    ]
    return {
        "fleet_chips": variable(
            ("period", "site", "system"), np.array(chips), "chips", "chips online (installed + built)"
        ),
        "fleet_envelope_mw": variable(
            ("period", "site"), np.array(envelope), "MW", "facility power online (installed + built)"
        ),
    }


def timeline_frame(dataset: xr.Dataset) -> pd.DataFrame:
    """The build timeline as a table, in decision order."""
    if dataset.sizes.get("build", 0) == 0:
        return pd.DataFrame(
            columns=["decided", "online", "retires", "asset", "what", "where", "amount", "units"]
        )
    return pd.DataFrame(
        {
            "decided": dataset["build_decided_year"].values.astype(int),
            "online": dataset["build_online_year"].values.astype(int),
            "retires": dataset["build_retires_year"].values,
            "asset": dataset["build_asset"].values,
            "what": dataset["build_what"].values,
            "where": dataset["build_where"].values,
            "amount": dataset["build_amount"].values,
            "units": dataset["build_units"].values,
            "capex_usd": dataset["build_capex_usd"].values,
            "cost_usd_per_year": dataset["build_cost_usd_per_year"].values,
        }
    )


def period_table(dataset: xr.Dataset) -> pd.DataFrame:
    """Per-period costs and KPIs, and the chips online by system."""
    frame = pd.DataFrame({"period": dataset["period"].values.astype(int)})
    for name in (
        "period_cost_usd_per_year",
        "period_present_cost_usd",
        *(f"period_{k}" for k in PERIOD_KPIS),
    ):
        frame[name.removeprefix("period_")] = dataset[name].values
    fleet = dataset["fleet_chips"].sum("site")
    for system in dataset["system"].values:
        frame[f"chips_{system}"] = fleet.sel(system=system).values
    return frame


def pathway_json(dataset: xr.Dataset) -> dict[str, Any]:
    """The timeline and the period table, JSON-ready."""
    return {
        "timeline": json.loads(timeline_frame(dataset).to_json(orient="records")),
        "periods": json.loads(period_table(dataset).to_json(orient="records")),
        "net_present_cost_usd": float(dataset.attrs.get("net_present_cost_usd", np.nan)),
        "foresight": dataset.attrs.get("foresight", ""),
    }


def open_period(path: str | Path, year: int) -> tuple[xr.Dataset, xr.Dataset]:
    """One period's results and inputs from a pathway file :meth:`PathwayResult.to_netcdf` wrote."""
    group = PERIOD_GROUP.format(year=int(year))
    results = xr.load_dataset(path, engine="h5netcdf", group=group)
    inputs = xr.load_dataset(path, engine="h5netcdf", group=f"{group}/{INPUTS_GROUP}")
    return results, inputs
