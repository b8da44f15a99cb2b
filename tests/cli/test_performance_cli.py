"""``geomodel throughput`` and ``train-time``: each once through the real console script
(the estimates against the library's), the other cases through ``geomodel.cli.main``
in-process (the same code and exit codes without an interpreter start each)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runs import in_process

from geomodel.performance.serving import serving_estimate
from geomodel.performance.training import TrainingShape, training_estimate

GEOMODEL = Path(sys.executable).with_name("geomodel")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(GEOMODEL), *args], capture_output=True, text=True, timeout=120)


def test_throughput_prints_the_estimate_the_library_gives(catalog):
    done = run(
        "throughput", "--system", "hgx_h200_8", "--model", "llama2-70b",
        "--prompt-tokens", "220", "--output-tokens", "290", "--tpot-ms", "100", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    expected = serving_estimate(
        catalog.language_model("llama2-70b"),
        catalog.hardware_system("hgx_h200_8"),
        220,
        290,
        tpot_ms=100,
    )
    assert result["output_tokens_per_s_per_chip"] == pytest.approx(expected.output_tokens_per_s_per_chip)
    assert result["step_ms"] <= 100


def test_throughput_shapes_a_model_from_its_parameters():
    done = in_process(
        "throughput", "--system", "gb200_nvl72", "--params", "70e9", "--active-params", "70e9",
        "--prompt-tokens", "1000", "--output-tokens", "100", "--precision", "fp4",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "output tokens/s per chip" in done.stdout


def test_train_time_prints_hours_and_mfu(catalog):
    done = run(
        "train-time", "--system", "hgx_h100_8", "--chips", "512", "--params", "175e9",
        "--tokens", "1e12", "--precision", "fp8", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    shape = TrainingShape.from_params(175e9)
    expected = training_estimate(shape, catalog.hardware_system("hgx_h100_8"), 512, "fp8")
    assert result["mfu"] == pytest.approx(expected.mfu)
    # hours = 6 P D / (chips x peak x MFU)
    assert result["hours"] == pytest.approx(6 * 175e9 * 1e12 / (512 * 1.979e15 * expected.mfu) / 3600)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("throughput", "--system", "hgx_h100_8", "--model", "llama2-70b", "--prompt-tokens", "-1",
          "--output-tokens", "10"), "--prompt-tokens"),
        (("throughput", "--system", "hgx_h100_8", "--model", "llama2-70b", "--prompt-tokens", "10",
          "--output-tokens", "10", "--precision", "fp4"), "has no FP4 peak"),
        (("throughput", "--system", "hgx_h100_8", "--model", "llama3.1-405b", "--prompt-tokens", "10",
          "--output-tokens", "10", "--precision", "bf16"), "812 GB"),
        (("throughput", "--system", "hgx_h100_8", "--model", "llama2-70b", "--prompt-tokens", "10",
          "--output-tokens", "10", "--tpot-ms", "1"), "misses TPOT 1 ms"),
        (("throughput", "--system", "hgx_h100_8", "--model", "lama2-70b", "--prompt-tokens", "10",
          "--output-tokens", "10"), "did you mean"),
        (("train-time", "--system", "hgx_h100_8", "--chips", "8", "--params", "1e12",
          "--tokens", "1e9"), "GB per chip"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(args, message):
    done = in_process(*args)
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr
