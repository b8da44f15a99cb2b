"""``geomodel size``, ``reliability`` and ``dci``.

Output is checked in-process against a hand-built catalogue; bad input against
the installed catalogue, each case once per module: one case a command (its
closest-name hint) and --debug through the real console script in
subprocesses, as a user would meet them, the rest through the same ``main()``
in-process (a subprocess costs seconds of imports for the same text).
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from cli_runs import GEOMODEL, in_process, real

from geomodel.catalog import Catalog, HardwareSystem, LinkTechnology
from geomodel.cli import analysis, main

BASE = {"source": "hand-built test entry", "source_type": "estimate"}


def _hgx() -> HardwareSystem:
    return HardwareSystem(
        name="test_hgx_8", system="Test HGX", vendor="Test", chip="T100",
        chips_per_system=8, scale_up_domain_chips=8, racks_per_system=0.25,
        bf16_dense_pflops_per_chip=1.0, hbm_gb_per_chip=80, active_power_kw_per_chip=1.25,
        idle_power_kw_per_chip=0.25, scale_up_bandwidth_gbyte_s_per_chip=900,
        scale_out_bandwidth_gbit_s_per_chip=400, mtbf_hours_per_chip=50_000,
        capex_usd_per_system=250_000, **BASE,
    )  # fmt: skip


def _rack() -> HardwareSystem:
    return _hgx().model_copy(
        update={
            "name": "test_rack_72", "system": "Test rack", "chips_per_system": 72,
            "scale_up_domain_chips": 72, "racks_per_system": 1, "capex_usd_per_system": None,
        }
    )  # fmt: skip


def _smf() -> LinkTechnology:
    return LinkTechnology(
        name="test_smf", fibre_kind="standard_smf", optics="400ZR", latency_us_per_km=5.0,
        capacity_gbit_s_per_fibre_pair=10_000, transceiver_power_w_per_gbit_s=0.1,
        amplifier_power_w_per_span=500, span_km=80, reach_km=120, route_factor=1.5, **BASE,
    )  # fmt: skip


@pytest.fixture
def hand_built(monkeypatch: pytest.MonkeyPatch) -> Catalog:
    """The commands see a catalogue of two systems and one link technology."""
    catalog = Catalog(
        hardware={"test_hgx_8": _hgx(), "test_rack_72": _rack()}, links={"test_smf": _smf()}
    )
    monkeypatch.setattr(analysis, "build_catalog", lambda: catalog)
    return catalog


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# ---- output, in process ----------------------------------------------------------


def test_size_json_has_one_row_per_system(hand_built, capsys):
    data = run_json(capsys, "size", "--chips", "1000", "--pue", "1.25", "--site-mw", "1")
    assert (data["chips"], data["pue"], data["site_mw"]) == (1000, 1.25, 1.0)
    hgx, rack = data["systems"]
    assert (hgx["system"], hgx["systems"], hgx["racks"]) == ("test_hgx_8", 125, 32)
    assert hgx["it_mw"] == pytest.approx(1.25)
    assert hgx["facility_mw"] == pytest.approx(1.5625)
    # 10 kW x 1.25 = 12.5 kW per server: 80 per 1 MW site, 125 servers -> 2 sites.
    assert hgx["sites"] == 2
    assert hgx["capex_usd"] == pytest.approx(125 * 250_000)
    assert (rack["systems"], rack["chips_installed"], rack["scale_up_domain_chips"]) == (14, 1008, 72)
    assert rack["capex_usd"] is None


def test_size_of_chosen_systems_in_the_order_given(hand_built, capsys):
    data = run_json(
        capsys, "size", "--chips", "72", "--system", "test_rack_72", "--system", "test_hgx_8"
    )
    assert [row["system"] for row in data["systems"]] == ["test_rack_72", "test_hgx_8"]


@pytest.fixture
def headers(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The column headers of every table printed, in order."""
    printed: list[list[str]] = []
    real = analysis.print_table

    def spy(rows, columns, title=None):
        printed.append(list(columns.values()))
        real(rows, columns, title)

    monkeypatch.setattr(analysis, "print_table", spy)
    return printed


