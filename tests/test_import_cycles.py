"""No import circle through the plugin contract or the scenario checks (STYLE.md: the
``catalog/registry`` <-> ``plugin_loader`` <-> ``hookspecs`` circle and the
``scenario/checks`` <-> ``build_checks``, ``signal_checks``, ``weather_checks`` one, and
its like through ``pathway_checks`` and ``service_checks``: each takes ``Checker`` from
``scenario/checker``).

Edges are the module-level imports of each module, those under ``TYPE_CHECKING`` too
(a type-only circle still ties the modules together); imports inside functions are
deferred on purpose and do not count.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "geomodel"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_level_imports(tree: ast.Module) -> list[ast.stmt]:
    """Import statements at module level, and inside module-level ``if`` blocks."""
    found: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            found.extend(n for n in node.body if isinstance(n, ast.Import | ast.ImportFrom))
    return found


def targets_of(node: ast.stmt, modules: dict) -> set[str]:
    """The geomodel modules an import statement names: ``from geomodel import hookspecs``
    is an edge to ``geomodel.hookspecs``, not to the package (whose ``__init__`` every
    submodule import runs anyway)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names} & set(modules)
    submodules = {f"{node.module}.{alias.name}" for alias in node.names} & set(modules)
    if submodules:
        return submodules
    return {node.module} & set(modules)


@cache
def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in top_level_imports(ast.parse(path.read_text(encoding="utf-8"))):
            edges |= {t for t in targets_of(node, modules) if t != name}
        graph[name] = edges
    return graph


def reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, stack = set(), [start]
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            stack.extend(graph.get(node, ()))
    return False


@pytest.mark.parametrize(
    "module",
    [
        "geomodel.hookspecs",
        "geomodel.plugin_loader",
        "geomodel.catalog.registry",
        "geomodel.scenario.checks",
        "geomodel.scenario.checker",
        "geomodel.scenario.build_checks",
        "geomodel.scenario.signal_checks",
        "geomodel.scenario.weather_checks",
        "geomodel.scenario.extension_checks",
        "geomodel.scenario.job_checks",
        "geomodel.scenario.pathway_checks",
        "geomodel.scenario.service_checks",
        "geomodel.results.extension_results",
        "geomodel.errors",
    ],
)
def test_no_import_circle_runs_through(module):
    graph = import_graph()
    circle = sorted(other for other in graph[module] if reaches(graph, other, module))
    assert not circle, f"{module} imports {circle}, which import it back"
