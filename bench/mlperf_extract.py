"""Extract published MLPerf LLM results into the small sourced tables of bench/data/mlperf/.

MLCommons publishes every MLPerf round as a git repository (Apache 2.0). This script reads
bare snapshots of those repositories (git directories without a work tree, as the search
tool's ``fetch`` leaves them) and writes two tables:

* ``inference.csv``: one row per closed-division (round, submitter, system, benchmark,
  scenario) of the LLM benchmarks geomodel's performance model is checked against, read
  from each result's ``performance/run_1/mlperf_log_summary.txt``;
* ``training.csv``: one row per closed-division (round, submitter, system, benchmark) of
  GPT-3 175B and Llama 3.1 405B pre-training, the score computed from the ``result_*.txt``
  logs as MLPerf Training's rules say (olympic mean times ``scaling.json``).

It also prints every result it left out and why, and how many rows agree with the round's
official ``summary_results.json`` where the snapshot has one. Usage::

    python bench/mlperf_extract.py                       # snapshots where fetch put them
    python bench/mlperf_extract.py --inference v6.0=/path/to/repo@4d3916ac --training ...
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import statistics
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MIRROR = Path("/work/.mirror")
OUT_DIR = Path(__file__).resolve().parent / "data" / "mlperf"

# round -> (git dir, commit). The v6.0 inference snapshot is a fork whose last upstream
# commit is 4d3916ac (MLCommons' own); the fork's later commits only touch open/Lattix.
DEFAULT_INFERENCE = {
    "v4.1": (MIRROR / "mlcommons+inference_results_v4.1/repo", "HEAD"),
    "v5.1": (MIRROR / "mlcommons+inference_results_v5.1/repo", "HEAD"),
    "v6.0": (
        MIRROR / "gbeezybez+inference_results_v6.0/repo",
        "4d3916ac9cf474b679cdfcf492d43a0559418ad1",
    ),
}
DEFAULT_TRAINING = {
    "v4.0": (MIRROR / "mlcommons+training_results_v4.0/repo", "HEAD"),
    "v4.1": (MIRROR / "mlcommons+training_results_v4.1/repo", "HEAD"),
    "v5.0": (MIRROR / "mlcommons+training_results_v5.0/repo", "HEAD"),
    "v5.1": (MIRROR / "mlcommons+training_results_v5.1/repo", "HEAD"),
}

# Benchmark directory names as submitters spell them -> canonical MLPerf name.
INFERENCE_BENCHMARKS = {
    "llama2-70b-99": "llama2-70b-99",
    "llama2-70b-99.9": "llama2-70b-99.9",
    "llama2-70b-interactive-99": "llama2-70b-interactive-99",
    "llama2-70b-interactive-99.9": "llama2-70b-interactive-99.9",
    "llama3.1-405b": "llama3.1-405b",
    "llama3_1-405b": "llama3.1-405b",
    "llama3.1-405b-interactive": "llama3.1-405b-interactive",
    "mixtral-8x7b": "mixtral-8x7b",
    "deepseek-r1": "deepseek-r1",
    "deepseek-r1-interactive": "deepseek-r1-interactive",
    "gpt-oss-120b": "gpt-oss-120b",
}
SCENARIOS = {"offline": "Offline", "server": "Server", "interactive": "Interactive"}
TRAINING_BENCHMARKS = ("gpt3", "llama31_405b")

# (pattern on the system JSON's accelerator name, family). First match wins, so the
# superchips (GB200/GB300) come before the GPUs whose names they contain.
ACCELERATOR_FAMILIES = (
    (r"GB300", "GB300"),
    (r"GB200", "GB200"),
    (r"B300", "B300"),
    (r"B200", "B200"),
    (r"GH200", "GH200"),
    (r"H200.*NVL|H200-NVL", "H200-NVL"),
    (r"H200", "H200-SXM"),
    (r"H100.*NVL", "H100-NVL"),
    (r"H100.*PCI", "H100-PCIe"),
    (r"H100", "H100-SXM"),
    (r"RTX ?PRO ?6000", "RTX-PRO-6000"),
    (r"Arc Pro.*B70", "Arc-Pro-B70"),
    (r"Arc Pro.*B60", "Arc-Pro-B60"),
    (r"L40S", "L40S"),
    (r"MI355X", "MI355X"),
    (r"MI350X", "MI350X"),
    (r"MI325X", "MI325X"),
    (r"MI300X", "MI300X"),
    (r"Gaudi ?3|Gaudi\(R\) 3", "Gaudi3"),
    (r"Gaudi ?2|Gaudi\(R\) 2", "Gaudi2"),
    (r"trillium|v6e", "TPU-v6e"),
    (r"v5p", "TPU-v5p"),
    (r"v5e", "TPU-v5e"),
)

# Columns both tables share: who measured what on which system, and where it is published.
SYSTEM_COLUMNS = (
    "round",
    "submitter",
    "system_name",
    "system_id",
    "category",
    "accelerator",
    "accelerator_family",
)
SCALE_COLUMNS = ("accelerators_per_node", "nodes", "total_accelerators", "host_processor")
SOURCE_COLUMNS = ("duplicate_of", "source_repo", "source_year", "source_type", "source_path")
INFERENCE_COLUMNS = (
    *SYSTEM_COLUMNS,
    "heterogeneous",
    *SCALE_COLUMNS,
    "host_processors_per_node",
    "benchmark",
    "scenario",
    "metric",
    "result_tokens_per_s",
    "result_samples_per_s",
    "summary_table_tokens_per_s",
    "summary_table_inferred",
    "ttft_limit_ms",
    "tpot_limit_ms",
    "ttft_p99_ms",
    "tpot_p99_ms",
    "accuracy_tokens_per_sample",
    "weight_data_types",
    "input_data_types",
    "weight_transformations",
    *SOURCE_COLUMNS,
)
TRAINING_COLUMNS = (
    *SYSTEM_COLUMNS,
    *SCALE_COLUMNS,
    "framework",
    "benchmark",
    "time_to_train_minutes",
    "olympic_mean_minutes",
    "scaling_factor",
    "runs_total",
    "runs_converged",
    "runs_used",
    "run_minutes",
    "global_batch_size",
    "sequence_length",
    "samples_key",
    "samples_per_run",
    "tokens_per_run",
    "tokens_normalized",
    "evals_per_run",
    "eval_samples_logged",
    "precision",
    "precision_source",
    *SOURCE_COLUMNS,
)


class GitSnapshot:
    """One commit of a bare git directory, read through a single ``git cat-file`` process.

    The snapshots have no work tree, and files of 4 MiB and more may be absent: ``read``
    returns None for those instead of failing.
    """

    def __init__(self, git_dir: Path, commit: str = "HEAD") -> None:
        self.git_dir = git_dir
        self.commit = subprocess.run(
            ["git", "--git-dir", str(git_dir), "rev-parse", commit],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        listing = subprocess.run(
            ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", self.commit],
            capture_output=True,
            check=True,
        ).stdout.decode()
        self.blobs: dict[str, str] = {}
        for entry in filter(None, listing.split("\0")):
            meta, path = entry.split("\t", 1)
            _mode, kind, blob = meta.split()
            if kind == "blob":
                self.blobs[path] = blob
        # The oldest commit is the publication ("Commit results") of the round.
        dates = subprocess.run(
            ["git", "--git-dir", str(git_dir), "log", "--reverse", "--format=%cs", self.commit],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        self.published_year = dates[0][:4] if dates else ""
        # fetch names snapshots <owner>+<name>/repo; elsewhere the folder name is kept.
        folder = git_dir.parent.name if git_dir.name == "repo" else git_dir.name
        self.source = f"{folder.replace('+', '/', 1)}@{self.commit[:12]}"
        self._cat = subprocess.Popen(
            ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def read(self, path: str) -> str | None:
        """Text of the file at ``path``, or None when it is not in the tree or not stored."""
        blob = self.blobs.get(path)
        if blob is None or self._cat.stdin is None or self._cat.stdout is None:
            return None
        self._cat.stdin.write(f"{blob}\n".encode())
        self._cat.stdin.flush()
        header = self._cat.stdout.readline().decode().split()
        if len(header) < 3 or header[1] == "missing":
            return None
        data = self._cat.stdout.read(int(header[2]) + 1)[:-1]
        return data.decode("utf-8", errors="replace")

    def read_json(self, path: str) -> dict | list | None:
        """Parsed JSON at ``path``, or None when absent or not valid JSON."""
        text = self.read(path)
        if text is None:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return None

    def close(self) -> None:
        """End the ``git cat-file`` process."""
        if self._cat.stdin is not None:
            self._cat.stdin.close()
        self._cat.wait()


@dataclass(frozen=True)
class System:
    """The fields of a submission's ``systems/<id>.json`` that the tables keep."""

    name: str
    category: str
    accelerator: str
    family: str
    accelerators_per_node: int | None
    nodes: int | None
    total_accelerators: int | None
    heterogeneous: bool
    host_processor: str
    host_processors_per_node: str
    framework: str
    division: str


