"""Module attributes imported on first use (PEP 562), so importing a package stays light."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_getattr(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``names[name]`` (a module path) when asked."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's fixed name
        if name in names:
            return getattr(import_module(names[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
