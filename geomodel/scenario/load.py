"""Load a scenario: read YAML, apply variants and overrides, validate, check, hash.

``load_scenario`` is the one way in; it reports every problem of the file at
once as a :class:`ScenarioError` and otherwise returns a validated
:class:`Scenario` whose ``origin`` records the files, variants, resolved time
series and the scenario hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path as FilePath
from typing import Any

import pandas as pd
from pydantic import ValidationError

from geomodel.catalog import Catalog, build_catalog
from geomodel.errors import closest_names
from geomodel.scenario.checks import check_scenario
from geomodel.scenario.errors import problems_from_validation
from geomodel.scenario.files import Document, merge_documents, parse_text, read_document, resolve_inside
from geomodel.scenario.jobtable import read_job_tables
from geomodel.scenario.merge import nest
from geomodel.scenario.problems import Position, Problem, ScenarioError
from geomodel.scenario.schema import Scenario
from geomodel.scenario.timeseries import SeriesError, daily_shape_series, read_csv_series
from geomodel.scenario.workload_tables import read_workload_tables

VARIANTS_KEY = "variants"
#: Sections whose entries are named by the user; a --set into an entry must name one
#: that exists (a single field cannot make a new site: it lacks the required ones).
NAMED_SECTIONS = {
    "sites": "site",
    "regions": "region",
    "training": "training job",
    "inference": "inference service",
}


class SetOptions(list):
    """``--set path=value`` items as typed on the command line.

    Pass them as ``overrides=SetOptions([...])`` and problems name the option
    (``--set sites.a.pue``); other overrides are named as the API's argument
    (``overrides['sites.a.pue']``).
    """


class ParsedSetOptions(dict):
    """:class:`SetOptions` parsed into path -> value, still named as ``--set``."""


def override_position(path: str, command_line: bool) -> Position:
    """Where an override came from, in the words its author used."""
    return Position(f"--set {path}" if command_line else f"overrides[{path!r}]")


@dataclass
class ScenarioOrigin:
    """Provenance of a loaded scenario."""

    path: FilePath | None
    folder: FilePath
    variants: tuple[str, ...]
    overrides: dict[str, Any]
    document: Document
    warnings: list[Problem] = field(default_factory=list)
    demand_series: dict[tuple[str, str], pd.Series] = field(default_factory=dict)
    profile_series: dict[tuple[str, str], pd.Series] = field(default_factory=dict)
    grid_series: dict[tuple[str, str], pd.Series] = field(default_factory=dict)
    #: job tables read as columns, and how problems name each table's file
    job_tables: dict[str, Any] = field(default_factory=dict)
    job_table_labels: dict[str, Any] = field(default_factory=dict)
    #: (prompt, output) mean tokens per request of services given a token-length table
    token_lengths: dict[str, tuple[float, float]] = field(default_factory=dict)
    #: job-size tables of pools given as files (columns chips, jobs, optional gpu_hours)
    pool_sizes: dict[str, Any] = field(default_factory=dict)
    referenced_files: list[FilePath] = field(default_factory=list)
    plugin_versions: dict[str, str] = field(default_factory=dict)
    scenario_hash: str = ""


def load_scenario(
    path: str | FilePath,
    variants: Iterable[str] = (),
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    catalog: Catalog | None = None,
) -> Scenario:
    """Read, merge, validate and check a scenario file.

    ``variants`` are names from the file's ``variants`` section, applied in order.
    ``overrides`` maps dotted field paths to values (``{"objective.carbon_price": 50}``)
    or is a list of ``"path=value"`` strings as given to ``--set``.
    """
    path = FilePath(path)
    document = read_document(path)
    return _resolve(document, str(path), path, path.resolve().parent, variants, overrides, catalog)


def load_scenario_text(
    text: str,
    folder: str | FilePath,
    label: str = "<uploaded>",
    variants: Iterable[str] = (),
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    catalog: Catalog | None = None,
) -> Scenario:
    """Like :func:`load_scenario` for YAML text (an upload); files resolve inside ``folder``."""
    document = parse_text(text, label)
    if "import" in document.data:
        where = document.positions.get(("import",))
        raise ScenarioError([Problem("import", "imports are not allowed in text input", where)], label)
    return _resolve(document, label, None, FilePath(folder).resolve(), variants, overrides, catalog)


def _resolve(
    document: Document,
    label: str,
    path: FilePath | None,
    folder: FilePath,
    variants: Iterable[str],
    overrides: Mapping[str, Any] | Iterable[str] | None,
    catalog: Catalog | None,
) -> Scenario:
    given = tuple(variants)
    variants = tuple(dict.fromkeys(given))  # a repeated variant applies once, where first given
    override_map = parse_overrides(overrides)
    command_line = isinstance(override_map, ParsedSetOptions)
    expand_shorthands(document.data)
    base = document
    document = _apply_variants(document, variants, label)
    unknown = _unknown_entries(document, override_map, command_line)
    unknown.update(_list_items(document, override_map, command_line))
    applied = {k: v for k, v in override_map.items() if k not in unknown}
    document = _apply_overrides(document, applied, command_line)
    try:
        scenario = Scenario.model_validate(document.data)
    except ValidationError as error:
        found = problems_from_validation(error, Scenario, document)
        raise ScenarioError([*unknown.values(), *found], label) from None
    if unknown:
        raise ScenarioError(list(unknown.values()), label)
    catalog = catalog if catalog is not None else build_catalog()
    origin = ScenarioOrigin(path, folder, variants, override_map, document)
    scenario._origin = origin
    problems = read_workload_tables(scenario, origin)
    problems += _resolve_series(scenario, origin)
    problems += _read_job_tables(scenario, origin, catalog)
    problems += check_scenario(scenario, catalog, document)
    if any(p.severity == "error" for p in problems):
        raise ScenarioError(problems, label)
    problems += _check_other_variants(base, variants, override_map, catalog, command_line, folder)
    problems += [
        Problem(
            f"{VARIANTS_KEY}.{name}",
            f"variant {name!r} is asked for {given.count(name)} times; applied once, where first given",
            base.position((VARIANTS_KEY, name)),
            severity="warning",
        )
        for name in variants
        if given.count(name) > 1
    ]
    origin.warnings = problems
    origin.plugin_versions = catalog.versions()
    origin.scenario_hash = scenario_hash(scenario)
    return scenario


def expand_shorthands(data: dict[str, Any]) -> dict[str, Any]:
    """Write a bare demand (``chat: 30e6 token/s``) as ``{constant: ...}``, in place.

    Variants and ``--set`` can then add fields such as ``scale`` to it as to any
    other demand, instead of replacing the number.
    """
    regions = data.get("regions")
    for region in regions.values() if isinstance(regions, dict) else ():
        demands = region.get("demand") if isinstance(region, dict) else None
        for service, demand in demands.items() if isinstance(demands, dict) else ():
            if isinstance(demand, int | float | str) and not isinstance(demand, bool):
                demands[service] = {"constant": demand}
    return data


def _apply_overrides(
    document: Document, overrides: dict[str, Any], command_line: bool = False
) -> Document:
    """Override values over the document; the override names the field, any section it
    adds, and every field inside a mapping it gives."""
    for dotted_path, value in overrides.items():
        keys = tuple(dotted_path.split("."))
        where = override_position(dotted_path, command_line)
        positions = {
            keys[:end]: where
            for end in range(1, len(keys) + 1)
            if end == len(keys) or keys[:end] not in document.positions
        }
        positions.update({(*keys, *inner): where for inner in _inner_paths(value)})
        document = merge_documents(document, Document(nest(dotted_path, value), positions))
    return document


def _inner_paths(value: Any) -> list[tuple]:
    """Every key path inside a mapping or list value."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return []
    return [(key, *inner) for key, item in items for inner in [(), *_inner_paths(item)]]