def _as_int(value: object) -> int | None:
    """An integer from a JSON field that submitters write as number or string."""
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def read_system(snapshot: GitSnapshot, path: str) -> System | None:
    """The system description at ``path``; None when the file is missing or unreadable."""
    desc = snapshot.read_json(path)
    if not isinstance(desc, dict):
        return None
    accelerator = str(desc.get("accelerator_model_name", "")).strip()
    per_node = _as_int(desc.get("accelerators_per_node"))
    nodes = _as_int(desc.get("number_of_nodes"))
    # Mixed or partly filled clusters state their counts as "(xN)" after each model name.
    counts = [int(n) for n in re.findall(r"\(x\s*(\d+)\)", accelerator)]
    if counts:
        total = sum(counts)
    elif per_node is not None and nodes is not None:
        total = per_node * max(nodes, 1)
    else:
        total = None
    families = {family_of(part) for part in re.split(r"\band\b|,", accelerator) if part}
    families.discard("")
    stem = path.rsplit("/", 1)[-1].removesuffix(".json")
    return System(
        name=str(desc.get("system_name", "")).strip(),
        category=category_of(str(desc.get("status", ""))),
        accelerator=accelerator,
        family="+".join(sorted(families)) or family_of(stem),
        accelerators_per_node=per_node,
        nodes=nodes,
        total_accelerators=total,
        heterogeneous=len(counts) > 1 or len(families) > 1,
        host_processor=str(desc.get("host_processor_model_name", "")).strip(),
        host_processors_per_node=str(desc.get("host_processors_per_node", "")).strip(),
        framework=str(desc.get("framework", "")).strip(),
        division=str(desc.get("division", "")).strip().lower(),
    )


