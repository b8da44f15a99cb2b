"""Weather-driven solar and wind: known hours against hand computations."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from geomodel.geo import Location
from geomodel_builtins.power import solar, wind

FRANKFURT = Location(lat=50.11, lon=8.68)
#: 21 June 2023, 10:00-11:00 UTC (around solar noon in Frankfurt), and 23:00 UTC (night)
NOON = pd.DatetimeIndex(["2023-06-21T10:00"], tz="UTC")
NIGHT = pd.DatetimeIndex(["2023-06-21T23:00"], tz="UTC")


def _weather(hours, cloud_pct, temperature_c=25.0, wind_m_s=1.0) -> pd.DataFrame:
    n = len(hours)
    return pd.DataFrame(
        {
            "temperature_c": np.full(n, temperature_c),
            "relative_humidity_pct": np.full(n, 50.0),
            "cloud_cover_pct": np.full(n, cloud_pct),
            "wind_speed_10m_m_s": np.full(n, wind_m_s),
        },
        index=hours,
    )


@pytest.mark.parametrize(
    ("cloud_pct", "factor"),
    [
        (0.0, 1.0),
        # 4 oktas: 1 - 0.75 x 0.5^3.4 = 1 - 0.75 x 0.094732 = 0.928951
        (50.0, 0.928951),
        # overcast: 1 - 0.75 = 0.25
        (100.0, 0.25),
    ],
)
def test_kasten_czeplak_by_hand(cloud_pct, factor):
    assert solar.cloudy_ghi(np.array([800.0]), np.array([cloud_pct]))[0] == pytest.approx(
        800 * factor, abs=0.01
    )


def test_a_cloudy_hour_gives_less_than_a_clear_one_and_night_nothing():
    clear = solar.weather_output(FRANKFURT, _weather(NOON, 0.0), 0.25)[0]
    overcast = solar.weather_output(FRANKFURT, _weather(NOON, 100.0), 0.25)[0]
    # a clear June noon in Frankfurt: about 900-1000 W/m2 on the plane, 14 % losses, a warm
    # cell: 0.6-0.9 per unit of DC nameplate; overcast: a quarter of the light, all diffuse
    assert 0.6 < clear < 0.9
    assert 0.1 < overcast < 0.3
    assert solar.weather_output(FRANKFURT, _weather(NIGHT, 0.0), 0.25)[0] == 0.0


def test_the_cell_temperature_costs_what_pvwatts_and_the_sandia_model_say():
    """Same light and wind, air at 25 and 35 degC. The Sandia model's cell rise over the
    air, POA x exp(a + b ws) + POA / 1000 x dT = POA x (exp(-3.56 - 0.075) + 0.003) =
    0.029379 POA at 1 m/s, does not depend on the air, so the cells differ by 10 K and
    out25 - out35 = 0.86 x POA / 1000 x 0.0047 x 10. That gives POA, and then out25 must be
    0.86 x POA / 1000 x (1 - 0.0047 x 0.029379 POA)."""
    out25 = solar.weather_output(FRANKFURT, _weather(NOON, 0.0, temperature_c=25.0), 0.25)[0]
    out35 = solar.weather_output(FRANKFURT, _weather(NOON, 0.0, temperature_c=35.0), 0.25)[0]
    poa = (out25 - out35) * 1000 / (0.86 * 0.047)
    assert 800 < poa < 1100
    rise_per_w_m2 = math.exp(-3.56 - 0.075 * 1.0) + 3.0 / 1000  # 0.029379 K per W/m2
    assert out25 == pytest.approx(0.86 * poa / 1000 * (1 - 0.0047 * rise_per_w_m2 * poa), rel=1e-9)


def test_the_weather_driven_source_has_no_scaling_to_the_region():
    """The same hours with measured cloud cover: the annual scale of the clear-sky path
    plays no part, so doubling nothing but the hours asked for keeps each hour's value."""
    hours = pd.date_range("2023-06-21", periods=48, freq="h", tz="UTC")
    weather_frame = _weather(hours, 30.0)
    entry = solar.SolarPV(**solar.generator_fields("solar_pv"))
    first = entry.weather_capacity_factor(FRANKFURT, weather_frame, {})
    second = entry.weather_capacity_factor(FRANKFURT, weather_frame.iloc[:24], {})
    np.testing.assert_allclose(first[:24], second)


