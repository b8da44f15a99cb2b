"""Typed catalogue entries: fields, ranges, cross-field rules and the profile contract."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from plugin_fixtures.figures import hardware_fields, link_fields, power_fields
from pydantic import ValidationError

from geomodel.catalog import PROFILE_COLUMNS, HardwareSystem, LinkTechnology, PowerSource
from geomodel.catalog.entries import check_profile, check_time_index
from geomodel.geo import Location

SITE = Location(lat=50.1, lon=8.7)


def hourly(hours: int = 48, tz: str | None = "UTC") -> pd.DatetimeIndex:
    return pd.date_range("2025-06-01", periods=hours, freq="h", tz=tz)


# --- fields every entry has ----------------------------------------------------------


def test_valid_entries_of_each_kind():
    assert HardwareSystem(**hardware_fields("a")).name == "a"
    assert LinkTechnology(**link_fields("b")).fibre_kind == "standard_smf"
    assert PowerSource(**power_fields("c", location={"lat": 50.1, "lon": 8.7})).location == SITE


@pytest.mark.parametrize("name", ["GB200", "", "two words", "-lead", "x" * 65, "a/b"])
def test_names_are_short_lower_case_identifiers(name):
    with pytest.raises(ValidationError, match="name"):
        HardwareSystem(**hardware_fields(name))


@pytest.mark.parametrize(("field", "value"), [("source", ""), ("source_type", "blog")])
def test_every_entry_names_its_source(field, value):
    with pytest.raises(ValidationError, match=field):
        LinkTechnology(**link_fields("b", **{field: value}))


def test_entries_are_frozen_and_reject_unknown_fields():
    entry = HardwareSystem(**hardware_fields("a"))
    with pytest.raises(ValidationError):
        entry.chips_per_system = 16
    with pytest.raises(ValidationError, match="chips_per_sytem"):
        HardwareSystem(**hardware_fields("a", chips_per_sytem=8))


def test_figure_sources_may_name_fields_of_the_entry():
    entry = HardwareSystem(
        **hardware_fields("a", figure_sources={"mtbf_hours_per_chip": "Llama 3 paper [paper]"})
    )
    assert entry.figure_sources == {"mtbf_hours_per_chip": "Llama 3 paper [paper]"}


def test_figure_sources_naming_an_unknown_field_is_an_error():
    with pytest.raises(ValidationError, match=r"figure_sources names unknown fields: \['mtbf_hours'\]"):
        HardwareSystem(**hardware_fields("a", figure_sources={"mtbf_hours": "guess [estimate]"}))


# --- hardware systems -------------------------------------------------------------------


def test_idle_power_above_active_power_is_an_error():
    with pytest.raises(ValidationError) as raised:
        HardwareSystem(**hardware_fields("a", active_power_kw_per_chip=1.0, idle_power_kw_per_chip=1.2))
    message = str(raised.value)
    assert "idle_power_kw_per_chip 1.2 exceeds active_power_kw_per_chip 1.0" in message


def test_idle_power_may_equal_active_power():
    entry = HardwareSystem(**hardware_fields("a", active_power_kw_per_chip=1, idle_power_kw_per_chip=1))
    assert entry.idle_power_kw_per_chip == entry.active_power_kw_per_chip


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("chips_per_system", 0),
        ("chips_per_system", 8.5),
        ("chips_per_system", "eight"),
        ("active_power_kw_per_chip", -1.0),
        ("active_power_kw_per_chip", 0.01),  # below any accelerator's share of a system
        ("active_power_kw_per_chip", 6.0),
        ("bf16_dense_pflops_per_chip", 0),
        ("bf16_dense_pflops_per_chip", 989),  # TFLOPS given where PFLOPS are meant
        ("hbm_gb_per_chip", -80),
        ("mtbf_hours_per_chip", math.nan),
        ("racks_per_system", 0),
    ],
)
def test_hardware_figures_out_of_range_or_of_the_wrong_type(field, value):
    with pytest.raises(ValidationError, match=field):
        HardwareSystem(**hardware_fields("a", **{field: value}))


def test_hardware_derived_figures():
    entry = HardwareSystem(**hardware_fields("a", chips_per_system=72, fp8_dense_pflops_per_chip=None))
    assert entry.power_kw_per_system == pytest.approx(72 * 1.275)
    assert entry.bf16_dense_pflops_per_system == pytest.approx(72 * 0.989)
    assert entry.dense_pflops_per_chip("bf16") == 0.989
    assert entry.dense_pflops_per_chip("fp8") == 0.989  # no FP8: runs at the BF16 rate
    with_fp8 = HardwareSystem(**hardware_fields("b"))
    assert with_fp8.dense_pflops_per_chip("fp8") == 1.979


# --- link technologies -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("latency_us_per_km", 10.0),  # ms/1000 km confused with us/km, or RTT doubled twice
        ("latency_us_per_km", 2.5),  # faster than light in vacuum (3.34 us/km)
        ("fibre_kind", "Hollow Core"),
        ("route_factor", 0.9),
        ("capacity_gbit_s_per_fibre_pair", 0),
        ("transceiver_power_w_per_gbit_s", -0.1),
        ("span_km", 0),
    ],
)
def test_link_figures_out_of_range_or_of_the_wrong_type(field, value):
    with pytest.raises(ValidationError, match=field):
        LinkTechnology(**link_fields("b", **{field: value}))


def test_link_derived_figures():
    link = LinkTechnology(**link_fields("b", latency_us_per_km=4.9, span_km=80))
    assert link.one_way_latency_ms(1000) == pytest.approx(4.9)
    assert [link.amplifier_spans(km) for km in (0, 80, 81, 160, 161)] == [0, 0, 1, 1, 2]
    # 400 Gb/s lit over 200 km: optics 400 * 0.1 W, two in-line amplifier sites of 200 W each
    assert link.power_w(200, 400) == pytest.approx(400 * 0.1 + 2 * 200)
    assert link.power_w(200, 400, fibre_pairs=3) == pytest.approx(400 * 0.1 + 3 * 2 * 200)


def test_a_plugin_may_name_another_fibre_kind():
    assert LinkTechnology(**link_fields("b", fibre_kind="ultra_low_loss_smf")).fibre_kind


# --- non-finite figures ----------------------------------------------------------------


@pytest.mark.parametrize(
    "field", ["scale_up_bandwidth_gbyte_s_per_chip", "mtbf_hours_per_chip", "capex_usd_per_system"]
)
def test_infinite_figures_are_rejected(field):
    with pytest.raises(ValidationError, match=field):
        HardwareSystem(**hardware_fields("a", **{field: math.inf}))


# --- power sources and their profile contract -----------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("capacity_factor", 0),
        ("capacity_factor", 1.1),
        ("carbon_kg_per_mwh", -1),
        ("carbon_kg_per_mwh", 380_000),  # g/kWh read as g/MWh
        ("price_usd_per_mwh", 80_000),  # USD/kWh * 1e6 mistakes
        ("kind", "Solar PV"),
    ],
)
def test_power_figures_out_of_range(field, value):
    with pytest.raises(ValidationError, match=field):
        PowerSource(**power_fields("c", **{field: value}))


def test_negative_prices_are_allowed():
    assert PowerSource(**power_fields("c", price_usd_per_mwh=-20)).price_usd_per_mwh == -20


def test_the_default_profile_is_flat_at_the_means():
    source = PowerSource(**power_fields("c", capacity_factor=0.9))
    index = hourly(24, tz="Europe/Berlin")
    frame = source.profile(SITE, index)
    assert list(frame.columns) == list(PROFILE_COLUMNS)
    assert frame.index.equals(index)
    assert frame["capacity_factor"].eq(0.9).all()
    assert frame["price_usd_per_mwh"].eq(80).all()
    assert frame["carbon_kg_per_mwh"].eq(380).all()


@pytest.mark.parametrize(
    ("index", "error", "message"),
    [
        (hourly(tz=None), ValueError, "timezone-aware"),
        (pd.date_range("2025-06-01", periods=8, freq="15min", tz="UTC"), ValueError, "hourly"),
        (hourly().delete(5), ValueError, "hourly and increasing"),  # a gap in the index
        (hourly()[::-1], ValueError, "increasing"),
        (list(hourly()), TypeError, "DatetimeIndex"),
    ],
    ids=["naive", "quarter-hourly", "gap", "decreasing", "list"],
)
def test_profiles_are_asked_for_on_an_hourly_aware_index(index, error, message):
    with pytest.raises(error, match=message):
        check_time_index(index)
    with pytest.raises(error, match=message):
        PowerSource(**power_fields("c")).profile(SITE, index)


class DefectiveSource(PowerSource):
    """A plugin's source whose profile breaks the contract in one named way."""

    defect: str

    def hourly_profile(self, location, time_index):
        frame = super().hourly_profile(location, time_index)
        if self.defect == "nan":
            frame.iloc[5, 1] = np.nan
        elif self.defect == "missing hour":
            frame = frame.drop(frame.index[5])
        elif self.defect == "local index":
            frame.index = frame.index.tz_localize(None)
        elif self.defect == "cf above 1":
            frame["capacity_factor"] = 1.2
        elif self.defect == "cf below 0":
            frame.iloc[0, 0] = -0.1
        elif self.defect == "negative carbon":
            frame["carbon_kg_per_mwh"] = -5.0
        elif self.defect == "no price":
            frame = frame.drop(columns="price_usd_per_mwh")
        return frame


