"""A built battery's state of charge cycles over each typical day (docs/model.md (P4)).

Four days of the battery scenario's cheap-then-dear pattern (cheap source on a solar
profile) clustered into two typical days: each typical day stands for several calendar
days, so its state of charge must close on itself (the state before its first step is
its last step's), not run on into the next typical day.
"""

from __future__ import annotations

import numpy as np
import pytest
import scenario_builder as sb


def test_the_state_of_charge_closes_over_each_typical_day(tmp_path, catalog):
    site = sb.site(systems=2000, price=100.0, carbon=0.0, supply_mw=100.0)
    site["power_sources"]["solar_pv"] = sb.firm_supply(100.0, 10.0, 0.0)  # the catalogue's solar profile
    site["build"] = {
        "battery": {
            "power": {"max": "50 MW", "capex": "0 USD/MW", "fixed_om": "1000 USD/MW/year"},
            "energy": {"max": "200 MWh", "capex": "0 USD/MWh", "fixed_om": "1000 USD/MWh/year"},
            "efficiency": 0.81,
        }
    }
    data = sb.scenario({"s": site}, hours=96, finance={"discount_rate": 0.0})
    data["time"]["aggregation"] = {"typical_days": 2}
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    inputs = result.inputs
    assert inputs.attrs["typical_days"] == 2 and inputs.sizes["time"] == 48
    assert float(result.dataset["built_battery_mwh"].sum()) > 1.0  # cheap storage is built
    soc = result.dataset["storage_soc_mwh"].sel(site="s").values
    charge = result.dataset["storage_charge_mw"].sel(site="s").values
    discharge = result.dataset["storage_discharge_mw"].sel(site="s").values
    dt = inputs["dt_hours"].values
    for day in range(2):
        first, last = 24 * day, 24 * day + 23
        # soc[first] = soc[last] + dt x (0.9 charge - discharge / 0.9): the day closes on itself
        expected = soc[last] + dt[first] * (0.9 * charge[first] - discharge[first] / 0.9)
        assert soc[first] == pytest.approx(expected, abs=1e-6)
    assert np.all(soc <= float(result.dataset["built_battery_mwh"].sum()) + 1e-6)