def test_hub_height_wind_by_the_power_law():
    # 5 m/s at 10 m to 100 m with alpha = 1/7: 5 x 10^(1/7) = 5 x 1.389495 = 6.947477 m/s;
    # to 120 m with alpha = 0.2: 5 x 12^0.2 = 5 x 1.643752 = 8.218760 m/s
    speeds, output = wind.turbine_curve("E-115/3000")
    for hub, alpha, at_hub in ((100.0, 1 / 7, 6.947477), (120.0, 0.2, 8.218760)):
        expected = np.interp(at_hub, speeds, output)
        got = wind.turbine_output(np.array([5.0]), "E-115/3000", hub, 0.5, alpha)[0]
        assert got == pytest.approx(expected)


def test_hub_height_wind_by_the_log_law():
    # log law: 5 m/s at 10 m to 100 m over z0 = 0.5 m (very rough):
    #   5 x ln(100 / 0.5) / ln(10 / 0.5) = 5 x 5.298317 / 2.995732 = 8.843109 m/s;
    # to 120 m over open land (z0 = 0.03 m): 5 x 8.294050 / 5.809143 = 7.138789 m/s
    for hub, z0, at_hub in ((100.0, 0.5, 8.843109), (120.0, 0.03, 7.138789)):
        assert wind.hub_speed_m_s(np.array([5.0]), hub, z0)[0] == pytest.approx(at_hub, rel=1e-6)


@pytest.mark.parametrize(
    ("speed_10m", "expected"),
    [
        # the log law over z0 = 0.5 m multiplies the 10 m wind by ln(200) / ln(20) = 1.768622:
        # 0.5 m/s at 10 m -> 0.88 m/s at 100 m: below the curve's first point (1 m/s), no output
        (0.5, 0.0),
        # 12 m/s -> 21.2 m/s: past rated (3,000 kW from 13 m/s on the E-115/3000 curve)
        (12.0, 1.0),
        # 14 m/s -> 24.8 m/s: still within the curve (to 25 m/s), rated
        (14.0, 1.0),
        # 15 m/s -> 26.5 m/s: above cut-out (the curve ends at 25 m/s), stopped
        (15.0, 0.0),
    ],
)
def test_wind_below_cut_in_at_rated_and_above_cut_out(speed_10m, expected):
    assert wind.turbine_output(np.array([speed_10m]), "E-115/3000", 100.0, 0.5)[0] == expected


def test_the_turbine_curve_is_the_librarys_over_its_nominal_power():
    speeds, output = wind.turbine_curve("E-115/3000")
    assert speeds[0] == 1.0 and speeds[-1] == 25.0
    assert output.max() == 1.0 and output[0] == 0.0
    other = wind.turbine_curve("V126/3450")[1]
    assert other.max() == pytest.approx(1.0)


def test_the_wind_entry_passes_the_sites_settings():
    entry = wind.WindOnshore(**wind.generator_fields("wind_onshore"))
    frame = _weather(pd.date_range("2023-01-01", periods=3, freq="h", tz="UTC"), 50.0, wind_m_s=5.0)
    default = entry.weather_capacity_factor(FRANKFURT, frame, {})
    # default: E-115/3000 at 100 m over the very rough terrain (z0 = 0.5 m)
    np.testing.assert_allclose(default, wind.turbine_output(np.full(3, 5.0), "E-115/3000", 100.0, 0.5))
    chosen = entry.weather_capacity_factor(
        FRANKFURT, frame, {"turbine": "V126/3450", "hub_height": 120.0, "terrain": "open"}
    )
    np.testing.assert_allclose(chosen, wind.turbine_output(np.full(3, 5.0), "V126/3450", 120.0, 0.03))
    own = entry.weather_capacity_factor(FRANKFURT, frame, {"roughness_length": 0.2})
    np.testing.assert_allclose(own, wind.turbine_output(np.full(3, 5.0), "E-115/3000", 100.0, 0.2))
    power_law = entry.weather_capacity_factor(FRANKFURT, frame, {"shear_exponent": 0.2})
    np.testing.assert_allclose(
        power_law, wind.turbine_output(np.full(3, 5.0), "E-115/3000", 100.0, 0.5, 0.2)
    )