def _unknown_entries(
    document: Document, overrides: dict[str, Any], command_line: bool
) -> dict[str, Problem]:
    """Overrides of a field inside a site, region, job or service that does not exist,
    by override path."""
    problems = {}
    for dotted_path in overrides:
        keys = dotted_path.split(".")
        kind = NAMED_SECTIONS.get(keys[0])
        if kind is None or len(keys) < 3:
            continue  # a whole entry (sites.x={...}) may be added
        existing = document.data.get(keys[0])
        names = list(existing) if isinstance(existing, dict) else []
        if keys[1] in names:
            continue
        close = closest_names(keys[1], names)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        known = f"known: {', '.join(names)}" if names else f"the scenario has no {kind}s"
        problems[dotted_path] = Problem(
            f"{keys[0]}.{keys[1]}",
            f"unknown {kind} {keys[1]!r}{hint} ({known}); an override changes fields of an "
            f"existing {kind}, and a new {kind} needs all its fields: give the whole entry "
            f"({keys[0]}.{keys[1]}={{...}}) or add it to the file",
            override_position(dotted_path, command_line),
        )
    return problems


def _list_items(document: Document, overrides: dict[str, Any], command_line: bool) -> dict[str, Problem]:
    """Overrides of one item of a list (``links.routes.0.length``, ``routes[0]``), by
    override path: an override replaces a list whole, it cannot reach inside one."""
    problems = {}
    for dotted_path in overrides:
        keys = dotted_path.split(".")
        node: Any = document.data
        for depth, key in enumerate(keys):
            name, bracket, _ = key.partition("[")
            node = node.get(name) if isinstance(node, dict) else None
            inside = depth + 1 < len(keys) or bracket
            if isinstance(node, list) and inside:
                field_path = ".".join([*keys[:depth], name])
                problems[dotted_path] = Problem(
                    field_path,
                    f"is a list, and an override replaces a list whole: give all of it "
                    f"({field_path}=[...]) or edit the item in the file",
                    override_position(dotted_path, command_line),
                )
                break
    return problems


