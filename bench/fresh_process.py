"""Run a benchmark's ``_child`` mode in a fresh Python process and read its answer.

Every benchmark measures in fresh processes (imports, memory high-water marks and
caches start from nothing); the child prints one JSON dict as its last stdout line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_fresh(
    script: str | Path,
    *args: str,
    timeout_seconds: float | None = None,
    single_threaded: bool = True,
) -> dict[str, Any]:
    """``python script _child *args`` in a new process; its last stdout line as a dict.

    ``single_threaded`` sets ``OMP_NUM_THREADS=1`` so BLAS and OpenMP do not take
    the second core from a single-threaded measurement.
    """
    env = {**os.environ, "OMP_NUM_THREADS": "1"} if single_threaded else dict(os.environ)
    done = subprocess.run(
        [sys.executable, str(Path(script).resolve()), "_child", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout_seconds,
    )
    if done.returncode != 0:
        raise RuntimeError(f"child {Path(script).name} {args} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def answer_if_child(argv: list[str], child) -> bool:
    """In ``_child`` mode (``_child NAME JSON``), print ``child(NAME, JSON)`` as the one
    JSON line a parent reads, and say so; otherwise do nothing."""
    if not argv or argv[0] != "_child":
        return False
    print(json.dumps(child(argv[1], json.loads(argv[2])), default=str))
    return True
