"""The Shadow prices tab: what one more MW of each site's envelope is worth (the duals of
its envelope rows, captured at solve time), and what one more ms of each service's SLA is
worth (a finite difference: the same file re-solved at SLA + 1 ms)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from geomodel.ui import loaders
from geomodel.ui.components.derived_runs import derived_run, recipe_of
from geomodel.ui.components.tables import show_table
from geomodel.ui.format import format_number, human

ENVELOPE_TABLE = {
    "site": ("Site", None),
    "envelope_mw": ("Envelope after building (MW)", 1),
    "peak_mw": ("Peak facility power (MW)", 1),
    "binding_h": ("Hours at the envelope", 0),
    "usd_per_mw": ("One more MW is worth (USD over the horizon)", 0),
    "usd_per_mw_year": ("... a year (USD/MW-year)", 0),
}
SLA_TABLE = {
    "service": ("Service", None),
    "sla_ms": ("SLA (ms)", 1),
    "objective_usd": ("Objective (USD)", 0),
    "objective_plus_usd": ("At SLA + 1 ms (USD)", 0),
    "usd_per_ms": ("One more ms is worth (USD over the horizon)", 0),
    "unserved_pct": ("Unserved (%)", 2),
    "unserved_plus_pct": ("At SLA + 1 ms (%)", 2),
}
#: the SLA is re-solved this many ms looser
SLA_STEP_MS = 1.0


def envelope_table(results, inputs) -> pd.DataFrame:
    """Per site: envelope after building, peak facility power, the hours its envelope
    binds (the steps with a positive dual, weighted), and the shadow price over the horizon
    and a year."""
    envelope = inputs["power_envelope_mw"]
    if "built_envelope_mw" in results:
        envelope = envelope + results["built_envelope_mw"]
    hours = inputs["weight"] * inputs["dt_hours"]
    years = float(hours.sum()) / 8760.0
    price = results["envelope_shadow_price_usd_per_mw"]
    binding = ((results["envelope_dual_usd_per_mw"] > 1e-6) * hours).sum("time")
    return pd.DataFrame(
        {
            "site": [human(s) for s in results["site"].values],
            "envelope_mw": envelope.values,
            "peak_mw": results["facility_power_mw"].max("time").values,
            "binding_h": binding.values,
            "usd_per_mw": price.values,
            "usd_per_mw_year": price.values / years if years > 0 else price.values,
        }
    )


def show_shadow_prices(folder: str, record: dict) -> None:
    result = loaders.result(folder, record["hash"])
    data, inputs = result.dataset, result.inputs
    st.markdown("**What one more MW of a site's power envelope is worth**")
    if "envelope_shadow_price_usd_per_mw" in data:
        show_table(
            envelope_table(data, inputs),
            ENVELOPE_TABLE,
            f"envelope-prices-{record['hash'][:8]}",
            rows=None,
        )
        st.caption(
            "Minus the sum of the duals of the site's envelope rows (facility power <= envelope in "
            "every step; in a plan also grid import <= envelope where the grid follows it), "
            f"from {data.attrs.get('shadow_price_basis', 'the LP')}: what the objective falls by "
            "for one more MW installed, for small changes. 0 where the envelope never binds. "
            "A year: over the share of a year the horizon stands for."
        )
    else:
        st.caption("This result has no duals (solved before shadow prices were kept): run it again.")
    st.markdown(f"**What {SLA_STEP_MS:g} more ms of a service's SLA is worth**")
    if not inputs.sizes.get("service"):
        st.caption("The scenario has no inference services.")
        return
    recipe = recipe_of(record)
    if recipe is None:
        st.caption("Open this upload on the Scenario page to re-solve it at a looser SLA.")
        return
    rows = []
    for service in inputs["service"].values:
        sla = float(inputs["sla_ms"].sel(service=service))
        sla_path = f"inference.{service}.sla"
        looser = recipe.with_overrides({**recipe.overrides, sla_path: sla + SLA_STEP_MS})
        found = derived_run(
            folder, looser, f"Re-solve at the SLA of {human(service)} + {SLA_STEP_MS:g} ms", str(service)
        )
        if found is not None:
            rows.append(_sla_row(str(service), sla, record.get("kpis", {}), found.get("kpis", {})))
    if rows:
        show_table(pd.DataFrame(rows), SLA_TABLE, f"sla-prices-{record['hash'][:8]}", rows=None)
        st.caption(
            f"A finite difference: the objective of this run less that of the same file solved "
            f"with the service's SLA {SLA_STEP_MS:g} ms looser (every other service as it is). "
            "The SLA decides which sites may serve a region, so the worth is 0 until one more "
            f"site comes within reach and can jump there. {format_number(SLA_STEP_MS)} ms looser "
            "also lets the plan serve demand it left unserved."
        )


def _sla_row(service: str, sla: float, this: dict, looser: dict) -> dict:
    before = float(this.get("objective", float("nan")))
    after = float(looser.get("objective", float("nan")))
    return {
        "service": human(service),
        "sla_ms": sla,
        "objective_usd": before,
        "objective_plus_usd": after,
        "usd_per_ms": (before - after) / SLA_STEP_MS,
        "unserved_pct": float(this.get("unserved_fraction", 0.0)) * 100.0,
        "unserved_plus_pct": float(looser.get("unserved_fraction", 0.0)) * 100.0,
    }