def test_size_table_headers_carry_units(hand_built, headers, capsys):
    assert main(["size", "--chips", "100000", "--site-mw", "300"]) == 0
    (columns,) = headers
    for header in (
        "IT (MW)",
        "facility (MW)",
        "BF16 dense (EFLOPS)",
        "capex (USD M)",
        "sites of 300 MW",
    ):
        assert header in columns
    assert "12,500" in capsys.readouterr().out  # servers for 100,000 chips


def test_size_notes_a_system_bigger_than_the_site(hand_built, capsys):
    assert main(["size", "--chips", "72", "--system", "test_rack_72", "--site-mw", "0.05"]) == 0
    assert "more than a 0.05 MW site" in capsys.readouterr().out


def test_reliability_json(hand_built, capsys):
    data = run_json(capsys, "reliability", "--system", "test_hgx_8", "--chips", "16384",
                    "--checkpoint-minutes", "1", "--restart-minutes", "6")  # fmt: skip
    assert data["cluster_mtbf_hours"] == pytest.approx(50_000 / 16_384)
    assert data["young_interval_minutes"] == pytest.approx(60 * (2 * (1 / 60) * 50_000 / 16_384) ** 0.5)
    assert 0 < data["goodput"] < 1
    assert data["goodput"] == pytest.approx(1 - data["waste_fraction"])


def test_reliability_table_and_zero_goodput_reason(hand_built, capsys):
    assert main(["reliability", "--system", "test_hgx_8", "--chips", "10000000"]) == 0
    out = capsys.readouterr().out
    assert "cluster MTBF (h)" in out and "goodput factor g" in out  # units in the quantity names
    assert "goodput is 0:" in out and "cannot make progress" in out


def test_dci_json(hand_built, capsys):
    data = run_json(capsys, "dci", "--from", "41.15,114.70", "--to", "39.90,116.40", "--budget-ms", "10")
    assert data["geodesic_km"] == pytest.approx(200, rel=0.01)
    (smf,) = data["technologies"]
    assert smf["route_km"] == pytest.approx(1.5 * data["geodesic_km"])
    assert smf["round_trip_ms"] == pytest.approx(2 * smf["route_km"] * 5.0 / 1000)
    assert smf["within_reach"] is False
    assert smf["max_separation_km"] == pytest.approx(5_000 / (5.0 * 1.5))
    assert data["internet_round_trip_ms"] < data["internet_round_trip_ms_high"]


def test_dci_tables_and_their_units(hand_built, headers, capsys):
    assert main(["dci", "--from", "0,0", "--to", "0,1", "--route-factor", "1", "--budget-ms", "2"]) == 0
    route, links = headers
    assert "great circle (km)" in route
    for header in ("route (km)", "round trip (ms)", "W per Gb/s", "max great circle for 2 ms RTT (km)"):
        assert header in links
    assert "test_smf" in capsys.readouterr().out


# ---- bad input, through the real console script ----------------------------------

BAD_INPUT = {
    "size-chips-zero": (["size", "--chips", "0"], "--chips"),
    "size-pue-below-1": (["size", "--chips", "8", "--pue", "0.9"], "--pue"),
    "size-site-mw-zero": (["size", "--chips", "8", "--site-mw", "0"], "--site-mw"),
    "size-site-mw-inf": (["size", "--chips", "8", "--site-mw", "inf"], "--site-mw"),
    "size-unknown-system": (["size", "--chips", "8", "--system", "hgx_h10"], "--system"),
    "reliability-unknown-system": (["reliability", "--system", "nvl72", "--chips", "8"], "--system"),
    "reliability-chips-negative": (
        ["reliability", "--system", "hgx_h100_8", "--chips", "-8"],
        "--chips",
    ),
    "reliability-negative-checkpoint": (
        ["reliability", "--system", "hgx_h100_8", "--chips", "8", "--checkpoint-minutes", "-1"],
        "--checkpoint-minutes",
    ),
    "reliability-nan-restart": (
        ["reliability", "--system", "hgx_h100_8", "--chips", "8", "--restart-minutes", "nan"],
        "--restart-minutes",
    ),
    "dci-one-number": (["dci", "--from", "41.1", "--to", "39.9,116.4"], "--from"),
    "dci-latitude-out-of-range": (["dci", "--from", "41.1,114.7", "--to", "95,10"], "--to"),
    "dci-swapped": (["dci", "--from", "114.7,41.15", "--to", "39.9,116.4"], "--from"),
    "dci-unknown-technology": (
        ["dci", "--from", "41.1,114.7", "--to", "39.9,116.4", "--technology", "hollow"],
        "--technology",
    ),
    "dci-budget-nan": (["dci", "--from", "0,0", "--to", "1,1", "--budget-ms", "nan"], "--budget-ms"),
    "dci-route-factor-below-1": (
        ["dci", "--from", "0,0", "--to", "1,1", "--route-factor", "0.8"],
        "--route-factor",
    ),
}

