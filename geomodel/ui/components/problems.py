"""Scenario problems shown as the CLI words them (file:line, field, reason), by section."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import streamlit as st

from geomodel.scenario import Problem

_MARKDOWN = re.compile(r"([\\`*_\[\]<>$~|])")


def plain(text: str) -> str:
    """Escape Markdown so a message (which may quote an upload) shows as typed."""
    return _MARKDOWN.sub(r"\\\1", text)


def hide_server_paths(text: str, folder: Path | None = None, named: str = "") -> str:
    """A message without the server's folders: the bundled folder's, an uploaded job
    table's workspace's and ``folder``'s prefix dropped from file names, and each folder
    named in words (``named`` for ``folder``)."""
    from geomodel.ui.paths import cache_dir, scenarios_dir

    workspaces = re.escape(str(Path(cache_dir()) / "uploads")) + r"/ws-[0-9a-f]+"
    text = re.sub(workspaces + "/", "", text)
    text = re.sub(workspaces, "the scenarios folder", text)
    roots = {str(scenarios_dir()): "the bundled scenarios folder"}
    if folder is not None:
        roots[str(folder)] = named or roots.get(str(folder), "the bundled scenarios folder")
    for root, words in sorted(roots.items(), key=lambda item: -len(item[0])):
        text = text.replace(f"{root}/", "").replace(root, words)
    return text


def problem_text(problem: Problem, folder: Path | None = None) -> str:
    """``str(problem)`` (the CLI's line) without the server's folders."""
    return hide_server_paths(str(problem), folder)


def show_problems(problems: Iterable[Problem], folder: Path | None = None) -> None:
    """Errors in red, warnings in amber, one per line."""
    for problem in problems:
        text = plain(problem_text(problem, folder))
        if problem.severity == "error":
            st.error(text, icon=":material/error:")
        else:
            st.warning(text, icon=":material/warning:")


#: messages listed before the rest go into an expander
SHOWN_MESSAGES = 8


def show_messages(messages: list[str]) -> None:
    """The solver's explanation as a list; a long one (one line per hour) folds away."""
    for message in messages[:SHOWN_MESSAGES]:
        st.markdown(f"- {plain(message)}")
    rest = messages[SHOWN_MESSAGES:]
    if rest:
        with st.expander(f"{len(rest)} more"):
            st.markdown("\n".join(f"- {plain(m)}" for m in rest))
