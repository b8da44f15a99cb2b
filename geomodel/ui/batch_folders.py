"""Batch folders the Compare page may read: only under the results root.

The page takes a folder name typed by whoever uses the app, so it is resolved
(symlinks followed) and refused unless it lies under ``results_root()``
(``$GEOMODEL_APP_RESULTS_ROOT``, else the folder the server started in); the
folders found there are offered by name.
"""

from __future__ import annotations

from pathlib import Path

from geomodel.batch.store import MANIFEST


def inside_root(root: Path, typed: str) -> Path:
    """``typed`` (relative to ``root``, or absolute) resolved, symlinks followed; raises
    ValueError unless it lies inside ``root``."""
    target = (root / Path(typed).expanduser()).resolve()
    if not target.is_relative_to(root):
        raise ValueError(
            f"{typed} is outside the results folder {root}; batch folders are read only from under it"
        )
    return target


#: folders never searched for batch runs
_SKIPPED = {"node_modules", "__pycache__", "site-packages"}


def batch_folders(root: Path, depth: int = 3, most: int = 50) -> list[str]:
    """Folders under ``root`` (at most ``depth`` levels down, hidden ones skipped) that
    hold a batch run's manifest, relative to ``root``, sorted."""
    found: list[str] = []
    level = [root]
    for _ in range(depth + 1):
        following = []
        for folder in level:
            try:
                children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
            except OSError:
                continue
            if (folder / MANIFEST).is_file():
                found.append(str(folder.relative_to(root)) if folder != root else ".")
            following += [c for c in children if not c.name.startswith(".") and c.name not in _SKIPPED]
        level = following
        if len(found) >= most:
            break
    return sorted(found)[:most]
