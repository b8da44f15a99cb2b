"""Read scenario YAML with line numbers, following ``import:`` of other files.

Parsing is safe: the round-trip loader builds only mappings, lists and scalars,
and any YAML tag (``!!python/...`` or custom) is refused. Every value's position
is kept by field path so later problems can name the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path as FilePath
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from geomodel.scenario.merge import deep_merge
from geomodel.scenario.problems import Path, Position, Problem, ScenarioError, dotted

IMPORT_KEY = "import"
#: Scenario files larger than this are refused before parsing.
MAX_FILE_BYTES = 5 * 1024 * 1024


@dataclass
class Document:
    """Plain data read from YAML, with the position of every field path."""

    data: dict[str, Any]
    positions: dict[Path, Position] = field(default_factory=dict)
    files: list[FilePath] = field(default_factory=list)

    def position(self, path: Path) -> Position | None:
        """The position of ``path`` or of its nearest ancestor that has one."""
        for end in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:end]))
            if found is not None:
                return found
        return None


def read_document(path: str | FilePath, root: FilePath | None = None) -> Document:
    """Read ``path`` and its imports into one merged document.

    Imports are merged first, in the order listed, then the importing file on
    top. ``root`` is the folder no import may escape (the top file's folder).
    """
    path = FilePath(path)
    root = (root or path.resolve().parent).resolve()
    return _read(path.resolve(), root, chain=())


def parse_text(text: str, label: str) -> Document:
    """Parse YAML text (for example an override) into a document."""
    raw = _parse(text, label)
    return _document(raw, label)


def _read(path: FilePath, root: FilePath, chain: tuple[FilePath, ...]) -> Document:
    label = _label(path, root)
    if path in chain:
        loop = " -> ".join(_label(p, root) for p in (*chain, path))
        raise ScenarioError([Problem(IMPORT_KEY, f"circular import: {loop}")], label)
    try:
        size = path.stat().st_size
    except OSError as error:
        raise ScenarioError([Problem("", f"cannot read the file: {error.strerror}")], label) from None
    if size > MAX_FILE_BYTES:
        raise ScenarioError(
            [Problem("", f"file is {size:,} bytes; at most {MAX_FILE_BYTES:,} allowed")], label
        )
    raw = _parse(path.read_text(encoding="utf-8"), label)
    document = _document(raw, label)
    document.files.append(path)
    imports = document.data.pop(IMPORT_KEY, [])
    if isinstance(imports, str):
        imports = [imports]
    if not isinstance(imports, list) or not all(isinstance(i, str) for i in imports):
        raise ScenarioError(
            [
                Problem(
                    IMPORT_KEY,
                    "must be a file name or a list of file names",
                    document.positions.get((IMPORT_KEY,)),
                    imports,
                )
            ],
            label,
        )
    merged = Document({})
    for position, name in enumerate(imports):
        where = document.positions.get((IMPORT_KEY, position)) or document.positions.get((IMPORT_KEY,))
        target = resolve_inside(path.parent, name, root, f"{IMPORT_KEY}[{position}]", where)
        if not target.exists():
            raise ScenarioError(
                [Problem(f"{IMPORT_KEY}[{position}]", "imported file does not exist", where, name)],
                label,
            )
        merged = merge_documents(merged, _read(target, root, (*chain, path)))
    return merge_documents(merged, document)


def resolve_inside(
    base: FilePath, name: str, root: FilePath, field_path: str, where: Position | None
) -> FilePath:
    """``base / name`` resolved, refusing paths that escape ``root``."""
    target = (base / name).resolve()
    if not target.is_relative_to(root):
        raise ScenarioError(
            [Problem(field_path, f"path escapes the scenario's folder {root}", where, name)]
        )
    return target


def merge_documents(base: Document, top: Document) -> Document:
    """``top`` deep-merged over ``base``; positions of ``top`` win where it sets a value."""
    positions = {**base.positions, **top.positions}
    return Document(deep_merge(base.data, top.data), positions, [*base.files, *top.files])


def _label(path: FilePath, root: FilePath) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


def _parse(text: str, label: str) -> Any:
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        raw = yaml.load(text)
    except DuplicateKeyError as error:
        first = error.context_mark.line + 1 if error.context_mark else None
        second = error.problem_mark.line + 1 if error.problem_mark else None
        key = str(error.problem).split('"')[1] if '"' in str(error.problem) else "?"
        raise ScenarioError(
            [
                Problem(
                    key, f"duplicate key {key!r} (lines {first} and {second})", Position(label, second)
                )
            ],
            label,
        ) from None
    except MarkedYAMLError as error:
        line = error.problem_mark.line + 1 if error.problem_mark else None
        message = f"YAML syntax error: {error.problem or error.context}"
        raise ScenarioError([Problem("", message, Position(label, line))], label) from None
    except YAMLError as error:
        raise ScenarioError([Problem("", f"YAML error: {error}")], label) from None
    if raw is None:
        raise ScenarioError([Problem("", "the file is empty")], label)
    if not isinstance(raw, CommentedMap):
        raise ScenarioError(
            [
                Problem(
                    "",
                    f"the top level must be a mapping of fields, got {type(raw).__name__}",
                    Position(label, 1),
                )
            ],
            label,
        )
    return raw


def _document(raw: CommentedMap, label: str) -> Document:
    positions: dict[Path, Position] = {(): Position(label, 1)}
    problems: list[Problem] = []
    data = _plain(raw, (), label, positions, problems)
    if problems:
        raise ScenarioError(problems, label)
    return Document(data, positions)


def _plain(
    node: Any, path: Path, label: str, positions: dict[Path, Position], problems: list[Problem]
) -> Any:
    """ruamel nodes -> plain dicts, lists and scalars, recording line numbers."""
    tag = getattr(getattr(node, "tag", None), "value", None)
    if tag is not None or isinstance(node, TaggedScalar):
        problems.append(
            Problem(
                dotted(path),
                f"YAML tags such as {tag!r} are not allowed in scenario files",
                positions.get(path),
            )
        )
        return None
    if isinstance(node, CommentedMap):
        result = {}
        for key, value in node.items():
            child = (*path, str(key))
            line, _ = node.lc.key(key)
            positions[child] = Position(label, line + 1)
            result[str(key)] = _plain(value, child, label, positions, problems)
        return result
    if isinstance(node, CommentedSeq):
        items = []
        for index, value in enumerate(node):
            child = (*path, index)
            line, _ = node.lc.item(index)
            positions[child] = Position(label, line + 1)
            items.append(_plain(value, child, label, positions, problems))
        return items
    if isinstance(node, datetime):  # ruamel's TimeStamp keeps its offset in tzinfo
        return datetime.fromisoformat(node.isoformat())
    for plain_type in (bool, str, int, float):  # ruamel subclasses -> builtins
        if isinstance(node, plain_type):
            return plain_type(node)
    return node
