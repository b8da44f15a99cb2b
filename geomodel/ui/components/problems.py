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


def problem_text(problem: Problem, folder: Path | None = None) -> str:
    """``str(problem)`` (the CLI's line) with the bundled folder's prefix dropped."""
    text = str(problem)
    if folder is not None:
        text = text.replace(f"{folder}/", "")
    return text


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