def system_fields(round_name: str, submitter: str, system_id: str, system: System) -> dict:
    """The ``SYSTEM_COLUMNS`` and ``SCALE_COLUMNS`` cells of a row."""
    return {
        "round": round_name,
        "submitter": submitter,
        "system_name": system.name,
        "system_id": system_id,
        "category": system.category,
        "accelerator": system.accelerator,
        "accelerator_family": system.family,
        "accelerators_per_node": system.accelerators_per_node,
        "nodes": system.nodes,
        "total_accelerators": system.total_accelerators,
        "host_processor": system.host_processor,
    }


def category_of(status: str) -> str:
    """MLPerf availability category (available, preview, rdi) of a system's ``status``.

    Training systems say "cloud", "onprem" or "Available on-premise" for available ones.
    """
    status = status.strip().lower()
    if "preview" in status:
        return "preview"
    if status.startswith(("rdi", "research", "development", "internal")):
        return "rdi"
    if "available" in status or status in ("cloud", "onprem", "on-premise"):
        return "available"
    return status


def family_of(accelerator: str) -> str:
    """Short accelerator family (H100-SXM, MI300X, GB200, ...) of an accelerator name."""
    for pattern, family in ACCELERATOR_FAMILIES:
        if re.search(pattern, accelerator, re.IGNORECASE):
            return family
    return ""


def _number(text: str, label: str) -> float | None:
    """The number after ``label`` and a colon in a loadgen summary, or None."""
    match = re.search(rf"^\s*{re.escape(label)}\s*:\s*([-+0-9.eE]+)\s*$", text, re.MULTILINE)
    return float(match.group(1)) if match else None


