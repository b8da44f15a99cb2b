"""Run a benchmark's ``_child`` mode in a fresh Python process and read its answer.

Every benchmark measures in fresh processes (imports, memory high-water marks and
caches start from nothing); the child prints one JSON dict as its last stdout line.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def python_path(tree: Path) -> str:
    """``tree`` first on the import path, with its own built-in plugins: the installed
    entry point names ``geomodel_builtins``, which an editable install maps to *this*
    checkout's plugins/, so a reference tree gets a link of that name to its own."""
    digest = hashlib.sha1(str(tree.resolve()).encode()).hexdigest()[:12]
    shim = Path(tempfile.gettempdir()) / f"geomodel-reference-builtins-{digest}"
    link = shim / "geomodel_builtins"
    if not link.exists():
        shim.mkdir(exist_ok=True)
        link.symlink_to(tree.resolve() / "plugins", target_is_directory=True)
    return os.pathsep.join([str(tree), str(shim)])


def run_fresh(
    script: str | Path,
    *args: str,
    timeout_seconds: float | None = None,
    single_threaded: bool = True,
    tree: Path | None = None,
) -> dict[str, Any]:
    """``python script _child *args`` in a new process; its last stdout line as a dict.

    ``single_threaded`` sets ``OMP_NUM_THREADS=1`` so BLAS and OpenMP do not take
    the second core from a single-threaded measurement. ``tree``: import geomodel
    (and its built-in plugins) from that source tree instead, e.g. the code before a
    change, measured by this very script (the child runs in ``tree``'s parent folder,
    so neither checkout is the current directory).
    """
    env = {**os.environ, "OMP_NUM_THREADS": "1"} if single_threaded else dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = python_path(tree)
    done = subprocess.run(
        [sys.executable, str(Path(script).resolve()), "_child", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout_seconds,
        cwd=None if tree is None else tree.resolve().parent,
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
