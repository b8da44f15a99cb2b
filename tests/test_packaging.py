"""Every Python package in the tree is declared in pyproject.toml, so a plain
(non-editable) `pip install .` ships all of it."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: import name -> folder, as pyproject's package-dir maps them
ROOTS = {"geomodel": REPO / "geomodel", "geomodel_builtins": REPO / "plugins"}


def declared() -> set[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["packages"])


def on_disk() -> set[str]:
    """Folders holding Python modules, as dotted package names."""
    found = set()
    for name, root in ROOTS.items():
        for module in root.rglob("*.py"):
            if "__pycache__" in module.parts:
                continue
            relative = module.parent.relative_to(root)
            found.add(".".join((name, *relative.parts)))
    return found


def test_every_folder_with_python_code_is_a_declared_package():
    missing = on_disk() - declared()
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {sorted(missing)}"


def test_every_declared_package_has_an_init_module():
    for package in declared():
        name, *rest = package.split(".")
        folder = ROOTS[name].joinpath(*rest)
        assert (folder / "__init__.py").is_file(), f"{package}: {folder}/__init__.py is missing"


def test_the_output_folders_the_docs_write_to_are_ignored_by_git():
    """Issue 13, item 17: `geomodel batch ... -o sweep-out` (README) left a folder git
    wanted to add. Every `-o` folder of a batch command in the README and docs/batch.md
    must be matched by a .gitignore pattern."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    folders = set()
    for doc in (REPO / "README.md", REPO / "docs" / "batch.md"):
        for line in doc.read_text(encoding="utf-8").splitlines():
            found = re.search(r"geomodel batch \S+ -o ([a-z0-9][\w./-]*)", line)  # not OUTDIR
            if found and not found.group(1).startswith(("/", "~")):  # inside the checkout
                folders.add(found.group(1))
    assert "sweep-out" in folders
    for folder in sorted(folders):
        done = subprocess.run(
            ["git", "check-ignore", "-q", f"{folder}/manifest.csv"], cwd=REPO, check=False
        )
        assert done.returncode == 0, f"{folder}/ is not ignored by .gitignore"
