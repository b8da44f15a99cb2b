"""Two ways to run a geomodel command in a test, both giving a ``CompletedProcess``.

``real`` starts the installed console script in a subprocess, as a user meets it: each
command keeps at least one such test. ``in_process`` calls the same ``main()`` the
script calls, with stdout and stderr captured: the same exit code and text without the
5-8 s of interpreter start and imports each subprocess costs on a loaded 2-core machine,
for the many tests that check what a command prints.
"""

from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from geomodel.cli import main

GEOMODEL = Path(sys.executable).with_name("geomodel")


def real(*args: object, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``geomodel *args`` through the console script next to this Python."""
    return subprocess.run(
        [str(GEOMODEL), *map(str, args)], capture_output=True, text=True, timeout=timeout, check=False
    )


def in_process(*args: object) -> subprocess.CompletedProcess[str]:
    """``geomodel *args`` through ``geomodel.cli.main`` in this process (no ``--debug``:
    in-process it raises where the script prints the traceback)."""
    argv = [str(arg) for arg in args]
    assert "--debug" not in argv, "--debug is checked through the real console script"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return subprocess.CompletedProcess(["geomodel", *argv], code, out.getvalue(), err.getvalue())
