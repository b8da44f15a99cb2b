"""Typical days against the full series: the check, and results mapped to the calendar."""

from __future__ import annotations

import numpy as np
import pytest

from geomodel.aggregation_check import check_aggregation, kpi_error, relative_error
from geomodel.results.calendar import to_calendar

QUICKSTART = "scenarios/quickstart.yaml"
FOUR_DAYS = ["time.hours=96", "solver.threads=1"]


def test_relative_error():
    assert relative_error(102.0, 100.0) == pytest.approx(0.02)
    assert relative_error(0.5, 0.0) == 0.5
    assert relative_error(None, 1.0) is None
    assert relative_error(float("nan"), 1.0) is None


def test_unserved_fraction_is_compared_absolutely():
    # 1e-10 of demand unserved (interior-point dust) against 0 is no error worth 100 %
    assert kpi_error("unserved_fraction", 0.0, 1e-10) == pytest.approx(1e-10)
    assert kpi_error("unserved_fraction", 0.03, 0.01) == pytest.approx(0.02)
    assert kpi_error("cost_usd", 98.0, 100.0) == pytest.approx(0.02)
    assert kpi_error("unserved_fraction", None, 0.0) is None


def test_as_many_typical_days_as_days_reproduces_the_full_solve(catalog):
    # Four typical days for a four-day horizon: every day is its own cluster, so the
    # aggregated model is the full model and every KPI must agree.
    check = check_aggregation(
        QUICKSTART, overrides=[*FOUR_DAYS, "time.aggregation.typical_days=4"], catalog=catalog
    )
    for row in check.rows():
        if row["relative_error"] is not None:
            assert row["relative_error"] == pytest.approx(0.0, abs=1e-6), row


def test_two_typical_days_keep_the_energy_total_close_and_map_back_to_every_hour(catalog):
    check = check_aggregation(
        QUICKSTART, overrides=[*FOUR_DAYS, "time.aggregation.typical_days=2"], catalog=catalog
    )
    aggregated = check.aggregated
    assert aggregated.inputs.sizes["time"] == 48
    assert aggregated.inputs["weight"].values.reshape(2, 24)[:, 0].sum() == 4
    # tsam keeps the weighted means of demand and prices; idle power is constant, so
    # the energy total stays within a few percent of the full solve
    energy = next(r for r in check.rows() if r["kpi"] == "energy_mwh")
    assert energy["relative_error"] < 0.05
    calendar = to_calendar(aggregated.dataset, aggregated.inputs)
    assert calendar.sizes["time"] == 96
    # hour by hour, the calendar's energy adds up to the weighted total of the typical days
    assert float(calendar["energy_mwh"].sum()) == pytest.approx(aggregated.kpis["energy_mwh"])
    first_day = aggregated.inputs["typical_day_of"].values[0]
    np.testing.assert_allclose(
        calendar["facility_power_mw"].isel(time=slice(0, 24)).values,
        aggregated.dataset["facility_power_mw"]
        .isel(time=slice(24 * first_day, 24 * first_day + 24))
        .values,
    )
    assert "job_progress" not in calendar


def test_segments_shorten_the_model_and_map_back_to_every_hour(catalog):
    check = check_aggregation(
        QUICKSTART,
        overrides=[*FOUR_DAYS, "time.aggregation.typical_days=2", "time.aggregation.segments=6"],
        catalog=catalog,
    )
    aggregated = check.aggregated
    assert aggregated.inputs.sizes["time"] == 12
    hours_per_step = aggregated.inputs["weight"] * aggregated.inputs["dt_hours"]
    assert float(hours_per_step.sum()) == pytest.approx(96)
    energy = next(r for r in check.rows() if r["kpi"] == "energy_mwh")
    assert energy["relative_error"] < 0.05
    calendar = to_calendar(aggregated.dataset, aggregated.inputs)
    assert calendar.sizes["time"] == 96
    # a calendar hour's energy is its step's weighted energy spread over the hours it stands for
    assert float(calendar["energy_mwh"].sum()) == pytest.approx(aggregated.kpis["energy_mwh"])
    step = aggregated.inputs["step_of_hour"].values
    np.testing.assert_allclose(
        calendar["facility_power_mw"].values,
        aggregated.dataset["facility_power_mw"].isel(time=step).values,
    )


def test_steps_of_two_hours_map_to_both_their_hours(catalog):
    from geomodel import load_scenario, solve

    scenario = load_scenario(
        QUICKSTART, overrides=["time.resolution=2 h", "solver.threads=1"], catalog=catalog
    )
    result = solve(scenario, catalog=catalog)
    assert result.inputs.sizes["time"] == 24
    calendar = result.calendar()
    assert calendar.sizes["time"] == 48
    # hour 2k and 2k+1 both carry step k's power, each half of its energy
    power = result.dataset["facility_power_mw"].values
    np.testing.assert_allclose(calendar["facility_power_mw"].values, np.repeat(power, 2, axis=1))
    energy = result.dataset["energy_mwh"].values
    np.testing.assert_allclose(calendar["energy_mwh"].values, np.repeat(energy / 2, 2, axis=1))
    assert float(calendar["energy_mwh"].sum()) == pytest.approx(result.kpis["energy_mwh"])
    hours = calendar["time"].values
    assert (np.diff(hours) == np.timedelta64(1, "h")).all()
    assert hours[0] == result.inputs["time"].values[0]
    assert "job_progress" not in calendar


def test_a_scenario_without_aggregation_cannot_be_checked(catalog):
    from geomodel.errors import UsageError

    with pytest.raises(UsageError, match=r"no time\.aggregation"):
        check_aggregation(QUICKSTART, overrides=FOUR_DAYS, catalog=catalog)