def _check_other_variants(
    base: Document,
    applied: tuple[str, ...],
    overrides: dict[str, Any],
    catalog: Catalog,
    command_line: bool = False,
    folder: FilePath | None = None,
) -> list[Problem]:
    """Warnings for each variant not applied that would fail if it were applied alone.

    A typo in a variant should not wait for the day someone picks it; but a
    variant meant to stack on another may fail alone, so these are warnings.
    """
    defined = base.data.get(VARIANTS_KEY)
    if not isinstance(defined, dict):
        return []
    warnings: list[Problem] = []
    for name in defined:
        if name in applied:
            continue
        try:
            document = _apply_overrides(_apply_variants(base, (name,), ""), overrides, command_line)
            scenario = Scenario.model_validate(document.data)
            origin = ScenarioOrigin(None, folder or FilePath("."), (name,), overrides, document)
            scenario._origin = origin  # the tables its workloads name, as the base reads them
            found = read_workload_tables(scenario, origin) + check_scenario(scenario, catalog, document)
        except ValidationError as error:
            found = problems_from_validation(error, Scenario, document)
        except ScenarioError as error:
            found = error.problems
        warnings += [
            replace(p, message=f"with variant {name!r}: {p.message}", severity="warning")
            for p in found
            if p.severity == "error"
        ]
    return warnings


def parse_overrides(overrides: Mapping[str, Any] | Iterable[str] | None) -> dict[str, Any]:
    """``["a.b=1", "c=x"]`` or a mapping -> ``{"a.b": 1, "c": "x"}`` (values read as YAML).

    Every malformed item is reported at once, each named as it was given: as ``--set``
    for :class:`SetOptions`, as the ``overrides`` argument otherwise.
    """
    if overrides is None:
        return {}
    if isinstance(overrides, ParsedSetOptions):
        return overrides
    if isinstance(overrides, Mapping):
        return dict(overrides)
    command_line = isinstance(overrides, SetOptions)
    parsed: dict[str, Any] = ParsedSetOptions() if command_line else {}
    problems: list[Problem] = []
    for item in overrides:
        key, sep, text = item.partition("=")
        where = Position(f"--set {item}" if command_line else f"overrides item {item!r}")
        if not sep or not key.strip() or "" in key.strip().split("."):
            problems.append(Problem("", "expected path.to.field=value", where))
            continue
        try:
            value_doc = parse_text(f"value: {text}" if text.strip() else "value: null", where.file)
        except ScenarioError as error:
            problems += [replace(p, path=key.strip(), position=where) for p in error.problems]
            continue
        parsed[key.strip()] = value_doc.data["value"]
    if problems:
        raise ScenarioError(problems, "command line" if command_line else "overrides")
    return parsed


def _apply_variants(document: Document, names: tuple[str, ...], label: str) -> Document:
    defined = document.data.get(VARIANTS_KEY) or {}
    if not isinstance(defined, dict):
        return document  # the schema reports the wrong type
    unknown = [n for n in names if n not in defined]
    if unknown:
        known = ", ".join(defined) or "none defined"
        where = document.position((VARIANTS_KEY,))
        raise ScenarioError(
            [
                Problem(VARIANTS_KEY, f"unknown variant {n!r}; known variants: {known}", where)
                for n in unknown
            ],
            label,
        )
    for name in names:
        prefix = (VARIANTS_KEY, name)
        positions = {
            key[2:]: where
            for key, where in document.positions.items()
            if key[:2] == prefix and len(key) > 2
        }
        patch = defined[name] or {}
        if not isinstance(patch, dict):
            raise ScenarioError(
                [
                    Problem(
                        f"{VARIANTS_KEY}.{name}",
                        "a variant must be a mapping of fields",
                        document.positions.get(prefix),
                        patch,
                    )
                ],
                label,
            )
        document = merge_documents(document, Document(expand_shorthands(patch), positions))
    return document


