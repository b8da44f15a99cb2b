"""Weather-driven PUE: wet-bulb from psychrolib against the psychrometric chart, the cooling
curve at hand-computed points, each cooling kind's curve, and a site's hourly PUE from its
weather point."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from geomodel.inputs.pue import LIFT_AT_ECONOMISER_K, site_pue, weather_pue, wet_bulb_c
from geomodel.scenario.schema import Scenario
from geomodel.scenario.schema.pue import COOLING_CURVES, PueCurve, WeatherPue

#: a curve with round numbers for the hand calculations
ROUND = PueCurve("wet_bulb", 12.0, 18.0, 26.0, 1.10, 1.35)


def _wet_bulb_by_hand(dry_bulb_c: float, humidity_pct: float, pressure_pa: float = 101_325.0) -> float:
    """The wet-bulb temperature from ASHRAE Fundamentals' psychrometric equations, solved
    by bisection, with the Magnus saturation pressure 610.94 exp(17.625 T / (T + 243.04)) Pa
    (Alduchov and Eskridge 1996) instead of psychrolib's Hyland-Wexler:
    W = 0.621945 pw / (p - pw) with pw = RH x pws(T), and the wet-bulb Twb solves
    W = ((2501 - 2.326 Twb) Ws(Twb) - 1.006 (T - Twb)) / (2501 + 1.86 T - 4.186 Twb)."""

    def saturation_pa(t: float) -> float:
        return 610.94 * np.exp(17.625 * t / (t + 243.04))

    def ratio(pw: float) -> float:
        return 0.621945 * pw / (pressure_pa - pw)

    humidity_ratio = ratio(humidity_pct / 100 * saturation_pa(dry_bulb_c))
    low, high = -40.0, dry_bulb_c
    for _ in range(60):
        mid = (low + high) / 2
        saturated = ratio(saturation_pa(mid))
        implied = ((2501 - 2.326 * mid) * saturated - 1.006 * (dry_bulb_c - mid)) / (
            2501 + 1.86 * dry_bulb_c - 4.186 * mid
        )
        low, high = (mid, high) if implied < humidity_ratio else (low, mid)
    return (low + high) / 2


@pytest.mark.parametrize(
    ("dry_bulb_c", "humidity_pct"),
    [(25.0, 50.0), (30.0, 40.0), (35.0, 20.0), (5.0, 80.0), (20.0, 100.0)],
)
def test_wet_bulb_matches_the_psychrometric_equations(dry_bulb_c, humidity_pct):
    got = wet_bulb_c(np.array([dry_bulb_c]), np.array([humidity_pct]))[0]
    assert got == pytest.approx(_wet_bulb_by_hand(dry_bulb_c, humidity_pct), abs=0.05)


def test_wet_bulb_at_chart_points():
    # saturated air: the wet-bulb is the dry-bulb; 25 degC at 50 % reads about 18 degC on the
    # ASHRAE chart (a chart reads to about 0.2 K)
    got = wet_bulb_c(np.array([20.0, 25.0]), np.array([100.0, 50.0]))
    assert got[0] == pytest.approx(20.0, abs=1e-6)
    assert got[1] == pytest.approx(18.0, abs=0.2)


def test_the_lift_constant_is_the_documented_sum():
    # condensing 11 K above the wet-bulb, evaporating 2 K below a supply 6 K above the
    # economiser limit: at the limit, 11 - (6 - 2) = 7 K
    assert LIFT_AT_ECONOMISER_K == 11 - (6 - 2)


@pytest.mark.parametrize(
    ("wet_bulb", "expected"),
    [
        # economiser alone at or below 12 degC
        (-5.0, 1.10),
        (12.0, 1.10),
        # 15 degC: chillers take (15 - 12) / (18 - 12) = 0.5 of the heat at a lift of
        # 15 - 12 + 7 = 10 K against 26 - 12 + 7 = 21 K at the design point:
        # 1.10 + 0.25 x 0.5 x 10 / 21 = 1.159524
        (15.0, 1.10 + 0.25 * 0.5 * 10 / 21),
        # 18 degC, all chillers, lift 13 K: 1.10 + 0.25 x 13 / 21 = 1.254762
        (18.0, 1.10 + 0.25 * 13 / 21),
        # the design point itself
        (26.0, 1.35),
        # beyond it the lift keeps growing: 30 degC, 25 K: 1.10 + 0.25 x 25 / 21 = 1.397619
        (30.0, 1.10 + 0.25 * 25 / 21),
    ],
)
def test_the_curve_at_hand_computed_points(wet_bulb, expected):
    assert weather_pue(np.array([wet_bulb]), ROUND)[0] == pytest.approx(expected, abs=1e-9)


def test_the_curve_rises_with_the_wet_bulb_and_takes_its_parameters():
    temperatures = np.linspace(-20, 35, 200)
    for curve in (ROUND, *COOLING_CURVES.values()):
        assert np.all(np.diff(weather_pue(temperatures, curve)) >= 0)
    custom = WeatherPue(
        model="weather",
        economiser_below=18,
        chiller_above=24,
        design_temperature=28,
        pue_economiser=1.05,
        pue_design=1.35,
    ).curve("evaporative")
    # warm-water cooling economises up to 18 degC; at 21 degC: share 0.5, lift 10 K of
    # 28 - 18 + 7 = 17 K: 1.05 + 0.30 x 0.5 x 10 / 17 = 1.138235
    assert weather_pue(np.array([21.0]), custom)[0] == pytest.approx(1.05 + 0.30 * 0.5 * 10 / 17)


def test_a_site_parameter_replaces_only_its_own_on_the_kinds_curve():
    mine = WeatherPue(model="weather", pue_design=1.2)
    assert mine.curve("air") == PueCurve("dry_bulb", 12.0, 18.0, 35.0, 1.10, 1.2)
    assert mine.curve("evaporative").pue_economiser == COOLING_CURVES["evaporative"].pue_economiser


@pytest.mark.parametrize(
    ("kind", "temperature", "expected"),
    [
        # evaporative at 24 degC wet-bulb: all chillers, lift 24 - 12 + 7 = 19 K of 21 K:
        # 1.086 + (1.133 - 1.086) x 19 / 21 = 1.128524
        ("evaporative", 24.0, 1.086 + 0.047 * 19 / 21),
        # air at 30 degC dry-bulb: all chillers, lift 25 K of 35 - 12 + 7 = 30 K:
        # 1.10 + 0.24 x 25 / 30 = 1.30
        ("air", 30.0, 1.10 + 0.24 * 25 / 30),
        # liquid at 28 degC dry-bulb: share (28 - 25) / 7, lift 10 K of 22 K:
        # 1.07 + 0.08 x 3/7 x 10 / 22 = 1.085584
        ("liquid", 28.0, 1.07 + 0.08 * 3 / 7 * 10 / 22),
        # every kind at its economiser limit: its floor
        ("liquid", 25.0, 1.07),
    ],
)
def test_each_kinds_curve_at_hand_computed_points(kind, temperature, expected):
    curve = COOLING_CURVES[kind]
    assert weather_pue(np.array([temperature]), curve)[0] == pytest.approx(expected, abs=1e-9)


def _scenario(pue, cooling: str = "evaporative") -> Scenario:
    site = {
        "lat": 50.11,
        "lon": 8.68,
        "power_envelope": 10,
        "systems": {},
        "pue": pue,
        "cooling": cooling,
    }
    return Scenario.model_validate(
        {"time": {"start": "2023-07-10T00:00:00+00:00", "hours": 48}, "sites": {"fra": site}}
    )


def test_a_site_takes_the_curve_at_its_weather_points_hours(catalog):
    """Frankfurt (3 km from the DE-LU weather point): the PUE of each hour is the curve at the
    psychrolib wet-bulb of that hour's measured temperature and humidity.

    The weather is read straight from the shipped archive: 10 July 2023 00:00 UTC is hour
    (31 + 28 + 31 + 30 + 31 + 30 + 9) x 24 = 4,560 of the data year, which reads itself.
    """
    from geomodel_builtins import measured

    hours = pd.date_range("2023-07-10", periods=48, freq="h", tz="UTC")
    pue = site_pue(_scenario({"model": "weather"}), hours, catalog)
    year = slice(4560, 4560 + 48)
    temperature = measured.measured_series("DE-LU", "temperature_c")[year]
    humidity = measured.measured_series("DE-LU", "relative_humidity_pct")[year]
    assert np.isfinite(temperature).all() and np.isfinite(humidity).all()  # no filled hour here
    wet = wet_bulb_c(temperature, humidity)
    assert pue.shape == (1, 48)
    np.testing.assert_allclose(pue[0], weather_pue(wet, COOLING_CURVES["evaporative"]))
    assert pue.min() >= 1.086 and pue.max() > pue.min()  # July in Frankfurt: some chiller hours
    assert np.allclose(site_pue(_scenario(1.25), hours, catalog), 1.25)
    # an air-cooled site follows the dry-bulb itself
    air = site_pue(_scenario({"model": "weather"}, "air"), hours, catalog)
    np.testing.assert_allclose(air[0], weather_pue(temperature, COOLING_CURVES["air"]))


def test_a_weather_site_is_built_for_its_kinds_design_pue():
    from geomodel.scenario.build_options import design_pue

    site = _scenario({"model": "weather"}, "air").sites["fra"]
    assert design_pue(site) == COOLING_CURVES["air"].pue_design == 1.34
    assert design_pue(_scenario(1.25).sites["fra"]) == 1.25
