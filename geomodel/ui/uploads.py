"""Uploads kept on the server, so a reload or a shared link finds them (no streamlit).

An uploaded scenario is kept in the run cache by the SHA-256 of its text; the page's
address names it (``?upload=<digest>``), so a reload opens it again instead of dropping it
silently. An uploaded job table replaces one of a scenario's tables: it is checked by the
library's own job-table loader when the scenario loads (the CLI's checks and error lines),
from a workspace folder holding a copy of the bundled scenarios and the table, so that the
scenario reads it as ``geomodel run FILE --set job_tables.NAME.file=TABLE`` would.

    <cache>/uploads/<digest>.json       {"name": ..., "text": ...}   an uploaded scenario
    <cache>/uploads/ws-<digest>/        the bundled scenarios and one uploaded job table
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from geomodel.batch.store import write_json_atomic
from geomodel.scenario import Problem, ScenarioError
from geomodel.scenario.problems import Position

UPLOADS = "uploads"
#: what an uploaded job table's file name must end with (the library reads both)
TABLE_SUFFIXES = (".csv", ".parquet")
#: the prefix an uploaded table's file gets in its workspace (no clash with bundled files)
TABLE_PREFIX = "uploaded-"
_DIGEST = re.compile(r"^[0-9a-f]{32}$")
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


class UploadStore:
    """The uploads kept in one run cache folder."""

    def __init__(self, cache: str | Path) -> None:
        self.folder = Path(cache) / UPLOADS

    def save(self, name: str, text: str) -> str:
        """Keep an uploaded scenario; returns its digest (for the page's address)."""
        digest = digest_of(text.encode("utf-8"))
        path = self.folder / f"{digest}.json"
        if not path.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            write_json_atomic(path, {"name": name, "text": text})
        return digest

    def load(self, digest: str) -> tuple[str, str] | None:
        """An uploaded scenario's name and text, or None when the server does not have it."""
        if not _DIGEST.match(digest or ""):
            return None
        try:
            data = json.loads((self.folder / f"{digest}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return str(data.get("name", "upload.yaml")), str(data.get("text", ""))

    def workspace(self, digest: str) -> Path:
        return self.folder / f"ws-{digest}"

    def save_table(self, name: str, data: bytes, bundled: Path) -> tuple[str, str]:
        """Put an uploaded job table beside a copy of the bundled scenarios; returns the
        workspace's digest and the table's file name in it."""
        file_name = table_file_name(name)
        digest = digest_of(file_name.encode() + b"\0" + data)
        folder = self.workspace(digest)
        if not (folder / file_name).exists():
            staging = folder.with_name(folder.name + ".tmp")
            shutil.rmtree(staging, ignore_errors=True)
            shutil.copytree(bundled, staging, symlinks=False)
            (staging / file_name).write_bytes(data)
            shutil.rmtree(folder, ignore_errors=True)
            staging.rename(folder)
        return digest, file_name

    def table_workspace(self, digest: str) -> Path | None:
        """The workspace of an uploaded job table, or None when the server has none."""
        if not _DIGEST.match(digest or ""):
            return None
        folder = self.workspace(digest)
        return folder if folder.is_dir() else None


def table_file_name(name: str) -> str:
    """The uploaded table's name as kept: its last part, safe characters only, prefixed."""
    last = name.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return TABLE_PREFIX + (_SAFE.sub("_", last).lstrip(".") or "jobs.csv")


def check_table_upload(name: str, data: bytes, most_bytes: int) -> None:
    """An uploaded job table's name and size; raises :class:`ScenarioError` in words."""
    where = Position(name.replace("\\", "/").rsplit("/", 1)[-1] or "upload")
    if not name.lower().endswith(TABLE_SUFFIXES):
        raise ScenarioError(
            [Problem("", f"a job table is a file named *.csv or *.parquet (got {name!r})", where)], name
        )
    if len(data) > most_bytes:
        raise ScenarioError(
            [Problem("", f"the file is {len(data):,} bytes; at most {most_bytes:,}", where)], name
        )