def _requests_as_tokens(scenario, origin, where, service, series, problems) -> pd.Series | None:
    """A demand in requests/s as output tokens/s: times the service's output tokens per
    request (a problem when the service says none)."""
    spec = scenario.inference.get(service)
    output = spec.output_tokens if spec is not None else None
    if spec is not None and output is None:
        output = origin.token_lengths.get(service, (None, None))[1]
    if output is None:
        problems.append(
            Problem(
                ".".join(where),
                f"a demand in requests/s needs the output tokens per request of service "
                f"{service!r} ('output_tokens' or 'token_lengths')",
                origin.document.position(where),
            )
        )
        return None
    return series * output


def _resolve_series(scenario: Scenario, origin: ScenarioOrigin) -> list[Problem]:
    """Read every demand and profile series onto the hourly horizon."""
    problems: list[Problem] = []
    index = scenario.time.hourly_index()
    document = origin.document

    def read(
        where: tuple, csv: str, column: str, fraction: bool, negative: bool = False
    ) -> pd.Series | None:
        try:
            base = document.folder_of(where, origin.folder)
            target = resolve_inside(
                base, csv, origin.folder, ".".join(map(str, where)), document.position(where)
            )
            series = read_csv_series(target, column, index, fraction=fraction, negative=negative)
        except ScenarioError as error:
            problems.extend(error.problems)
            return None
        except SeriesError as error:
            problems.append(Problem(".".join(map(str, where)), str(error), document.position(where)))
            return None
        origin.referenced_files.append(target)
        return series

    for region_name, region in scenario.regions.items():
        for service, demand in region.demand.items():
            where = ("regions", region_name, "demand", service)
            if demand.constant is not None:
                series = pd.Series(demand.constant, index=index)
            elif demand.daily_shape is not None:
                series = daily_shape_series(demand.daily_shape, demand.mean, region.lon, index)
            else:
                series = read((*where, "csv"), demand.csv, demand.column, fraction=False)
            if series is not None and demand.per_request:
                series = _requests_as_tokens(scenario, origin, where, service, series, problems)
            if series is not None:
                origin.demand_series[(region_name, service)] = series * demand.scale
    for site_name, site in scenario.sites.items():
        supplies = [(("power_sources", n), n, supply) for n, supply in site.power_sources.items()]
        if site.build is not None:  # a source only built here may bring its own profile
            supplies += [
                (("build", "power_sources", n), n, o) for n, o in site.build.power_sources.items()
            ]
        for section, source, supply in supplies:
            if supply.profile_csv is not None and (site_name, source) not in origin.profile_series:
                where = ("sites", site_name, *section, "profile_csv")
                series = read(where, supply.profile_csv, supply.profile_column, fraction=True)
                if series is not None:
                    origin.profile_series[(site_name, source)] = series
        for kind, own in (("price", site.grid_price), ("carbon", site.grid_carbon)):
            if own is not None and own.csv is not None:
                where = ("sites", site_name, f"grid_{kind}", "csv")
                series = read(where, own.csv, own.column, fraction=False, negative=kind == "price")
                if series is not None:
                    origin.grid_series[(site_name, kind)] = series
    return problems


def _read_job_tables(scenario: Scenario, origin: ScenarioOrigin, catalog: Catalog) -> list[Problem]:
    """Read every job table into ``origin`` (geomodel.scenario.jobtable); its files join the hash."""
    tables, labels, files, problems = read_job_tables(scenario, origin.document, origin.folder, catalog)
    origin.job_tables, origin.job_table_labels = tables, labels
    origin.referenced_files.extend(files)
    return problems


def scenario_hash(scenario: Scenario) -> str:
    """SHA-256 over the canonical resolved scenario, referenced files and plugin versions.

    Equal questions hash equal: key order, comments and unused variants do not count.
    """
    origin: ScenarioOrigin = scenario.origin
    canonical = scenario.model_dump(mode="json", exclude={VARIANTS_KEY})
    digest = hashlib.sha256()
    digest.update(json.dumps(canonical, sort_keys=True, separators=(",", ":")).encode())
    for file in sorted(set(origin.referenced_files)):
        digest.update(file.name.encode())
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    digest.update(json.dumps(origin.plugin_versions, sort_keys=True).encode())
    return digest.hexdigest()