def _ns_to_ms(value: float | None) -> float | None:
    """Milliseconds from nanoseconds, keeping None."""
    return None if value is None else round(value / 1e6, 3)


def parse_loadgen_summary(text: str) -> dict[str, float | str | None]:
    """Result, validity and latency figures of one ``mlperf_log_summary.txt``."""
    valid = re.search(r"Result is\s*:\s*(\w+)", text)
    offline = _number(text, "Tokens per second")
    return {
        "valid": valid.group(1) if valid else "",
        "tokens_per_s": offline if offline is not None else _number(text, "Completed tokens per second"),
        "samples_per_s": _number(text, "Samples per second")
        if offline is not None
        else _number(text, "Completed samples per second"),
        "ttft_limit_ms": _ns_to_ms(_number(text, "ttft_latency (ns)")),
        "tpot_limit_ms": _ns_to_ms(_number(text, "tpot_latency (ns)")),
        "ttft_p99_ms": _ns_to_ms(_number(text, "99.00 percentile first token latency (ns)")),
        "tpot_p99_ms": _ns_to_ms(_number(text, "99.00 percentile time to output token (ns)")),
    }


def precision_of(
    snapshot: GitSnapshot, submitter: str, system_id: str, bench_dir: str, scenario_dir: str
) -> tuple[str, str, str]:
    """Weight and input data types and weight transformations a submission states.

    They come from the measurements JSON; "quantization" among the transformations means
    the weights ran in a narrower type than the stated (original) one.

    Rounds keep this file in different places: ``results/.../<scenario>/measurements.json``
    (v6.0), ``results/.../<scenario>/measurements/*.json`` or
    ``measurements/<system>/<benchmark>/<scenario>/*.json`` (v4.1, v5.1).
    """
    prefixes = (
        f"closed/{submitter}/results/{system_id}/{bench_dir}/{scenario_dir}/measurements",
        f"closed/{submitter}/measurements/{system_id}/{bench_dir}/{scenario_dir}/",
    )
    for path in sorted(snapshot.blobs):
        if path.endswith(".json") and path.startswith(prefixes):
            desc = snapshot.read_json(path)
            if isinstance(desc, dict) and "weight_data_types" in desc:
                return (
                    str(desc.get("weight_data_types", "")).strip(),
                    str(desc.get("input_data_types", "")).strip(),
                    str(desc.get("weight_transformations", "")).strip(),
                )
    return "", "", ""


def accuracy_tokens_per_sample(snapshot: GitSnapshot, result_dir: str) -> float | None:
    """Mean generated tokens per sample the submission's accuracy run reports."""
    text = snapshot.read(f"{result_dir}/accuracy/accuracy.txt") or ""
    match = re.search(r"tokens_per_sample['\"]?\s*:\s*([0-9.]+)", text, re.IGNORECASE)
    return round(float(match.group(1)), 2) if match else None


def summary_table(snapshot: GitSnapshot) -> dict[tuple[str, str], dict]:
    """The round's official ``summary_results.json`` keyed by (result location, scenario)."""
    table = snapshot.read_json("summary_results.json")
    if not isinstance(table, list):
        return {}
    # Rounds write the location as "closed/.../<scenario>" or "./closed/.../performance/run_1".
    return {
        (_result_dir(entry["Location"]), entry["Scenario"].lower()): entry
        for entry in table
        if isinstance(entry, dict) and "Location" in entry and "Scenario" in entry
    }


def _result_dir(location: str) -> str:
    """A result location in one spelling: lower case, no "./", no "/performance/run_1"."""
    location = location.strip().lower().removeprefix("./").rstrip("/")
    return location.removesuffix("/performance/run_1")


INFERENCE_PATH = re.compile(
    r"^closed/([^/]+)/results/([^/]+)/([^/]+)/([^/]+)/performance/run_1/mlperf_log_summary\.txt$"
)


