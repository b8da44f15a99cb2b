"""Sizing: chips -> systems -> racks -> MW -> sites, with hand-derived figures."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from geomodel.errors import UsageError
from geomodel.tools.sizing import compare_systems, size_cluster, whole


def test_100k_chips_of_8_gpu_servers(hgx):
    row = size_cluster(hgx, 100_000, pue=1.2, site_mw=300)
    assert row.systems == 12_500  # 100,000 / 8
    assert row.chips_installed == 100_000
    assert row.racks == 3_125  # 4 servers per rack
    assert row.scale_up_domains == 12_500  # one NVLink domain per server
    assert row.scale_up_domain_chips == 8
    assert row.bf16_dense_eflops == pytest.approx(100_000 * 0.989 / 1000)
    assert row.it_mw == pytest.approx(100_000 * 1.275 / 1000)  # 127.5 MW
    assert row.facility_mw == pytest.approx(127.5 * 1.2)
    assert row.bf16_dense_pflops_per_facility_mw == pytest.approx(98_900 / 153.0)
    assert row.sites == 1
    assert row.capex_usd == pytest.approx(12_500 * 250_000)


def test_sites_are_filled_with_whole_systems(hgx):
    # One server is 10.2 kW x 1.2 = 12.24 kW: 8,169 fit 100 MW, so 12,500 need 2 sites.
    row = size_cluster(hgx, 100_000, pue=1.2, site_mw=100)
    assert row.systems_per_site == math.floor(100 / (10.2 * 1.2 / 1000))
    assert row.sites == 2


def test_whole_systems_round_up_and_report_installed_chips(nvl72):
    row = size_cluster(nvl72, 100_000)
    assert row.systems == 1_389  # 100,000 / 72 = 1,388.9
    assert row.chips_installed == 1_389 * 72
    assert row.racks == 1_389
    assert row.scale_up_domains == 1_389
    assert row.it_mw == pytest.approx(1_389 * 145 / 1000)


def test_432_cloudmatrix_384_hold_165888_chips_in_6912_racks(cm384):
    # Golden figure of docs/tools.md, "Sizing".
    row = size_cluster(cm384, 432 * 384)
    assert row.systems == 432
    assert row.chips_installed == 165_888
    assert row.racks == 6_912
    assert row.capex_usd is None  # no price catalogued


def test_racks_ignore_float_noise(make_system):
    tenth = make_system(racks_per_system=0.1)
    assert size_cluster(tenth, 30 * 8).racks == 3  # 30 x 0.1 is 3.0000000000000004 in floats
    assert whole(3.0000000000000004) == 3
    assert whole(3.01) == 4


def test_scale_up_domain_larger_than_a_system(make_system):
    # Four 64-chip systems make up one 256-chip scale-up domain (a TPU-pod-like slice).
    sliced = make_system(chips_per_system=64, scale_up_domain_chips=256)
    row = size_cluster(sliced, 1_000)
    assert row.systems == 16
    assert row.scale_up_domains == 4


def test_a_system_bigger_than_the_site_has_no_site_count(nvl72):
    # One NVL72 is 145 kW x 1.2 = 174 kW facility power.
    assert size_cluster(nvl72, 72, site_mw=0.2).sites == 1
    row = size_cluster(nvl72, 72, site_mw=0.1)
    assert row.sites is None
    assert row.systems_per_site == 0
    assert "more than a 0.1 MW site" in row.note


def test_no_site_envelope_gives_no_site_count(hgx):
    row = size_cluster(hgx, 8, site_mw=None)
    assert row.sites is None and row.site_mw is None and row.note == ""


def test_compare_keeps_the_order_given(hgx, nvl72, cm384):
    rows = compare_systems([cm384, hgx, nvl72], 10_000)
    assert [r.system for r in rows] == ["test_cm384", "test_hgx_8", "test_nvl72"]
    assert rows[0].as_dict()["racks"] == rows[0].racks


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"chips": 0}, "chips"),
        ({"chips": -8}, "chips"),
        ({"chips": 1.5}, "chips"),
        ({"chips": True}, "chips"),
        ({"chips": 8, "pue": 0.95}, "pue"),
        ({"chips": 8, "pue": math.nan}, "pue"),
        ({"chips": 8, "site_mw": 0}, "site_mw"),
        ({"chips": 8, "site_mw": math.inf}, "site_mw"),
    ],
)
def test_bad_arguments_name_the_argument(hgx, kwargs, name):
    with pytest.raises(UsageError) as raised:
        size_cluster(hgx, **kwargs)
    assert raised.value.option == name


@given(
    chips=st.integers(min_value=1, max_value=10_000_000),
    per_system=st.sampled_from([1, 4, 8, 72, 256, 384, 8960]),
    racks=st.sampled_from([0.125, 0.25, 1, 16, 140]),
    pue=st.floats(min_value=1.0, max_value=2.0),
    site_mw=st.floats(min_value=0.01, max_value=5_000),
)
def test_invariants(make_system, chips, per_system, racks, pue, site_mw):
    sys_ = make_system(
        chips_per_system=per_system, scale_up_domain_chips=per_system, racks_per_system=racks
    )
    row = size_cluster(sys_, chips, pue=pue, site_mw=site_mw)
    assert chips <= row.chips_installed < chips + per_system
    assert row.racks >= row.systems * racks - 1e-6
    assert row.facility_mw == pytest.approx(row.it_mw * pue)
    if row.sites is not None:
        # Enough sites for every system, and one fewer would not do.
        assert row.sites * row.systems_per_site >= row.systems
        assert (row.sites - 1) * row.systems_per_site < row.systems
        assert row.systems_per_site * sys_.power_kw_per_system * pue / 1000 <= site_mw * (1 + 1e-9)
