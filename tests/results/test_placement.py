"""Where each job and service ran (issue 13, item 10), checked against hand derivations.

H100 figures (built-in catalogue, inputs): 8 chips per server, 0.989 PFLOPS BF16 and
1.979 PFLOPS FP8 dense per chip, 0.969 kW per training and 0.8925 kW per serving chip.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

import scenario_builder as sb

from geomodel.results.placement import UNSERVED
from geomodel.results.result import open_result

HOURS = 4
REL = 1e-6


def rows(result, workload: str) -> dict[str, dict]:
    table = result.placement
    return {r["site"]: r for r in table[table["workload"] == workload].to_dict(orient="records")}


def test_a_job_split_over_two_sites_shows_each_sites_share_chips_and_energy(tmp_path, catalog, h100):
    data = sb.scenario(
        {
            "cheap": sb.site(systems=100, price=30, carbon=100, pue=1.2),
            "dear": sb.site(lat=40.3, systems=100, price=60, carbon=400, pue=1.2),
        },
        hours=HOURS,
        training={"pretrain": sb.training_job(8000)},
        links={"routes": [sb.route("cheap", "dear", length_km=50)]},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    placed = rows(result, "pretrain")
    assert set(placed) == {"cheap", "dear"}
    # a chip-hour does 0.989 PFLOPS x 3.6 x MFU 0.5 x goodput 1 = 1.7802 EFLOP; cheap runs all
    # its 800 chips for 4 h: 3,200 chip-hours, 5,696.64 EFLOP; dear does the rest of 8,000
    rate = sb.job_rate_eflop_per_chip_hour(h100.bf16_pflops, 0.5)
    cheap_eflop = 800 * HOURS * rate
    assert cheap_eflop == pytest.approx(5696.64)
    assert placed["cheap"]["work_eflop"] == pytest.approx(cheap_eflop, rel=REL)
    assert placed["cheap"]["share"] == pytest.approx(5696.64 / 8000, rel=REL)  # 71.2 %
    assert placed["dear"]["share"] == pytest.approx(2303.36 / 8000, rel=REL)  # 28.8 %
    assert placed["cheap"]["chip_hours"] == pytest.approx(3200, rel=REL)
    assert placed["dear"]["chip_hours"] == pytest.approx(2303.36 / rate, rel=REL)  # 1,293.88
    assert placed["cheap"]["peak_chips"] == pytest.approx(800, rel=REL)
    # energy of the working chips: chip-hours x 0.969 kW (training) x PUE 1.2 = 3.72096 MWh
    assert placed["cheap"]["energy_mwh"] == pytest.approx(3200 * h100.training_kw * 1.2 / 1000, rel=REL)
    assert placed["cheap"]["energy_mwh"] == pytest.approx(3.72096, rel=1e-3)
    # the rows add up to the job's totals in the results
    total_mwh = placed["cheap"]["energy_mwh"] + placed["dear"]["energy_mwh"]
    assert total_mwh == pytest.approx(float(result.dataset["job_energy_mwh"].sum()), rel=REL)
    # first row is the larger share; a saved result gives the same table
    assert result.placement.iloc[0]["site"] == "cheap"
    path = result.to_netcdf(tmp_path / "out.nc")
    assert open_result(path).placement.equals(result.placement)


def test_a_service_shows_its_sites_share_of_demand_latency_and_what_went_unserved(
    tmp_path, catalog, h100
):
    data = sb.scenario(
        {
            "near": sb.site(lat=40.5, lon=-100.0, systems=10, price=20, carbon=100),
            "far": sb.site(lat=40.0, lon=-90.0, systems=100, price=60, carbon=100),
        },
        hours=2,
        inference={"chat": sb.service(flop_per_token=2e11, sla_ms=50, efficiency=0.5)},
        regions={"users": {"lat": 40.0, "lon": -100.0, "demand": {"chat": "5e6 token/s"}}},
        latency={"technology": "smf_400zr", "route_factor": 1.5, "overhead": "2 ms"},
    )
    result = sb.run(tmp_path, data, catalog)
    assert result.status == "optimal", result.messages
    placed = rows(result, "chat")
    # a chip serves 1.979 PFLOPS x 0.5 / 2e11 FLOP per token = 4,947.5 token/s
    per_chip = h100.fp8_pflops * 0.5 * 1e15 / 2e11
    assert per_chip == pytest.approx(4947.5)
    near, far = 80 * per_chip, 800 * per_chip  # 395,800 and 3,958,000 token/s
    # near is cheaper and fills up; far serves the rest it can; 5e6 - 4,353,800 is unserved
    assert placed["near"]["share"] == pytest.approx(near / 5e6, rel=REL)  # 7.9 %
    assert placed["far"]["share"] == pytest.approx(far / 5e6, rel=REL)  # 79.2 %
    assert placed[UNSERVED]["share"] == pytest.approx((5e6 - near - far) / 5e6, rel=REL)  # 12.9 %
    # served Mtoken over 2 h: 395,800 token/s x 7,200 s = 2,849.76 Mtoken
    assert placed["near"]["served_mtoken"] == pytest.approx(near * 7200 / 1e6, rel=REL)
    # round trips from the users (as test_hand_derived derives them): 2.816 ms and 14.546 ms
    assert placed["near"]["latency_ms_mean"] == pytest.approx(2.816, abs=1e-3)
    assert placed["far"]["latency_ms_mean"] == pytest.approx(14.546, abs=1e-3)
    assert placed["near"]["peak_chips"] == pytest.approx(80, rel=REL)
    assert placed["far"]["energy_mwh"] == pytest.approx(800 * 2 * h100.serving_kw * 1.2 / 1000, rel=REL)
    assert sum(r["share"] for r in placed.values()) == pytest.approx(1.0, rel=1e-9)
    assert list(result.placement["site"]) == ["far", "near", UNSERVED]


@pytest.fixture(scope="module")
def h100(catalog) -> sb.Server:
    """The built-in H100 server's figures (inputs of the model, read from the catalogue)."""
    return sb.server_figures(catalog)