def inference_rows(
    round_name: str, snapshot: GitSnapshot, excluded: list[str]
) -> Iterator[dict[str, object]]:
    """Rows of ``inference.csv`` for one round; reasons for left-out results go to ``excluded``."""
    official = summary_table(snapshot)
    first_seen: dict[tuple[str, str], str] = {}  # (log blob, scenario) -> first result
    for path in sorted(snapshot.blobs):
        match = INFERENCE_PATH.match(path)
        if not match:
            continue
        submitter, system_id, bench_dir, scenario_dir = match.groups()
        benchmark = INFERENCE_BENCHMARKS.get(bench_dir.lower())
        scenario = SCENARIOS.get(scenario_dir.lower())
        if benchmark is None or scenario is None:
            continue
        where = f"{round_name} {path}"
        system = read_system(snapshot, f"closed/{submitter}/systems/{system_id}.json")
        if system is None:
            excluded.append(f"{where}: no readable systems/{system_id}.json")
            continue
        if system.division not in ("", "closed"):
            excluded.append(f"{where}: system JSON says division {system.division!r}")
            continue
        text = snapshot.read(path)
        if text is None:
            excluded.append(f"{where}: summary file not stored in the snapshot")
            continue
        summary = parse_loadgen_summary(text)
        if summary["valid"] != "VALID":
            excluded.append(f"{where}: loadgen result is {summary['valid'] or 'missing'}")
            continue
        if summary["tokens_per_s"] is None:
            excluded.append(f"{where}: no tokens-per-second line")
            continue
        result_dir = path.rsplit("/performance/", 1)[0]
        entry = official.get((_result_dir(result_dir), scenario.lower()))
        weights, inputs, transformations = precision_of(
            snapshot, submitter, system_id, bench_dir, scenario_dir
        )
        if not weights and entry:
            weights = str(entry.get("weight_data_types", ""))
        blob = snapshot.blobs[path]
        result = f"{submitter}/{system_id}/{bench_dir}/{scenario_dir}"
        duplicate_of = first_seen.setdefault((blob, scenario), result)
        yield {
            **system_fields(round_name, submitter, system_id, system),
            "heterogeneous": system.heterogeneous,
            "host_processors_per_node": system.host_processors_per_node,
            "benchmark": benchmark,
            "scenario": scenario,
            "metric": "tokens/s" if scenario == "Offline" else "completed tokens/s",
            "result_tokens_per_s": summary["tokens_per_s"],
            "result_samples_per_s": summary["samples_per_s"],
            "summary_table_tokens_per_s": entry.get("Performance_Result") if entry else None,
            "summary_table_inferred": entry.get("inferred") if entry else None,
            "ttft_limit_ms": summary["ttft_limit_ms"],
            "tpot_limit_ms": summary["tpot_limit_ms"],
            "ttft_p99_ms": summary["ttft_p99_ms"],
            "tpot_p99_ms": summary["tpot_p99_ms"],
            "accuracy_tokens_per_sample": accuracy_tokens_per_sample(snapshot, result_dir),
            "weight_data_types": weights,
            "input_data_types": inputs,
            "weight_transformations": transformations,
            "duplicate_of": "" if duplicate_of == result else duplicate_of,
            **_source_columns(snapshot),
            "source_path": path,
        }


@dataclass(frozen=True)
class TrainingRun:
    """What one MLPerf Training ``result_*.txt`` log says about its run."""

    file: str
    start_ms: int | None
    stop_ms: int | None
    minutes: float | None
    converged: bool
    global_batch_size: int | None
    sequence_length: int | None
    samples: int | None
    samples_key: str
    evals: int
    eval_samples: int | None
    division: str


def _mllog_events(text: str) -> Iterator[dict]:
    """The JSON events of the ``:::MLLOG`` lines of a training log."""
    for line in text.splitlines():
        start = line.find(":::MLLOG ")
        if start < 0:
            continue
        try:
            yield json.loads(line[start + len(":::MLLOG ") :])
        except json.JSONDecodeError:
            continue


