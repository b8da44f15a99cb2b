"""The plugin contract is documented, twice, and the two agree.

Every hookspec in geomodel.hookspecs documents its parameters, return, units, when
it is called, whether it is firstresult and the API version it was added in; and
docs/plugins.md has a section for every hook and none for a hook that does not
exist (in the manner of datasette's tests/test_docs.py). Code in the guide that
says which file it comes from must still match that file.
"""

from __future__ import annotations

import inspect
import re
import textwrap
import tomllib
from pathlib import Path

import pytest

from geomodel import hookspecs
from geomodel.catalog import HardwareSystem, LinkTechnology, PowerSource, WeatherPoint
from geomodel.plugin_loader import DISABLE_ENV, STRICT_ENV

ROOT = Path(__file__).resolve().parents[1]
GUIDE_PATH = ROOT / "docs" / "plugins.md"
GUIDE = GUIDE_PATH.read_text(encoding="utf-8")

SPEC_MARKER = f"{hookspecs.PROJECT_NAME}_spec"
HOOKS = {
    name: function
    for name, function in vars(hookspecs).items()
    if inspect.isfunction(function) and hasattr(function, SPEC_MARKER)
}
SECTIONS = ("Returns", "Units", "Called", "firstresult", "Added in")


def arguments(hook) -> list[str]:
    return list(inspect.signature(hook).parameters)


def docstring_sections(hook) -> dict[str, str]:
    """``Header:`` lines at the left margin of the docstring -> the text under them."""
    sections: dict[str, str] = {}
    current = None
    for line in (inspect.getdoc(hook) or "").splitlines():
        header = re.fullmatch(r"([A-Za-z][A-Za-z ]*):\s*(.*)", line)
        if header:
            current = header.group(1)
            sections[current] = header.group(2)
        elif current is not None:
            sections[current] += "\n" + line
    return {name: textwrap.dedent(text).strip() for name, text in sections.items()}


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_there_are_hooks_for_each_part_of_the_contract():
    assert {
        "register_hardware_systems",
        "register_link_technologies",
        "register_power_sources",
        "validate_scenario",
        "extend_model",
    } <= set(HOOKS)


# --- the hookspec docstrings ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_each_hookspec_has_a_summary_and_every_section(name):
    hook = HOOKS[name]
    doc = inspect.getdoc(hook) or ""
    assert doc.splitlines() and doc.splitlines()[0].strip(), f"{name} has no summary line"
    sections = docstring_sections(hook)
    missing = [s for s in SECTIONS if not sections.get(s)]
    assert not missing, f"hookspec {name} lacks the docstring sections {missing}"


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_each_hookspec_documents_each_parameter(name):
    hook = HOOKS[name]
    sections = docstring_sections(hook)
    if not arguments(hook):
        assert "Parameters" not in sections, f"{name} takes no arguments but documents some"
        return
    assert sections.get("Parameters"), f"hookspec {name} takes arguments but has no Parameters"
    documented = re.findall(r"^(\w+):", sections["Parameters"], flags=re.MULTILINE)
    assert documented == arguments(hook), f"{name}: Parameters lists {documented}"


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_each_hookspec_says_truly_whether_it_is_firstresult(name):
    hook = HOOKS[name]
    firstresult = getattr(hook, SPEC_MARKER)["firstresult"]
    said = docstring_sections(hook)["firstresult"].lower()
    assert said.startswith("yes" if firstresult else "no"), f"{name}: firstresult says {said!r}"
    if firstresult:
        assert "first non-none" in said, f"{name} should say that the first non-None result wins"


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_each_hookspec_was_added_in_a_released_api_version(name):
    added = docstring_sections(HOOKS[name])["Added in"]
    found = re.fullmatch(r"plugin API (\d+\.\d+)\.?", added)
    assert found, f"{name}: 'Added in' should read 'plugin API X.Y', not {added!r}"
    assert version_tuple(found.group(1)) <= version_tuple(hookspecs.PLUGIN_API_VERSION)


# --- docs/plugins.md -------------------------------------------------------------------


def hook_reference() -> str:
    found = re.search(r"^## Hook reference\n(.*?)(?=^## )", GUIDE, flags=re.MULTILINE | re.DOTALL)
    assert found, "docs/plugins.md has no '## Hook reference' section"
    return found.group(1)


def documented_hooks() -> dict[str, tuple[list[str], str]]:
    """Hook name -> (arguments in its heading, the text of its section)."""
    parts = re.split(r"^### `(\w+)\(([^)]*)\)`\s*$", hook_reference(), flags=re.MULTILINE)
    return {
        name: ([a.strip() for a in args.split(",") if a.strip()], text)
        for name, args, text in zip(parts[1::3], parts[2::3], parts[3::3], strict=True)
    }


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_the_guide_has_a_section_for_each_hook(name):
    sections = documented_hooks()
    assert name in sections, f"docs/plugins.md has no '### `{name}(...)`' section"
    heading_args, text = sections[name]
    assert heading_args == arguments(HOOKS[name]), f"the heading of {name} lists {heading_args}"
    for argument in arguments(HOOKS[name]):
        assert f"`{argument}`" in text, f"the section on {name} does not explain `{argument}`"
    for label in ("Parameters", "Returns", "Units", "Called", "firstresult", "Added in"):
        assert f"**{label}:**" in text, f"the section on {name} lacks **{label}:**"
    added = docstring_sections(HOOKS[name])["Added in"].rstrip(".")
    assert added in text, f"the section on {name} should say it was added in {added}"


