"""Read scenario YAML with line numbers, following ``import:`` of other files.

Parsing is safe: the round-trip loader builds only mappings, lists and scalars,
and any YAML tag (``!!python/...`` or custom) is refused. Every value's position
is kept by field path so later problems can name the file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path as FilePath
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from geomodel.scenario.merge import deep_merge
from geomodel.scenario.problems import Path, Position, Problem, ScenarioError, dotted
from geomodel.scenario.yaml_guard import check_expansion

IMPORT_KEY = "import"
#: Scenario files larger than this are refused before parsing.
MAX_FILE_BYTES = 5 * 1024 * 1024
#: Values one file may expand to (aliases included).
MAX_VALUES = 1_000_000


@dataclass
class Document:
    """Plain data read from YAML, with the position of every field path."""

    data: dict[str, Any]
    positions: dict[Path, Position] = field(default_factory=dict)
    files: list[FilePath] = field(default_factory=list)
    #: the folder of each file read, by the name positions use for it
    folders: dict[str, FilePath] = field(default_factory=dict)

    def folder_of(self, path: Path, default: FilePath) -> FilePath:
        """The folder of the file that set ``path`` (relative paths there resolve from it)."""
        where = self.position(path)
        return self.folders.get(where.file, default) if where else default

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
    Files are named in problems as the user named the top file, so
    ``scenarios/a.yaml`` importing ``common/b.yaml`` shows ``scenarios/common/b.yaml``.
    """
    path = FilePath(path)
    shown_root = FilePath(path).parent if root is None else FilePath(root)
    root = (root or path.resolve().parent).resolve()
    return _read(path.resolve(), _Labels(root, shown_root), chain=(), via=("", None))


def parse_text(text: str, label: str) -> Document:
    """Parse YAML text (for example an override) into a document."""
    raw = _parse(text, label)
    return _document(raw, label)


@dataclass(frozen=True)
class _Labels:
    """How files under the scenario's folder are named in problems."""

    root: FilePath
    shown_root: FilePath

    def __call__(self, path: FilePath) -> str:
        try:
            return str(self.shown_root / path.relative_to(self.root))
        except ValueError:
            return str(path)


def not_utf8(raw: bytes, error: UnicodeDecodeError) -> tuple[int, str]:
    """(1-based line, words) of where ``raw`` stops being UTF-8: column and byte found."""
    line_start = raw.rfind(b"\n", 0, error.start) + 1
    line = raw.count(b"\n", 0, error.start) + 1
    byte = raw[error.start : error.start + 1].hex()
    column = error.start - line_start + 1
    return line, (
        f"the file is not UTF-8 text: byte 0x{byte} at column {column} ({error.reason}); "
        "save it as UTF-8"
    )