def parse_training_log(name: str, text: str, benchmark: str) -> TrainingRun:
    """Time to train and amount trained of one run.

    Time is ``run_stop`` minus ``run_start`` (the keys' ``time_ms``), as MLCommons'
    result summariser takes it. Amount trained: GPT-3 logs count **tokens** in
    ``epoch_num`` (training rules: "GPT3: training token starting from 0"), so the last
    ``eval_accuracy`` event's ``epoch_num`` is tokens; Llama 3.1 405B logs count
    **sequences** in ``samples_count`` of ``run_stop`` (or the last ``eval_accuracy``).
    """
    start = stop = None
    status = ""
    values: dict[str, object] = {}
    last_eval: dict = {}
    stop_meta: dict = {}
    evals = 0
    for event in _mllog_events(text):
        key = event.get("key")
        if key == "run_start" and start is None:
            start = event.get("time_ms")
        elif key == "run_stop":
            stop = event.get("time_ms")
            stop_meta = event.get("metadata") or {}
            status = str(stop_meta.get("status", ""))
        elif key == "eval_accuracy":
            last_eval = event.get("metadata") or {}
            evals += 1
        elif key in (
            "global_batch_size",
            "max_sequence_length",
            "submission_division",
            "eval_samples",
        ):
            values.setdefault(key, event.get("value"))
    minutes = (stop - start) / 60000 if start is not None and stop is not None else None
    sequence_length = _as_int(values.get("max_sequence_length"))
    if benchmark == "gpt3":
        samples, key = _as_int(last_eval.get("epoch_num")), "eval_accuracy.epoch_num (tokens)"
    elif "samples_count" in stop_meta:
        samples, key = _as_int(stop_meta["samples_count"]), "run_stop.samples_count (sequences)"
    else:
        samples = _as_int(last_eval.get("samples_count"))
        key = "eval_accuracy.samples_count (sequences)"
    return TrainingRun(
        file=name,
        start_ms=start,
        stop_ms=stop,
        minutes=minutes,
        converged=status == "success",
        global_batch_size=_as_int(values.get("global_batch_size")),
        sequence_length=sequence_length,
        samples=samples,
        samples_key=key,
        evals=evals,
        eval_samples=_as_int(values.get("eval_samples")),
        division=str(values.get("submission_division", "")).lower(),
    )


def olympic_score(runs: list[TrainingRun]) -> tuple[float | None, list[TrainingRun]]:
    """Mean time of the runs left after dropping the fastest and the slowest.

    A non-converged run counts as the slowest (so only the fastest converged run is then
    dropped); more than one non-converged run makes the result invalid (None). Training
    rules, "Benchmark Results".
    """
    converged = sorted((r for r in runs if r.converged and r.minutes), key=lambda r: r.minutes)
    failed = len(runs) - len(converged)
    if failed > 1:
        return None, []
    used = converged[1 : len(converged) - (1 - failed)]
    if not used:
        return None, []
    return statistics.fmean(r.minutes for r in used), used


def training_precision(
    snapshot: GitSnapshot, submitter: str, benchmark: str, system_id: str
) -> tuple[str, str]:
    """Training precision a submission's launch configuration sets, and the file saying so.

    NVIDIA-style submissions name their launch script in
    ``benchmarks/<benchmark>/implementations/*/README-<system>.md`` ("source config_X.sh");
    that script and the scripts it sources export ``FP8=True`` or ``FP4=True``. The last
    export wins, as in the shell. Submissions without such a README get no precision.
    """
    root = f"{submitter}/benchmarks/{benchmark}/"
    readme = next(
        (p for p in snapshot.blobs if p.startswith(root) and p.endswith(f"/README-{system_id}.md")),
        None,
    )
    named = re.search(r"source\s+(config_[\w.-]+\.sh)", snapshot.read(readme) or "") if readme else None
    if not named:
        return "", ""
    wanted = "/" + named.group(1)
    candidates = sorted(p for p in snapshot.blobs if p.startswith(root) and p.endswith(wanted))
    if not candidates:
        return "", ""
    local = [p for p in candidates if p.rsplit("/", 1)[0] == readme.rsplit("/", 1)[0]]
    script = (local or candidates)[0]
    flags: dict[str, str] = {}
    _follow_exports(snapshot, script, flags, set())
    if flags.get("FP4", "").lower() == "true":
        return "fp4", script
    if flags.get("FP8", "").lower() == "true":
        return "fp8", script
    return "", ""