@pytest.mark.parametrize(
    ("defect", "message"),
    [
        ("nan", r"profile has gaps, first at 2025-06-01 05:00:00\+00:00"),
        ("missing hour", "profile index differs from the requested one"),
        ("local index", "profile index differs from the requested one"),
        ("cf above 1", r"capacity factor outside \[0, 1\]"),
        ("cf below 0", r"capacity factor outside \[0, 1\]"),
        ("negative carbon", "negative carbon intensity"),
        ("no price", r"profile lacks columns \['price_usd_per_mwh'\]"),
    ],
)
def test_a_profile_breaking_the_contract_is_an_error_naming_the_source(defect, message):
    source = DefectiveSource(**power_fields("wind_fixture", kind="wind", defect=defect))
    with pytest.raises(ValueError, match=rf"power source 'wind_fixture': {message}"):
        source.profile(SITE, hourly())


@pytest.mark.parametrize("column", ["price_usd_per_mwh", "carbon_kg_per_mwh"])
def test_a_profile_with_infinite_values_is_an_error(column):
    frame = PowerSource(**power_fields("c")).hourly_profile(SITE, hourly())
    frame.loc[frame.index[3], column] = np.inf
    with pytest.raises(ValueError, match="power source 'c'"):
        check_profile(frame, frame.index, "c")


def test_power_at_load_lies_between_idle_and_nameplate() -> None:
    fields = hardware_fields("x", active_power_kw_per_chip=1.2, idle_power_kw_per_chip=0.3)
    plain = HardwareSystem(**fields)
    assert plain.training_kw_per_chip == plain.serving_kw_per_chip == 1.2  # nameplate
    measured = HardwareSystem(**fields, training_power_kw_per_chip=0.9, serving_power_kw_per_chip=0.8)
    assert (measured.training_kw_per_chip, measured.serving_kw_per_chip) == (0.9, 0.8)
    with pytest.raises(ValueError, match=r"training_power_kw_per_chip 1\.3 is outside"):
        HardwareSystem(**fields, training_power_kw_per_chip=1.3)
    with pytest.raises(ValueError, match=r"serving_power_kw_per_chip 0\.2 is outside"):
        HardwareSystem(**fields, serving_power_kw_per_chip=0.2)
