"""Every Python package in the tree is declared in pyproject.toml, so a plain
(non-editable) `pip install .` ships all of it."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
