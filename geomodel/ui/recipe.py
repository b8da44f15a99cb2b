"""What the app solves: a scenario file (bundled or uploaded), variants and ``--set`` overrides.

A :class:`Recipe` is plain data, so it can be cached on, shown as the
equivalent ``geomodel run`` command, and sent to a background process that
loads the very same scenario again. Loading goes through the library's
``load_scenario`` / ``load_scenario_text`` only: uploads are parsed safely
(no tags, no imports, size-limited) and every file they name must lie inside
the bundled scenarios folder.
"""

from __future__ import annotations

import io
import json
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from ruamel.yaml import YAML

from geomodel.catalog import Catalog
from geomodel.scenario import Problem, Scenario, ScenarioError, load_scenario, load_scenario_text
from geomodel.scenario.load import ParsedSetOptions
from geomodel.scenario.problems import Position
from geomodel.ui.paths import MAX_UPLOAD_BYTES

Source = Literal["bundled", "upload"]


@dataclass(frozen=True)
class Recipe:
    """A scenario file, the variants applied in order, and dotted-path overrides."""

    source: Source
    name: str  #: file name in the bundled folder, or the upload's name
    text: str = field(default="", repr=False)  #: the uploaded YAML (uploads only)
    variants: tuple[str, ...] = ()
    overrides_json: str = "{}"  #: JSON object: dotted field path -> value
    #: an uploaded job table's workspace (``ui.uploads``): the file loads from a copy of the
    #: bundled folder that holds the table; "" for the bundled folder itself
    workspace: str = ""

    @property
    def overrides(self) -> dict[str, Any]:
        return json.loads(self.overrides_json)

    def with_overrides(self, overrides: dict[str, Any]) -> Recipe:
        return replace(self, overrides_json=json.dumps(overrides, sort_keys=True))

    def with_variants(self, variants: tuple[str, ...] | list[str]) -> Recipe:
        return replace(self, variants=tuple(variants))

    def set_args(self) -> list[str]:
        """The overrides as ``--set`` arguments (values as JSON, which YAML reads alike)."""
        return [f"{path}={_yaml_value(value)}" for path, value in self.overrides.items()]

    def command(self, folder_label: str = "scenarios") -> str:
        """The ``geomodel run`` command that solves the same scenario."""
        target = f"{folder_label}/{self.name}" if self.source == "bundled" else self.name
        parts = ["geomodel", "run", target]
        for variant in self.variants:
            parts += ["--variant", variant]
        for item in self.set_args():
            parts += ["--set", item]
        return shlex.join(parts)

    def label(self, most: int = 4) -> str:
        """A human name: file, variants and the changes, e.g.
        ``quickstart.yaml + tight_sla · carbon_price=50, hours=24``."""
        text = self.name
        if self.variants:
            text += " + " + ", ".join(self.variants)
        changes = describe_overrides(self.overrides)
        if changes:
            shown = ", ".join(changes[:most])
            more = len(changes) - most
            text += " · " + shown + (f" (+{more} more)" if more > 0 else "")
        return text

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "name": self.name,
            "text": self.text,
            "variants": list(self.variants),
            "overrides_json": self.overrides_json,
            "workspace": self.workspace,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recipe:
        return cls(
            source=data["source"],
            name=data["name"],
            text=data.get("text", ""),
            variants=tuple(data.get("variants", ())),
            overrides_json=data.get("overrides_json", "{}"),
            workspace=data.get("workspace", ""),
        )

    def with_workspace(self, workspace: str) -> Recipe:
        return replace(self, workspace=workspace)


def describe_overrides(overrides: dict[str, Any]) -> list[str]:
    """The overrides in short words: ``carbon_price=50``, ``abilene.power_envelope=150``,
    ``abilene.max MW=300`` (a build cap), ``demand scale=1.5`` (one entry for the demand
    knob's many paths)."""
    words: list[str] = []
    scales: list[float] = []
    for path, value in overrides.items():
        parts = path.split(".")
        if path == "time.end":
            continue  # goes with time.hours
        if parts[0] == "regions" and parts[-1] == "scale":
            scales.append(float(value))
            continue
        if parts[0] == "sites" and parts[2:3] == ["build"]:  # a build cap
            name = f"{parts[1]}.max " + ("MW" if parts[3] == "power_envelope" else parts[-2])
        elif parts[0] == "sites":
            name = ".".join(p for i, p in enumerate(parts[1:]) if not (i == 1 and p == "systems"))
        else:
            name = parts[-1]
        words.append(f"{name}={_short(value)}")
    if scales:
        same = len(set(scales)) == 1
        words.append(f"demand scale={_short(scales[0])}" if same else f"demand scales ({len(scales)})")
    return words


def _short(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _yaml_value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)