def _follow_exports(snapshot: GitSnapshot, script: str, flags: dict[str, str], seen: set[str]) -> None:
    """Apply the ``export FP8=``/``FP4=`` lines of ``script`` and of the scripts it sources."""
    if script in seen:
        return
    seen.add(script)
    folder = script.rsplit("/", 1)[0]
    for line in (snapshot.read(script) or "").splitlines():
        sourced = re.search(r"^\s*(?:source|\.)\s+.*?(config_[\w.-]+\.sh)", line)
        if sourced:
            _follow_exports(snapshot, f"{folder}/{sourced.group(1)}", flags, seen)
        exported = re.match(r"^\s*export\s+(FP8|FP4)=[\"']?(\w+)", line)
        if exported:
            flags[exported.group(1)] = exported.group(2)


# The (run_start, run_stop) times of a result's runs: the same runs published twice.
RunKey = frozenset[tuple[int | None, int | None]]

TRAINING_PATH = re.compile(r"^([^/]+)/results/([^/]+)/([^/]+)/result_[^/]*\.txt$")


def training_rows(
    round_name: str, snapshot: GitSnapshot, excluded: list[str], seen_logs: dict[RunKey, str]
) -> Iterator[dict[str, object]]:
    """Rows of ``training.csv`` for one round; ``seen_logs`` marks logs published twice."""
    folders: dict[tuple[str, str, str], list[str]] = {}
    for path in sorted(snapshot.blobs):
        match = TRAINING_PATH.match(path)
        if match and match.group(3) in TRAINING_BENCHMARKS:
            folders.setdefault(match.groups(), []).append(path)
    for (submitter, system_id, benchmark), paths in sorted(folders.items()):
        folder = f"{submitter}/results/{system_id}/{benchmark}"
        where = f"{round_name} {folder}"
        system = read_system(snapshot, f"{submitter}/systems/{system_id}.json")
        if system is None:
            excluded.append(f"{where}: no readable systems/{system_id}.json")
            continue
        runs = []
        for path in paths:
            text = snapshot.read(path)
            if text is None:
                excluded.append(f"{where}: {path.rsplit('/', 1)[1]} not stored (4 MiB or more)")
                continue
            runs.append(parse_training_log(path.rsplit("/", 1)[1], text, benchmark))
        division = system.division or next((r.division for r in runs if r.division), "")
        if division != "closed":
            excluded.append(f"{where}: division {division!r}")
            continue
        mean_minutes, used = olympic_score(runs)
        if mean_minutes is None:
            excluded.append(f"{where}: no olympic score ({len(runs)} runs read)")
            continue
        scaling = snapshot.read_json(f"{folder}/scaling.json")
        factor = float(scaling["scaling_factor"]) if isinstance(scaling, dict) else 1.0
        # The same runs are sometimes published twice (power variants, or again in a later
        # round with edited headers): their start and stop times identify them.
        logs = frozenset((r.start_ms, r.stop_ms) for r in runs)
        duplicate_of = seen_logs.setdefault(logs, f"{round_name} {folder}")
        precision, precision_source = training_precision(snapshot, submitter, benchmark, system_id)
        samples = statistics.fmean(r.samples for r in used if r.samples is not None)
        sequence_length = used[0].sequence_length
        tokens = samples if benchmark == "gpt3" else samples * (sequence_length or 0)
        yield {
            **system_fields(round_name, submitter, system_id, system),
            "framework": system.framework,
            "benchmark": benchmark,
            "time_to_train_minutes": round(mean_minutes * factor, 3),
            "olympic_mean_minutes": round(mean_minutes, 3),
            "scaling_factor": round(factor, 6),
            "runs_total": len(runs),
            "runs_converged": sum(r.converged for r in runs),
            "runs_used": ";".join(r.file for r in used),
            "run_minutes": ";".join(
                f"{r.minutes:.3f}" if r.minutes else "nan" for r in sorted(runs, key=lambda r: r.file)
            ),
            "global_batch_size": used[0].global_batch_size,
            "sequence_length": sequence_length,
            "samples_key": used[0].samples_key,
            "samples_per_run": round(samples) if benchmark != "gpt3" else "",
            "tokens_per_run": round(tokens),
            "tokens_normalized": round(tokens * factor),
            "evals_per_run": round(statistics.fmean(r.evals for r in used), 2),
            "eval_samples_logged": used[0].eval_samples,
            "precision": precision,
            "precision_source": precision_source,
            "duplicate_of": "" if duplicate_of == f"{round_name} {folder}" else duplicate_of,
            **_source_columns(snapshot),
            "source_path": folder,
        }


