"""The tools on the built-in catalogue: golden figures (docs/catalogues.md, docs/tools.md),
the Llama 3 failure count and the example DCI routes."""

from __future__ import annotations

import pytest

from geomodel.catalog import Catalog
from geomodel.geo import Location, geodesic_km
from geomodel.tools.dci import SMF_LATENCY_US_PER_KM, one_way_ms
from geomodel.tools.reliability import expected_interruptions, goodput_factor
from geomodel.tools.sizing import size_cluster

SMF_TECHNOLOGIES = ["smf_400zr", "smf_400zr_plus", "smf_800zr"]


def test_llama3_405b_interruptions_from_the_catalogue_h100_mtbf(catalog: Catalog):
    # Llama 3 paper: 16,384 H100 over a 54-day snapshot had 419 unexpected interruptions.
    h100 = catalog.hardware_system("hgx_h100_8")
    predicted = expected_interruptions(h100.mtbf_hours_per_chip, 16_384, 54 * 24)
    assert predicted == pytest.approx(419, rel=0.25)


def test_llama3_scale_job_keeps_most_of_its_time(catalog: Catalog):
    # Meta reports > 90 % effective training time; with 1-min checkpoints and 5-min
    # restarts the first-order model keeps ~87 % (it counts half an interval lost per failure).
    g = goodput_factor(catalog.hardware_system("hgx_h100_8"), 16_384, 1.0, 5.0)
    assert 0.8 < g < 0.95


def test_gb200_nvl72_rack_is_180_pflops_dense_bf16(catalog: Catalog):
    rack = size_cluster(catalog.hardware_system("gb200_nvl72"), 72)
    assert rack.chips_installed == 72
    assert rack.systems == 1
    assert rack.bf16_dense_eflops * 1000 == pytest.approx(180, rel=0.05)


def test_cloudmatrix_384_against_nvl72(catalog: Catalog):
    cm = size_cluster(catalog.hardware_system("cloudmatrix_384"), 384)
    nvl = size_cluster(catalog.hardware_system("gb200_nvl72"), 72)
    assert (cm.systems, cm.chips_installed, cm.racks) == (1, 384, 16)
    assert cm.bf16_dense_eflops * 1000 == pytest.approx(300, rel=0.05)
    assert cm.bf16_dense_eflops >= 1.6 * nvl.bf16_dense_eflops


def test_432_cloudmatrix_384_hold_165888_chips_in_6912_racks(catalog: Catalog):
    cm = catalog.hardware_system("cloudmatrix_384")
    row = size_cluster(cm, 432 * cm.chips_per_system)
    assert (row.systems, row.chips_installed, row.racks) == (432, 165_888, 6_912)


@pytest.mark.parametrize("name", SMF_TECHNOLOGIES)
def test_standard_fibre_technologies_propagate_at_c_over_1_4677(catalog: Catalog, name: str):
    assert catalog.link_technology(name).latency_us_per_km == pytest.approx(
        SMF_LATENCY_US_PER_KM, rel=0.01
    )


def test_hollow_core_is_31_to_33_percent_faster(catalog: Catalog):
    distance = 500.0
    hcf = one_way_ms(distance, catalog.link_technology("hcf_800zr"), route_factor=1.3)
    smf = one_way_ms(distance, catalog.link_technology("smf_800zr"), route_factor=1.3)
    assert 0.31 <= 1 - hcf / smf <= 0.33


def test_zhangjiakou_beijing_one_way(catalog: Catalog):
    # docs/data/dci/example_routes.csv: 199.9 km great circle, x 1.3, 4.90 us/km -> 1.273 ms one way.
    distance = geodesic_km(Location(lat=41.15, lon=114.70), Location(lat=39.90, lon=116.40))
    for name in SMF_TECHNOLOGIES:
        assert one_way_ms(distance, catalog.link_technology(name), route_factor=1.3) == pytest.approx(
            1.273, rel=0.01
        )
