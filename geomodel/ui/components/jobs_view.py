"""The Jobs tab: a trace a planner can follow. Jobs by outcome, what shifting them saved
against a local-only run of the same file, job classes explained, and every job findable
by its own name."""

from __future__ import annotations

import streamlit as st
import xarray as xr

from geomodel.ui import figures, loaders, state
from geomodel.ui.components.derived_runs import derived_hash, derived_run, recipe_of
from geomodel.ui.components.jobs import (
    CLASS_NOTE,
    JOB_TABLE,
    OUTCOMES,
    SUMMARY_TABLE,
    has_members,
    matching,
)
from geomodel.ui.components.problems import plain
from geomodel.ui.components.tables import show_table
from geomodel.ui.local_only import SAVINGS_TABLE, job_tables, local_only_recipe, savings


def has_jobs(inputs: xr.Dataset) -> bool:
    """A Jobs tab for a run with a job table (a trace) or with several training jobs."""
    if not has_members(inputs):
        return False
    from_tables = any(str(s).startswith("job_tables.") for s in inputs["member_source"].values)
    return from_tables or inputs.sizes["job_member"] > 1


def show_jobs(folder: str, record: dict) -> None:
    scenario_hash = record["hash"]
    jobs = figures.jobs(folder, scenario_hash)
    st.markdown(f"**{len(jobs):,} training jobs by outcome**")
    show_table(
        figures.job_summary(folder, scenario_hash), SUMMARY_TABLE, f"job-outcomes-{scenario_hash[:8]}"
    )
    _local_only(folder, record)
    st.markdown("**Every job**")
    st.caption(CLASS_NOTE)
    left, right = st.columns([3, 2])
    text = left.text_input(
        "Find a job by name (or a class)", key=state.RESULT_JOB_SEARCH, placeholder="e.g. job0042"
    )
    outcome = right.selectbox(
        "Outcome",
        [None, *OUTCOMES],
        format_func=lambda o: o or "every outcome",
        key=state.RESULT_JOB_OUTCOME,
    )
    found = matching(jobs, text, outcome)
    if text.strip() and found.empty:
        st.info(f"No job or class name holds {plain(text.strip())!r}.")
        return
    classes = found["class"].unique()
    if text.strip() and len(classes) == 1 and "+" in classes[0]:
        members = jobs.loc[jobs["class"] == classes[0], "job"].tolist()
        st.caption(
            plain(f"{classes[0]} is {len(members)} jobs solved as one: {', '.join(members[:12])}")
            + (" ..." if len(members) > 12 else "")
        )
    show_table(
        figures.job_table(folder, scenario_hash, text, outcome), JOB_TABLE, f"jobs-{scenario_hash[:8]}"
    )


def _local_only(folder: str, record: dict) -> None:
    """What shifting saved against the same file with every job at its origin, at arrival."""
    st.markdown("**Against a local-only run of the same file**")
    inputs = loaders.result(folder, record["hash"]).inputs
    tables = job_tables(inputs["member_source"].values)
    recipe = recipe_of(record)
    if not tables:
        st.caption("The jobs are the scenario's own (no job table): there is no trace to pin.")
        return
    if recipe is None:
        st.caption("Open this upload on the Scenario page to solve its local-only run.")
        return
    local = local_only_recipe(recipe, tables)
    if derived_hash(local) == record["hash"]:
        st.caption("This run is itself local only: every job at its origin, at its arrival.")
        return
    pins = ", ".join(f"--set {k}={v}" for k, v in local.overrides.items() if k.startswith("job_tables"))
    st.caption(plain(f"Every job at its origin, as soon as it arrives: {pins}"))
    found = derived_run(folder, local, "Solve the local-only run", "local")
    if found is None:
        return
    table = savings(record.get("kpis", {}), found.get("kpis", {}))
    show_table(table, SAVINGS_TABLE, f"local-only-savings-{record['hash'][:8]}", rows=None)
    st.caption(
        "Saved = local only - this run: what moving jobs and letting them wait saved, and "
        "what the data moved cost."
    )