def load_recipe(recipe: Recipe, catalog: Catalog, folder: Path) -> Scenario:
    """Load and validate; raises :class:`ScenarioError` with every problem. The knobs'
    overrides are ``--set`` options, and their problems say so, in the CLI's words. A
    recipe with a job table upload loads from its workspace (a copy of ``folder`` that
    holds the table)."""
    if recipe.workspace:
        folder = workspace_folder(recipe.workspace)
    folder = folder.resolve()
    overrides = ParsedSetOptions(recipe.overrides)
    if recipe.source == "bundled":
        path = (folder / recipe.name).resolve()
        if path.parent != folder or not path.is_file():
            raise ScenarioError(
                [Problem("", f"no bundled scenario named {recipe.name!r}", Position(recipe.name))],
                recipe.name,
            )
        return load_scenario(path, recipe.variants, overrides, catalog)
    return load_scenario_text(recipe.text, folder, recipe.name, recipe.variants, overrides, catalog)


def workspace_folder(digest: str) -> Path:
    """Where an uploaded job table's workspace lies (in the run cache); a problem in words
    when the server no longer has it."""
    from geomodel.ui.paths import cache_dir
    from geomodel.ui.uploads import UploadStore

    found = UploadStore(cache_dir()).table_workspace(digest)
    if found is None:
        raise ScenarioError(
            [Problem("job_tables", "the uploaded job table is no longer on the server; upload it again")]
        )
    return found


def job_tables_defined(recipe: Recipe, folder: Path) -> dict[str, str]:
    """Job table name -> its file, as the file (with its variants unapplied) names them."""
    tables = _document_data(recipe, folder).get("job_tables")
    if not isinstance(tables, dict):
        return {}
    return {str(k): str(v.get("file", "")) for k, v in tables.items() if isinstance(v, dict)}


#: what an uploaded scenario's file name must end with
UPLOAD_SUFFIXES = (".yaml", ".yml")


def upload_label(name: str) -> str:
    """An uploaded file's name as shown: the last part only (a browser may send any text)."""
    last = name.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return last or "upload.yaml"


def upload_text(name: str, data: bytes) -> str:
    """Check an uploaded file's name, size and encoding; raises :class:`ScenarioError`."""
    where = Position(upload_label(name))
    if not name.lower().endswith(UPLOAD_SUFFIXES):
        raise ScenarioError(
            [Problem("", f"a scenario is a YAML file named *.yaml or *.yml (got {name!r})", where)],
            upload_label(name),
        )
    if len(data) > MAX_UPLOAD_BYTES:
        raise ScenarioError(
            [Problem("", f"the file is {len(data):,} bytes; at most {MAX_UPLOAD_BYTES:,}", where)],
            name,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError(
            [Problem("", f"the file is not UTF-8 text ({error.reason})", where)], name
        ) from None


def address_params(recipe: Recipe) -> dict[str, list[str]]:
    """A bundled recipe as page-address parameters (``?scenario=...&variant=...&set=...``);
    an upload has none (its text does not fit an address)."""
    if recipe.source != "bundled":
        return {}
    return {
        "scenario": [recipe.name],
        "variant": list(recipe.variants),
        "set": [f"{path}={json.dumps(value)}" for path, value in recipe.overrides.items()],
    }


def from_address(params: dict[str, list[str]]) -> tuple[Recipe | None, dict[str, Any], list[str]]:
    """The bundled recipe (without overrides), the overrides and the ``set`` items that
    could not be read, from page-address parameters as :func:`address_params` writes them."""
    names = params.get("scenario") or []
    if not names:
        return None, {}, []
    found: dict[str, Any] = {}
    unread: list[str] = []
    for item in params.get("set", []):
        path, sep, text = item.partition("=")
        try:
            if not sep or not path:
                raise ValueError(item)
            found[path] = json.loads(text)
        except ValueError:
            unread.append(item)
    return Recipe("bundled", names[0], variants=tuple(params.get("variant", []))), found, unread


def _document_data(recipe: Recipe, folder: Path) -> dict:
    """The file's top-level data, read without validating it ({} when it does not parse)."""
    from geomodel.scenario.files import parse_text, read_document

    try:
        if recipe.source == "bundled":
            document = read_document((folder / recipe.name).resolve())
        else:
            document = parse_text(recipe.text, recipe.name)
    except ScenarioError:
        return {}
    return document.data if isinstance(document.data, dict) else {}


def variants_defined(recipe: Recipe, folder: Path) -> list[str]:
    """Variant names the file defines, read without validating it (for the picker)."""
    defined = _document_data(recipe, folder).get("variants")
    return [str(name) for name in defined] if isinstance(defined, dict) else []


def resolved_yaml(scenario: Scenario, recipe: Recipe) -> str:
    """The resolved scenario (variants and overrides applied) as a YAML file that
    loads to the same scenario hash; numbers are in each field's documented unit."""
    data = scenario.model_dump(mode="json", exclude={"variants"}, exclude_none=True)
    yaml = YAML(typ="safe")
    yaml.default_flow_style = False
    yaml.sort_base_mapping_type_on_output = False
    yaml.width = 100
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    origin = scenario.origin
    header = [
        f"# Resolved scenario: {recipe.label()}",
        f"# Equivalent command: {recipe.command()}",
        f"# Scenario hash: {origin.scenario_hash if origin else ''}",
        "# Numbers are in each field's documented unit (docs/scenarios.md); variants are applied.",
    ]
    return "\n".join(header) + "\n" + buffer.getvalue()
