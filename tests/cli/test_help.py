"""Help reads like the commands are typed, and the schema speaks JSON Schema
(issue 13, item 16)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runs import in_process

from geomodel.cli import main

ROOT = Path(__file__).resolve().parents[2]
GEOMODEL = Path(sys.executable).with_name("geomodel")


def help_of(*command: str) -> str:
    """``geomodel COMMAND --help`` through ``geomodel.cli.main`` in-process (the console
    script prints the same text: test_the_console_script_prints_the_same_help)."""
    done = in_process(*command, "--help")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_console_script_prints_the_same_help():
    done = subprocess.run([str(GEOMODEL), "run", "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "PATH=VALUE" in done.stdout
    assert done.stdout == help_of("run")


@pytest.mark.parametrize("command", ["run", "validate", "report", "batch", "plugins", "dci"])
def test_flags_and_repeated_options_carry_no_python_type_labels(command):
    text = help_of(command)
    assert "<bool>" not in text
    assert "<list[str]>" not in text


def test_repeated_options_say_what_each_takes():
    text = help_of("run")
    assert "PATH=VALUE" in text and "NAME" in text and "TERM:N" in text


@pytest.mark.parametrize(
    ("command", "kind", "names"),
    [
        ("reliability", "hardware systems", {"hgx_h100_8", "gb200_nvl72"}),
        ("size", "hardware systems", {"hgx_h100_8", "cloudmatrix_384"}),
        ("dci", "link technologies", {"smf_400zr", "hcf_800zr"}),
    ],
)
def test_catalogue_options_list_the_names_allowed(catalog, command, kind, names):
    text = " ".join(help_of(command).replace("│", " ").split())
    assert "One of:" in text
    assert names <= set(catalog.entries(kind))  # built-in names the catalogue has
    listed = text.split("One of:")[1]
    for name in sorted(catalog.entries(kind)):
        assert name in listed, name


def test_the_schema_uses_json_schema_keywords_only(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    pydantic_only = []

    def walk(node, path):
        if isinstance(node, dict):
            if "type" in node:
                pydantic_only.extend(f"{path}/{k}" for k in ("ge", "le", "gt", "lt") if k in node)
            for key, value in node.items():
                walk(value, f"{path}/{key}")
        elif isinstance(node, list):
            for item in node:
                walk(item, path)

    walk(schema, "")
    assert pydantic_only == []
    systems = schema["$defs"]["Site"]["properties"]["systems"]["patternProperties"]
    assert next(iter(systems.values())) == {"minimum": 0, "type": "integer"}
    hours = schema["$defs"]["TimeSpec"]["properties"]["hours"]["anyOf"][0]
    assert hours["exclusiveMinimum"] == 0 and hours["type"] == "integer"
