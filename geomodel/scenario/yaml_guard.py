"""Refuse YAML whose aliases would expand it beyond a size limit, before expanding anything.

An alias (``*name``) repeats an anchored node (``&name``); aliases of aliases
multiply, so a few hundred bytes can stand for billions of values ("billion
laughs"). The composer keeps every anchored node once and shares it between its
aliases, so the size the document *would* expand to can be counted on that
graph in one pass over its distinct nodes (memoised by node), without building
the expansion. Counting follows what :mod:`geomodel.scenario.files` converts:
one value per scalar, list and mapping, and the values under each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ruamel.yaml.nodes import MappingNode, Node, SequenceNode

from geomodel.scenario.problems import Path, Position, Problem, ScenarioError, dotted

#: Values aliases may add to those written in a file: room for a shape or a site
#: template reused many times, far below what takes a noticeable time to expand.
MAX_ALIAS_VALUES = 100_000


@dataclass
class _Count:
    """Expanded sizes of the nodes seen so far, and where the limit was first passed."""

    limit: int
    sizes: dict[int, int] = field(default_factory=dict)
    open_nodes: set[int] = field(default_factory=set)
    too_big: tuple[Path, Node] | None = None
    recursive: tuple[Path, Node] | None = None

    def size(self, node: Node, path: Path) -> int:
        key = id(node)
        if key in self.sizes:  # an alias of a node counted before
            return self.sizes[key]
        if key in self.open_nodes:  # an alias of a node that contains it
            self.recursive = self.recursive or (path, node)
            return self.limit + 1
        self.open_nodes.add(key)
        total = 1
        for child_path, child in _children(node, path):
            total += self.size(child, child_path)
            if total > self.limit:
                break  # no need to count further: the answer is "too big"
        self.open_nodes.discard(key)
        self.sizes[key] = total
        if total > self.limit and self.too_big is None:
            self.too_big = (path, node)  # the first (smallest) node past the limit
        return total


def _children(node: Node, path: Path) -> list[tuple[Path, Node]]:
    if isinstance(node, MappingNode):
        return [(_key_path(path, key), value) for key, value in node.value]
    if isinstance(node, SequenceNode):
        return [((*path, index), item) for index, item in enumerate(node.value)]
    return []


def _key_path(path: Path, key: Node) -> Path:
    return (*path, str(getattr(key, "value", "?")))


def _distinct_nodes(root: Node) -> int:
    """Nodes as written in the file (an anchored node once, however often it is aliased)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(child for _, child in _children(node, ()))
    return len(seen)


def check_expansion(root: Node, label: str, limit: int, alias_limit: int = MAX_ALIAS_VALUES) -> None:
    """Raise :class:`ScenarioError` if ``root`` would expand to more than ``limit`` values,
    or aliases would add more than ``alias_limit`` values to those written, or an alias
    refers to a node that contains it. Costs two passes over the distinct nodes."""
    written = _distinct_nodes(root)
    limit = min(limit, written + alias_limit)
    count = _Count(limit)
    count.size(root, ())
    if count.recursive is not None:
        path, node = count.recursive
        raise ScenarioError(
            [
                Problem(
                    dotted(path),
                    "an alias refers to a node that contains it (a recursive YAML alias); "
                    "a scenario cannot be infinite",
                    Position(label, node.start_mark.line + 1),
                )
            ],
            label,
        )
    if count.too_big is not None:
        path, node = count.too_big
        raise ScenarioError(
            [
                Problem(
                    dotted(path),
                    f"YAML aliases expand the file to more than {limit:,} values ({written:,} "
                    f"written, at most {alias_limit:,} more repeated by aliases); refused "
                    "before expanding them",
                    Position(label, node.start_mark.line + 1),
                )
            ],
            label,
        )
