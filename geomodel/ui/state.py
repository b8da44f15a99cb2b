"""Every session-state key of the app, in one place.

Widgets with a ``key`` store their value under it, but Streamlit forgets a
widget's key when a page without that widget runs. What must outlive a visit
to another page (the scenario picked, its variants, the upload, the knob edits)
is therefore kept under plain ``keep.*`` keys that no widget owns; widgets take
their starting value from them and write back to them on every run.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

# scenario page widgets
SOURCE = "scenario.source"  #: "Bundled scenario" or "Upload YAML"
BUNDLED = "scenario.bundled"  #: file name in the bundled folder
UPLOAD = "scenario.upload"  #: the file uploader
TABLE_UPLOAD = "scenario.table_upload"  #: the job table uploader
TABLE_PICK = "scenario.table_pick"  #: which job table an upload replaces
VARIANTS = "scenario.variants"  #: prefix: variant names of one file, in order
MAP_SIZE = "map.size_by"
MAP_LINKS = "map.link_colour_by"
#: prefix of the knob widgets; then the scenario they were made for, then the field path
KNOB = "knob."

# kept across pages (no widget owns these keys)
PICKED = "keep.picked"  #: {"source": BUNDLED or UPLOAD choice, "bundled": file name}
PICKED_VARIANTS = "keep.variants"  #: file name -> variants chosen for it, in order
UPLOADED = "keep.upload"  #: the Recipe of the last upload that passed the checks
#: file name -> (workspace digest, job table, file name) of the job table uploaded for it
TABLES = "keep.tables"
EDITS = "keep.edits"  #: base scenario hash -> KnobValues the knobs show for it
KNOB_RESETS = "keep.knob_resets"  #: base scenario hash -> times its knobs were reset
ADDRESS_READ = "keep.address_read"  #: the page address was read into this session once
ADDRESS_SETS = "keep.address_sets"  #: (file, variants) -> --set overrides from the address

# whose runs (ui.sessions)
SESSION_NAME = "keep.session"  #: this session's short name in the queue
MY_RUNS = "keep.my_runs"  #: scenario hashes this session started, opened or was linked to

# handed between pages
RECIPE = "recipe"  #: the Recipe of the scenario on the scenario page (knobs applied)
LAST_RUN = "last_run"  #: scenario hash of the run this session started or opened last
OPEN_RUN = "open_run"  #: the run the Results page should open next (set by the run panel)

# results and compare pages
RESULT_PICK = "results.pick"
RESULT_WORKLOAD = "results.workload"
RESULT_UTILISATION = "results.utilisation"
RESULT_LINKS = "results.links"
RESULT_MAP_WORK = "results.map.work"
RESULT_MAP_WHEN = "results.map.when"
RESULT_MAP_STEP = "results.map.step"
RESULT_MAP_SHOW = "results.map.show"  #: chips in use or technology mix
RESULT_BUILD_SIZE = "results.build.size_by"  #: what the build map sizes sites by
RESULT_ENERGY_SITE = "results.energy.site"
RESULT_ENERGY_AS = "results.energy.drawn_as"  #: typical days or the year rebuilt
RESULT_DURATION = "results.energy.duration"
RESULT_JOB_SEARCH = "results.jobs.search"
RESULT_JOB_OUTCOME = "results.jobs.outcome"
RESULT_PATHWAY_PERIOD = "results.pathway.period"  #: the period a pathway's map shows
COMPARE_A = "compare.a"
COMPARE_B = "compare.b"
COMPARE_BUILD_SIZE = "compare.build.size_by"
#: query parameters of the Compare page: runs A and B
COMPARE_A_PARAM, COMPARE_B_PARAM = "a", "b"
BATCH_DIR = "batch.dir"
BATCH_X = "batch.x"
BATCH_Y = "batch.y"
BATCH_COLOUR = "batch.colour"

#: prefix of the tools page's widgets
TOOLS = "tools."

#: query parameter that keeps the open result across a browser reload
RUN_PARAM = "run"
#: query parameter (and key) of the Results page's open view (its tab)
VIEW_PARAM = "view"
#: query parameters of the scenario page: bundled file, variants, --set overrides
SCENARIO_PARAM, VARIANT_PARAM, SET_PARAM = "scenario", "variant", "set"
#: query parameters of an uploaded scenario and of an uploaded job table's workspace
UPLOAD_PARAM, TABLE_PARAM = "upload", "table"


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


def knob_scope(base_hash: str) -> str:
    """What the knob widgets of one scenario (file + variants) are keyed by.

    A browser sends back the value of every widget it shows, by widget key. Keys
    that name the scenario make the knobs of another scenario new widgets, which
    start from that scenario's values instead of the values left on screen; a
    reset starts a new scope, so its widgets start from the file again.
    """
    resets = st.session_state.get(KNOB_RESETS, {}).get(base_hash, 0)
    return f"{base_hash[:16]}.{resets}"


def knob_key(scope: str, path: str) -> str:
    return f"{KNOB}{scope}.{path}"


def kept(key: str) -> dict:
    """A ``keep.*`` mapping, created empty on first use."""
    return st.session_state.setdefault(key, {})