def _read(
    path: FilePath, labels: _Labels, chain: tuple[FilePath, ...], via: tuple[str, Position | None]
) -> Document:
    """One file and its imports; ``via`` is the import field (and its line) that named it."""
    label = labels(path)
    if path in chain:
        loop = " -> ".join(labels(p) for p in (*chain, path))
        raise ScenarioError([Problem(via[0], f"circular import: {loop}", via[1])], labels(chain[-1]))
    try:
        size = path.stat().st_size
        raw = path.read_bytes() if size <= MAX_FILE_BYTES else b""
    except OSError as error:
        raise ScenarioError(
            [Problem("", f"cannot read the file: {error.strerror}", Position(label))], label
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, what = not_utf8(raw, error)
        raise ScenarioError([Problem("", what, Position(label, line))], label) from None
    if size > MAX_FILE_BYTES:
        raise ScenarioError(
            [Problem("", f"file is {size:,} bytes; at most {MAX_FILE_BYTES:,}", Position(label))],
            label,
        )
    document = _document(_parse(text, label), label)
    document.files.append(path)
    document.folders[label] = path.parent
    imports = document.data.pop(IMPORT_KEY, [])
    if isinstance(imports, str):
        imports = [imports]
    if not isinstance(imports, list) or not all(isinstance(i, str) for i in imports):
        raise ScenarioError(
            [
                Problem(
                    IMPORT_KEY,
                    "must be a file name or a list of file names, relative to this file",
                    document.positions.get((IMPORT_KEY,)),
                    imports,
                )
            ],
            label,
        )
    merged = Document({})
    problems: list[Problem] = []
    for number, name in enumerate(imports):
        field_path = f"{IMPORT_KEY}[{number}]"
        line = document.positions.get((IMPORT_KEY, number)) or document.positions.get((IMPORT_KEY,))
        try:
            target = resolve_inside(path.parent, name, labels.root, field_path, line)
            if not target.is_file():
                raise ScenarioError(
                    [Problem(field_path, "imported file does not exist", line, name)], label
                )
            merged = merge_documents(merged, _read(target, labels, (*chain, path), (field_path, line)))
        except ScenarioError as error:
            problems.extend(error.problems)
    if problems:
        raise ScenarioError(problems, label)
    return merge_documents(merged, document)


def resolve_inside(
    base: FilePath, name: str, root: FilePath, field_path: str, where: Position | None
) -> FilePath:
    """``base / name`` resolved, refusing paths that escape ``root``."""
    target = (base / name).resolve()
    if not target.is_relative_to(root):
        raise ScenarioError(
            [
                Problem(
                    field_path,
                    f"path escapes the scenario's folder {root}; referenced files must lie inside it",
                    where,
                    name,
                )
            ],
            where.file if where else None,
        )
    return target


def merge_documents(base: Document, top: Document) -> Document:
    """``top`` deep-merged over ``base``; positions of ``top`` win where it sets a value."""
    positions = {**base.positions, **top.positions}
    files = [*base.files, *top.files]
    folders = {**base.folders, **top.folders}
    return Document(deep_merge(base.data, top.data), positions, files, folders)


class _Constructor(RoundTripConstructor):
    """The round-trip constructor, but a date-time no calendar has (month 13, hour 25,
    29 February 2025, an offset of -25:00) stays the text it was written as: the schema
    then reports it with its line and what is wrong, as it does a quoted one."""

    def construct_yaml_timestamp(self, node: ScalarNode, values: Any = None) -> Any:
        try:
            return super().construct_yaml_timestamp(node, values)
        except ValueError:
            return str(node.value)


_Constructor.add_constructor("tag:yaml.org,2002:timestamp", _Constructor.construct_yaml_timestamp)


def _parse(text: str, label: str) -> CommentedMap:
    """YAML text -> ruamel mapping; every syntax error and duplicate key is a problem."""
    yaml = YAML(typ="rt")
    yaml.Constructor = _Constructor
    try:
        root = yaml.compose(text)
        if root is not None:  # before anything walks or builds the expanded tree
            check_expansion(root, label, MAX_VALUES)
        duplicates = _duplicate_keys(root, (), label) if root is not None else []
        if duplicates:
            raise ScenarioError(duplicates, label)
        raw = yaml.constructor.construct_document(root) if root is not None else None
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else None
        message = f"YAML syntax error: {error.problem or error.context}"
        started = error.context_mark.line if error.context_mark else None
        if error.context and error.problem_mark and started not in (None, error.problem_mark.line):
            message += f" ({error.context} started at line {started + 1})"
        raise ScenarioError([Problem("", message, Position(label, line))], label) from None
    except YAMLError as error:
        raise ScenarioError([Problem("", f"YAML error: {error}", Position(label))], label) from None
    except RecursionError:
        raise ScenarioError(
            [Problem("", "the YAML is nested too deeply to read", Position(label))], label
        ) from None
    if raw is None:
        raise ScenarioError(
            [Problem("", "the file is empty; a scenario is a mapping of fields", Position(label))],
            label,
        )
    if not isinstance(raw, CommentedMap):
        raise ScenarioError(
            [
                Problem(
                    "",
                    f"the top level must be a mapping of fields (time:, sites:, ...), got {_kind(raw)}",
                    Position(label, 1),
                )
            ],
            label,
        )
    return raw


def _duplicate_keys(node: Node, path: Path, label: str) -> list[Problem]:
    """Every key given twice in one mapping, with the lines of both, anywhere in the tree."""
    problems: list[Problem] = []
    if isinstance(node, MappingNode):
        first_line: dict[str, int] = {}
        for key, value in node.value:
            tag = str(getattr(key.tag, "value", key.tag))
            if not isinstance(key, ScalarNode) or tag == "tag:yaml.org,2002:merge":
                continue
            line = key.start_mark.line + 1
            if key.value in first_line:
                problems.append(
                    Problem(
                        dotted((*path, key.value)),
                        f"duplicate key {key.value!r} (lines {first_line[key.value]} and {line}); "
                        "each key may appear once in a mapping",
                        Position(label, line),
                    )
                )
            else:
                first_line[key.value] = line
            problems += _duplicate_keys(value, (*path, key.value), label)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.value):
            problems += _duplicate_keys(item, (*path, index), label)
    return problems


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"[:80]
    return f"a {type(value).__name__}"