# Parse errors raised by Typer/click before a command runs.
PARSE_ERRORS = {
    "size-chips-not-a-number": (["size", "--chips", "abc"], "--chips"),
    "reliability-missing-system": (["reliability", "--chips", "8"], "--system"),
    "dci-pue-not-an-option": (["dci", "--from", "0,0", "--to", "1,1", "--pue", "1.2"], "--pue"),
}

DEBUG = {"debug-traceback": (["--debug", "size", "--chips", "0"], "--chips")}


#: the cases run through the real console script: a closest-name hint for each command
#: and the traceback of --debug
REAL = ("size-unknown-system", "reliability-unknown-system", "dci-unknown-technology", "debug-traceback")


@pytest.fixture(scope="module")
def results(catalog) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every bad-input case, run once: REAL in subprocesses four at a time, the others
    in-process on the same installed catalogue (built once for the session)."""
    cases = {**BAD_INPUT, **PARSE_ERRORS, **DEBUG}
    with ThreadPoolExecutor(max_workers=4) as pool:
        done = dict(zip(REAL, pool.map(lambda case: real(*cases[case][0]), REAL), strict=True))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(analysis, "build_catalog", lambda: catalog)
        done |= {case: in_process(*args) for case, (args, _) in cases.items() if case not in REAL}
    return done


def test_console_script_is_installed_next_to_python():
    assert GEOMODEL.exists(), f"{GEOMODEL} missing: pip install -e . first"


@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_bad_input_is_one_line_naming_the_option_exit_2(results, case):
    _, option = BAD_INPUT[case]
    result = results[case]
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"Error: {option}: ")
    assert result.stdout == ""


def test_unknown_names_list_the_closest(results):
    assert "did you mean hgx_h100_8" in results["size-unknown-system"].stderr
    assert "gb200_nvl72" in results["reliability-unknown-system"].stderr
    assert "hcf_800zr" in results["dci-unknown-technology"].stderr


def test_swapped_coordinates_get_a_hint(results):
    assert "did you swap them? try 41.15,114.7" in results["dci-swapped"].stderr


@pytest.mark.parametrize("case", list(PARSE_ERRORS))
def test_parse_errors_exit_2_without_traceback(results, case):
    _, option = PARSE_ERRORS[case]
    result = results[case]
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "Internal error" not in result.stderr
    assert option in result.stderr


def test_debug_shows_the_traceback(results):
    result = results["debug-traceback"]
    assert result.returncode != 0
    assert "Traceback (most recent call last)" in result.stderr
    assert "UsageError: --chips: must be greater than 0" in result.stderr


# ---- the installed catalogue, through the console script -------------------------


def test_size_all_installed_systems_for_100k_chips():
    result = real("size", "--chips", "100000", "--json")
    assert result.returncode == 0, result.stderr
    rows = {row["system"]: row for row in json.loads(result.stdout)["systems"]}
    assert rows["hgx_h100_8"]["systems"] == 12_500
    assert rows["gb200_nvl72"]["systems"] == 1_389  # 100,000 / 72 rounded up
    assert rows["cloudmatrix_384"]["scale_up_domain_chips"] == 384
    assert all(row["facility_mw"] > row["it_mw"] > 0 for row in rows.values())