def test_every_hook_in_the_guide_exists():
    assert set(documented_hooks()) <= set(HOOKS)
    mentioned = set(re.findall(r"`((?:register|validate|extend)_\w+)", GUIDE))
    assert mentioned <= set(HOOKS), f"the guide names hooks that do not exist: {mentioned - set(HOOKS)}"


@pytest.mark.parametrize("entry_class", [HardwareSystem, LinkTechnology, PowerSource, WeatherPoint])
def test_the_guide_explains_every_entry_field(entry_class):
    missing = [field for field in entry_class.model_fields if f"`{field}`" not in GUIDE]
    assert not missing, f"docs/plugins.md does not explain {entry_class.__name__} fields {missing}"


def test_the_guide_names_every_built_in_plugin():
    """The built-ins register through the public entry-point group, and the guide says so."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    builtins = list(pyproject["project"]["entry-points"][hookspecs.PROJECT_NAME])
    assert builtins
    missing = [name for name in builtins if f"`{name}`" not in GUIDE]
    assert not missing, f"docs/plugins.md does not name the built-in plugins {missing}"


def test_the_guide_names_the_switches_and_versions_the_code_uses():
    for text in (
        STRICT_ENV,
        DISABLE_ENV,
        f"`{hookspecs.PROJECT_NAME}` entry-point group",
        f"(now `{hookspecs.PLUGIN_API_VERSION}`)",
        "GEOMODEL_PLUGIN_API",
        "geomodel plugins --json",
    ):
        assert text in GUIDE.replace("**", "`").replace("``", "`"), text


# --- code in the guide that comes from a file -------------------------------------------

SNIPPET = re.compile(r"<!-- from: (?P<path>\S+) -->\n```\w*\n(?P<code>.*?)\n```", re.DOTALL)


def snippets() -> list[tuple[str, str]]:
    return [(m.group("path"), m.group("code")) for m in SNIPPET.finditer(GUIDE)]


def test_the_guide_quotes_the_example_plugin():
    quoted = {path for path, _ in snippets()}
    assert "examples/geomodel-example-plugin/pyproject.toml" in quoted
    assert "examples/geomodel-example-plugin/geomodel_example_plugin/__init__.py" in quoted


@pytest.mark.parametrize(
    ("path", "code"), snippets(), ids=[f"{p}:{i}" for i, (p, _) in enumerate(snippets())]
)
def test_each_quoted_snippet_matches_its_file(path, code):
    source = ROOT / path
    assert source.is_file(), f"docs/plugins.md quotes {path}, which does not exist"
    lines = [line.rstrip() for line in source.read_text(encoding="utf-8").splitlines()]
    quoted = [line.rstrip() for line in code.splitlines()]
    starts = [i for i in range(len(lines)) if lines[i : i + len(quoted)] == quoted]
    assert starts, f"this snippet in docs/plugins.md no longer matches {path}:\n{code}"


def test_every_repository_path_the_guide_names_exists():
    paths = set(re.findall(r"`((?:examples|geomodel|tests|docs)/[\w./-]+)`", GUIDE))
    assert paths, "the guide should point at the files it describes"
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"docs/plugins.md names files that do not exist: {missing}"


# --- the version map (issue 24, item 7) -------------------------------------------------


def release_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2])


def test_every_plugin_api_version_maps_to_the_geomodel_release_that_provides_it():
    from importlib.metadata import version

    history = hookspecs.PLUGIN_API_HISTORY
    assert list(history)[-1] == hookspecs.PLUGIN_API_VERSION, "the current version is mapped last"
    releases = [release_tuple(r) for r in history.values()]
    assert releases == sorted(releases), "a later API version cannot come with an earlier release"
    # this geomodel provides the current version: its release is at least the one mapped
    assert release_tuple(version("geomodel")) >= release_tuple(history[hookspecs.PLUGIN_API_VERSION])
    for name, hook in HOOKS.items():
        added = re.fullmatch(r"plugin API (\d+\.\d+)\.?", docstring_sections(hook)["Added in"]).group(1)
        assert added in history, f"{name} was added in {added}, which the version map lacks"


def test_the_version_map_is_the_same_in_the_guide_and_the_hookspecs_docstring():
    for api, release in hookspecs.PLUGIN_API_HISTORY.items():
        assert f"| {api} | {release} |" in GUIDE, f"docs/plugins.md lacks the row of API {api}"
        row = re.search(rf"^{re.escape(api)}\s+{re.escape(release)}\s", hookspecs.__doc__, re.M)
        assert row, f"the hookspecs docstring lacks the row of API {api}"
