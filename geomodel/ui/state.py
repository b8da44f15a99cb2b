"""Every session-state key of the app, in one place.

Widgets with a ``key`` store their value under it; the other keys carry what
one page hands to another (the scenario being edited, the last run).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

# scenario page widgets
SOURCE = "scenario.source"  #: "Bundled scenario" or "Upload YAML"
BUNDLED = "scenario.bundled"  #: file name in the bundled folder
UPLOAD = "scenario.upload"  #: the file uploader
VARIANTS = "scenario.variants"  #: prefix: variant names of one file, in order
MAP_SIZE = "map.size_by"
MAP_LINKS = "map.link_colour_by"
#: prefix of the knob widgets; the rest of the key is the knob's field path
KNOB = "knob."
#: hash of the file + variants the knob widgets were filled from
KNOB_BASE = "knob_base"

# handed between pages
RECIPE = "recipe"  #: the Recipe of the scenario on the scenario page (knobs applied)
LAST_RUN = "last_run"  #: scenario hash of the run this session started or opened last
OPEN_RUN = "open_run"  #: the run the Results page should open next (set by the run panel)

# results and compare pages
RESULT_PICK = "results.pick"
RESULT_WORKLOAD = "results.workload"
RESULT_UTILISATION = "results.utilisation"
RESULT_LINKS = "results.links"
COMPARE_A = "compare.a"
COMPARE_B = "compare.b"
BATCH_DIR = "batch.dir"
BATCH_X = "batch.x"
BATCH_Y = "batch.y"
BATCH_COLOUR = "batch.colour"

#: prefix of the tools page's widgets
TOOLS = "tools."

#: query parameter that keeps the open result across a browser reload
RUN_PARAM = "run"


def get(key: str, default: Any = None) -> Any:
    return st.session_state.get(key, default)


def put(key: str, value: Any) -> None:
    st.session_state[key] = value


def pop(key: str) -> Any:
    return st.session_state.pop(key, None)


def variants_key(file_name: str) -> str:
    """The variant picker of one file (another file has other variants)."""
    return f"{VARIANTS}:{file_name}"


def tool_key(tool: str, name: str) -> str:
    """A widget of the tools page, e.g. ``tool_key("sizing", "chips")``."""
    return f"{TOOLS}{tool}.{name}"


def knob_key(path: str) -> str:
    return KNOB + path


def reset_knobs(base_hash: str) -> None:
    """Forget the knob widgets when the file or its variants change, so they
    start again from the new base values."""
    if st.session_state.get(KNOB_BASE) == base_hash:
        return
    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(KNOB)]:
        del st.session_state[key]
    st.session_state[KNOB_BASE] = base_hash
