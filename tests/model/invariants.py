"""Checks every solved results Dataset must pass, whatever the scenario (docs/model.md).

Used by the property tests on random small scenarios and by the regression test
on the example scenarios.
"""

from __future__ import annotations

import numpy as np

TOL = 1e-6


def built(ds, name: str, like):
    """A build decision of a planning result, zeros (shaped ``like``) otherwise."""
    return ds[name] if name in ds else 0.0 * like


def check_invariants(result) -> None:
    """Balance, envelope, chips, sources, SLA, demand and work, at every site and step;
    in planning mode against installed plus built capacity (docs/model.md, "Planning")."""
    ds, inputs = result.dataset, result.inputs
    supply = ds["grid_import_mw"] + ds["generation_mw"].sum("source") + ds["extension_supply_mw"]
    if "storage_discharge_mw" in ds:  # built batteries
        supply = supply + ds["storage_discharge_mw"] - ds["storage_charge_mw"]
    # (5) balance: grid + generation + extension = facility power
    np.testing.assert_allclose(supply.values, ds["facility_power_mw"].values, rtol=0, atol=TOL)
    # (4) facility = PUE x IT + half the power of each link ending at the site; envelope
    dci = np.zeros(inputs.sizes["site"])
    sites = [str(s) for s in inputs["site"].values]
    for a, b, mw in zip(
        inputs["link_site_a"].values,
        inputs["link_site_b"].values,
        inputs["link_power_mw"].values,
        strict=True,
    ):
        dci[sites.index(str(a))] += mw / 2
        dci[sites.index(str(b))] += mw / 2
    if "built_fibre_pairs" in ds:
        pair_mw = ds["built_fibre_pairs"].values * inputs["link_power_mw_per_pair"].values
        for a, b, mw in zip(
            inputs["link_site_a"].values, inputs["link_site_b"].values, pair_mw, strict=True
        ):
            dci[sites.index(str(a))] += mw / 2
            dci[sites.index(str(b))] += mw / 2
    expected = inputs["pue"].values * ds["it_power_mw"].values + dci[:, None]  # (site, time)
    np.testing.assert_allclose(ds["facility_power_mw"].values, expected, rtol=1e-9, atol=TOL)
    envelope = inputs["power_envelope_mw"] + built(ds, "built_envelope_mw", inputs["power_envelope_mw"])
    assert (ds["facility_power_mw"] <= envelope + TOL).all()
    # (3) chips working <= installed x availability, per site, system and step
    working = ds["training_chips"].sum("job") + ds["inference_chips"].sum("service")
    chips = inputs["chips_installed"] + built(ds, "built_chips", inputs["chips_installed"])
    usable = chips * inputs["availability"]
    assert (working <= usable + TOL).all(), float((working - usable).max())
    assert (working >= -TOL).all()
    # (5) sources within capacity x profile; grid within its import limit
    if inputs.sizes.get("source", 0):
        capacity = inputs["source_capacity_mw"] + built(
            ds, "built_source_mw", inputs["source_capacity_mw"]
        )
        available = capacity * inputs["source_capacity_factor"]
        assert (ds["generation_mw"] <= available + TOL).all()
        assert (ds["generation_mw"] >= -TOL).all()
    assert (ds["grid_import_mw"] <= inputs["grid_import_limit_mw"] + TOL).all()
    assert (ds["grid_import_mw"] >= -TOL).all()
    # (2) no served demand at a site beyond the SLA; demand = served + unserved
    if inputs.sizes.get("service", 0) and inputs.sizes.get("region", 0):
        beyond = inputs["latency_ms"] > inputs["sla_ms"]  # (region, site) x service
        served = ds["served_tokens_per_s"]
        assert float(abs(served.where(beyond, 0.0)).max()) <= TOL
        total = served.sum("site") + ds["unserved_tokens_per_s"]
        np.testing.assert_allclose(
            total.values, inputs["demand_tokens_per_s"].values, rtol=1e-7, atol=1e-3
        )  # token/s
    # (1) every job's work is done
    if inputs.sizes.get("job", 0):
        done = ds["job_work_eflop"].sum("time").values
        assert (done >= inputs["work_eflop"].values * (1 - 1e-7)).all()