def _source_columns(snapshot: GitSnapshot) -> dict[str, str]:
    """Where a row comes from: repository@commit, publication year, kind of source."""
    return {
        "source_repo": snapshot.source,
        "source_year": snapshot.published_year,
        "source_type": "benchmark",
    }


def write_csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, object]]) -> None:
    """Write ``rows`` with a fixed column order; None becomes an empty cell."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row.get(k) is None else row.get(k)) for k in columns})


def open_snapshot(round_name: str, git_dir: Path, commit: str) -> GitSnapshot:
    """The snapshot of one round, or exit with one line naming what could not be read."""
    try:
        return GitSnapshot(git_dir, commit)
    except (OSError, subprocess.CalledProcessError):
        sys.exit(
            f"mlperf_extract: round {round_name}: {git_dir} is not a readable git directory "
            f"with commit {commit!r} (give ROUND=GITDIR[@COMMIT] of a fetched snapshot)"
        )


def _source(spec: str) -> tuple[str, tuple[Path, str]]:
    """Parse ``ROUND=GITDIR[@COMMIT]`` from the command line."""
    round_name, _, rest = spec.partition("=")
    git_dir, _, commit = rest.partition("@")
    if not round_name or not git_dir:
        raise argparse.ArgumentTypeError(f"expected ROUND=GITDIR[@COMMIT], got {spec!r}")
    return round_name, (Path(git_dir), commit or "HEAD")


def main(argv: list[str] | None = None) -> int:
    """Regenerate inference.csv and training.csv from the given snapshots."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--inference", type=_source, action="append", metavar="ROUND=GITDIR[@COMMIT]")
    parser.add_argument("--training", type=_source, action="append", metavar="ROUND=GITDIR[@COMMIT]")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    args = parser.parse_args(argv)
    inference_sources = dict(args.inference or DEFAULT_INFERENCE.items())
    training_sources = dict(args.training or DEFAULT_TRAINING.items())

    excluded: list[str] = []
    inference: list[dict[str, object]] = []
    for round_name, (git_dir, commit) in inference_sources.items():
        snapshot = open_snapshot(round_name, git_dir, commit)
        print(f"inference {round_name}: {git_dir} @ {snapshot.commit}")
        inference.extend(inference_rows(round_name, snapshot, excluded))
        snapshot.close()
    training: list[dict[str, object]] = []
    seen_logs: dict[RunKey, str] = {}
    for round_name, (git_dir, commit) in training_sources.items():
        snapshot = open_snapshot(round_name, git_dir, commit)
        print(f"training {round_name}: {git_dir} @ {snapshot.commit}")
        training.extend(training_rows(round_name, snapshot, excluded, seen_logs))
        snapshot.close()

    write_csv(args.out / "inference.csv", INFERENCE_COLUMNS, inference)
    write_csv(args.out / "training.csv", TRAINING_COLUMNS, training)
    checked = [r for r in inference if r["summary_table_tokens_per_s"] not in (None, "")]
    disagree = [
        r
        for r in checked
        if abs(float(r["summary_table_tokens_per_s"]) - float(r["result_tokens_per_s"]))
        > 0.001 * float(r["result_tokens_per_s"])
    ]
    print(f"inference rows: {len(inference)}, training rows: {len(training)}")
    print(f"rows in an official summary table: {len(checked)}, disagreeing by >0.1 %: {len(disagree)}")
    for row in disagree:
        print(
            f"  disagree: {row['source_path']}: log {row['result_tokens_per_s']} "
            f"table {row['summary_table_tokens_per_s']}"
        )
    print(f"left out: {len(excluded)}")
    for line in excluded:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