def _document(raw: CommentedMap, label: str) -> Document:
    plain = _Plain(label)
    data = plain.convert(raw, ())
    if plain.problems:
        raise ScenarioError(plain.problems, label)
    return Document(data, plain.positions)


@dataclass
class _Plain:
    """ruamel nodes -> plain dicts, lists and scalars, recording line numbers.

    Aliases are expanded; a file that would expand to more than :data:`MAX_VALUES`
    values ("billion laughs") is refused by :func:`check_expansion` before this
    runs, and the count here stays as a second guard.
    """

    label: str
    positions: dict[Path, Position] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    values: int = 0

    def __post_init__(self) -> None:
        self.positions[()] = Position(self.label, 1)

    def convert(self, node: Any, path: Path) -> Any:
        self.values += 1
        if self.values > MAX_VALUES:
            if self.values == MAX_VALUES + 1:
                self._problem(path, f"the file expands to more than {MAX_VALUES:,} values (aliases?)")
            return None
        tag = getattr(getattr(node, "tag", None), "value", None)
        if tag is not None or isinstance(node, TaggedScalar):
            self._problem(path, f"YAML tags such as {tag!r} are not allowed in scenario files")
            return None
        if isinstance(node, CommentedMap):
            return {str(k): self.convert(v, self._at(node, path, k)) for k, v in node.items()}
        if isinstance(node, CommentedSeq):
            return [self.convert(v, self._at(node, path, i)) for i, v in enumerate(node)]
        if isinstance(node, datetime):  # ruamel's TimeStamp keeps its offset in tzinfo
            return datetime.fromisoformat(node.isoformat())
        for plain_type in (bool, str, int, float):  # ruamel subclasses -> builtins
            if isinstance(node, plain_type):
                return plain_type(node)
        if node is None or isinstance(node, date):
            return node
        self._problem(path, f"a YAML {type(node).__name__} value is not allowed here")
        return None

    def _at(self, node: CommentedMap | CommentedSeq, path: Path, key: Any) -> Path:
        """The child's path, with its line (a key from a ``<<`` merge has the mapping's line)."""
        child = (*path, key if isinstance(key, int) and isinstance(node, CommentedSeq) else str(key))
        try:
            line, _ = node.lc.item(key) if isinstance(node, CommentedSeq) else node.lc.key(key)
            self.positions[child] = Position(self.label, line + 1)
        except (KeyError, IndexError, TypeError):
            if path in self.positions:
                self.positions[child] = self.positions[path]
        return child

    def _problem(self, path: Path, message: str) -> None:
        self.problems.append(Problem(dotted(path), message, self.positions.get(path)))
