"""Uploads and typed paths cannot hurt the server, and refusals show on the page
(issue 15, items 9-11), under streamlit.testing."""

from __future__ import annotations

import re
import tomllib

import pytest

import geomodel.scenario.files as files
from geomodel.ui import state
from geomodel.ui.paths import MAX_UPLOAD_BYTES, RESULTS_ROOT_ENV, SERVER_UPLOAD_MB, scenarios_dir

from .conftest import REPO, page, unescape

#: ``](http`` not preceded by a backslash: a live Markdown link
LIVE_LINK = re.compile(r"(?<!\\)\]\(http")


def bomb(levels: int) -> bytes:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return ("\n".join(lines) + f"\nname: [*a{levels - 1}]\n").encode()


def upload(app, name: str, data: bytes):
    at = app().run()
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    at.file_uploader(key=state.UPLOAD).set_value((name, data, "application/octet-stream")).run()
    assert not at.exception
    return at


def errors(at) -> list[str]:
    return [unescape(e.value) for e in at.error]


def test_the_server_takes_in_at_most_its_configured_upload_size():
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == SERVER_UPLOAD_MB
    # the app's own limit is below it, so a somewhat larger file is refused in words
    assert MAX_UPLOAD_BYTES < SERVER_UPLOAD_MB * 1024 * 1024


def test_the_uploader_takes_any_name_and_the_servers_limit(app):
    at = app().run()
    at.radio(key=state.SOURCE).set_value("Upload YAML").run()
    uploader = at.file_uploader(key=state.UPLOAD)
    assert uploader.proto.max_upload_size_mb == SERVER_UPLOAD_MB
    assert list(uploader.proto.type) == []  # no browser-side type filter: names are checked here


def test_an_alias_bomb_upload_is_refused_on_the_page_without_expanding(app, monkeypatch):
    def expanded(*_args, **_kwargs):
        raise AssertionError("the aliases were expanded")

    monkeypatch.setattr(files._Plain, "convert", expanded)
    monkeypatch.setattr(files, "_duplicate_keys", expanded)
    at = upload(app, "bomb.yaml", bomb(10))
    shown = errors(at)
    assert any("refused before expanding them" in e for e in shown), shown
    assert not [b for b in at.button if b.label.startswith("Run")]


def test_a_too_large_upload_is_refused_on_the_page(app):
    at = upload(app, "big.yaml", b"#" * (MAX_UPLOAD_BYTES + 1))
    shown = errors(at)
    assert shown[0] == "The upload big.yaml was refused:"
    assert f"at most {MAX_UPLOAD_BYTES:,}" in shown[1]


def test_a_file_that_is_not_yaml_is_refused_in_words(app):
    at = upload(app, "../../etc/passwd", b"root:x:0:0:root:/root:/bin/bash\n")
    shown = errors(at)
    assert shown[0] == "The upload passwd was refused:"
    assert "a scenario is a YAML file named *.yaml or *.yml (got '../../etc/passwd')" in shown[1]
    assert not any("MIME" in e or "octet" in e for e in shown)


def test_markdown_in_an_upload_shows_as_typed(app):
    evil = "[click](http://evil.example/)"
    text = (scenarios_dir() / "quickstart.yaml").read_text()
    text = text.replace("name: quickstart", f'name: "**{evil}**"', 1)
    text = text.replace("description:", f'description: "{evil}" #', 1)
    at = upload(app, f"{evil}.yaml", text.encode())
    shown = [
        e.value for kind in ("markdown", "caption", "subheader", "error", "info") for e in at.get(kind)
    ]
    assert any("evil.example" in value for value in shown)  # the name is on the page
    for value in shown:
        assert not LIVE_LINK.search(value), value
    broken = text.replace("power_envelope: 100 MW", "power_envelope: lots", 1)
    at = upload(app, f"{evil}.yaml", broken.encode())
    for value in [e.value for e in at.error]:
        assert not LIVE_LINK.search(value), value


@pytest.mark.parametrize("typed", ["/etc", "..", "../..", "~"])
def test_the_batch_folder_box_reads_only_under_the_results_root(app, tmp_path, monkeypatch, typed):
    monkeypatch.setenv(RESULTS_ROOT_ENV, str(tmp_path))
    at = app().run()
    page(at, "compare")
    at.text_input(key=state.BATCH_DIR).input(typed).run()
    assert not at.exception
    shown = errors(at)
    assert len(shown) == 1 and "is outside the results folder" in shown[0], shown
    assert "manifest.csv" not in shown[0]  # nothing was looked up there


def test_a_symlink_out_of_the_root_is_refused(app, tmp_path, monkeypatch):
    root = tmp_path / "root"
    root.mkdir()
    (root / "escape").symlink_to("/etc")
    monkeypatch.setenv(RESULTS_ROOT_ENV, str(root))
    at = app().run()
    page(at, "compare")
    at.text_input(key=state.BATCH_DIR).input("escape").run()
    assert "is outside the results folder" in errors(at)[0]
