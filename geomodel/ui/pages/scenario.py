"""Scenario page: pick or upload a scenario (and, for a trace, a job table of one's own),
choose variants, turn the knobs, see the map and the resolved YAML, and run it."""

from __future__ import annotations

import streamlit as st

from geomodel.scenario import ScenarioError
from geomodel.ui import address, knobs, loaders, scenario_views, state
from geomodel.ui.components.deck import HEIGHT, LINK_COLOUR_BY, SIZE_BY
from geomodel.ui.components.knob_widgets import knob_widgets, show_grouped, show_section_problems
from geomodel.ui.components.map_panels import map_option
from geomodel.ui.components.problems import plain, show_problems
from geomodel.ui.components.run_panel import KPI_COLUMNS, run_panel
from geomodel.ui.format import fit_number
from geomodel.ui.paths import (
    MAX_UPLOAD_BYTES,
    SERVER_UPLOAD_MB,
    bundled_scenarios,
    cache_dir,
    scenarios_dir,
    time_limit_cap,
)
from geomodel.ui.recipe import Recipe, job_tables_defined, upload_label, upload_text, variants_defined
from geomodel.ui.uploads import TABLE_SUFFIXES, UploadStore, check_table_upload

BUNDLED, UPLOAD = "Bundled scenario", "Upload YAML"


def pick_source(folder) -> Recipe | None:
    """A bundled file or an upload; the choice is kept for the session (state.PICKED)."""
    picked = state.kept(state.PICKED)
    sources = [BUNDLED, UPLOAD]
    source = st.radio(
        "Scenario",
        sources,
        index=sources.index(picked.get("source", BUNDLED)),
        horizontal=True,
        key=state.SOURCE,
    )
    picked["source"] = source
    if source == UPLOAD:
        return uploaded_recipe()
    names = bundled_scenarios(folder)
    if not names:
        st.error(f"No scenarios in {plain(str(folder))}.")
        return None
    wanted = picked.get("bundled")
    name = st.selectbox(
        "Bundled scenario", names, index=names.index(wanted) if wanted in names else 0, key=state.BUNDLED
    )
    picked["bundled"] = name
    return Recipe("bundled", name)


def _upload_changed() -> None:
    """The user removed or replaced the upload: forget the one kept from before (and so
    any message about it)."""
    state.pop(state.UPLOADED)


def uploaded_recipe() -> Recipe | None:
    """The file in the uploader (checked for name, size and encoding; parsed later, safely),
    else the upload kept from earlier in the session or named by the address (a reload).
    Every message here is about the file shown in the uploader."""
    uploaded = st.file_uploader(
        "Scenario YAML",
        key=state.UPLOAD,
        max_upload_size=SERVER_UPLOAD_MB,
        on_change=_upload_changed,
        help="Parsed safely (no tags, no imports, no alias bombs); CSV files it names are read "
        "from the bundled scenarios folder only.",
    )
    st.caption(
        f"A scenario file named \\*.yaml or \\*.yml, UTF-8, at most {MAX_UPLOAD_BYTES // 1024:,} KiB."
    )
    if uploaded is not None:
        name = upload_label(uploaded.name)
        try:
            recipe = Recipe("upload", name, upload_text(uploaded.name, uploaded.getvalue()))
        except ScenarioError as error:
            st.error(f"The upload {plain(name)} was refused:", icon=":material/block:")
            show_problems(error.problems)
            return None
        UploadStore(cache_dir()).save(recipe.name, recipe.text)  # a reload finds it again
        state.put(state.UPLOADED, recipe)
        return recipe
    kept = state.get(state.UPLOADED)
    if kept is not None:
        st.info(
            f"Using {plain(kept.name)}, uploaded earlier (kept across a reload by this page's "
            "address); upload a file to replace it.",
            icon=":material/upload_file:",
        )
        return kept
    st.info("Upload a scenario file (YAML), or pick a bundled one.")
    return None


def pick_variants(recipe: Recipe, folder) -> tuple[str, ...]:
    """The variants of this file, as chosen before in the session."""
    chosen = state.kept(state.PICKED_VARIANTS)
    defined = variants_defined(recipe, folder)
    variants = st.multiselect(
        "Variants (applied in order)",
        defined,
        default=[v for v in chosen.get(recipe.name, []) if v in defined],
        key=state.variants_key(recipe.name),
    )
    chosen[recipe.name] = list(variants)
    return tuple(variants)


def _table_changed(name: str) -> None:
    """A job table was uploaded, replaced or removed: forget the one kept from before."""
    state.kept(state.TABLES).pop(name, None)


def job_table(recipe: Recipe, folder) -> Recipe:
    """A job table of one's own in place of one of the file's, checked as the CLI checks
    it (the library's job-table loader, with its error lines); the recipe as it stands
    when there is none or it is refused."""
    tables = job_tables_defined(recipe, folder)
    if not tables:
        return recipe
    kept = state.kept(state.TABLES)
    with st.expander("Job tables: run this trace on a table of your own", expanded=recipe.name in kept):
        names = list(tables)
        table = names[0]
        if len(names) > 1:
            table = st.selectbox("Job table to replace", names, key=state.TABLE_PICK)
        st.caption(
            plain(
                f"Replaces {table} ({tables[table]}): a CSV or Parquet file with the file's columns "
                f'(see docs/scenarios.md, "Job tables"), at most {MAX_UPLOAD_BYTES // 1024:,} KiB; '
                f"checked as `geomodel run ... --set job_tables.{table}.file=FILE` would."
            )
        )
        uploaded = st.file_uploader(
            "Job table",
            type=[s.lstrip(".") for s in TABLE_SUFFIXES],
            key=state.TABLE_UPLOAD,
            max_upload_size=SERVER_UPLOAD_MB,
            on_change=_table_changed,
            args=(recipe.name,),
        )
        if uploaded is not None:
            try:
                check_table_upload(uploaded.name, uploaded.getvalue(), MAX_UPLOAD_BYTES)
            except ScenarioError as error:
                st.error(
                    f"The job table {plain(upload_label(uploaded.name))} was refused:",
                    icon=":material/block:",
                )
                show_problems(error.problems)
                return recipe
            digest, file_name = UploadStore(cache_dir()).save_table(
                uploaded.name, uploaded.getvalue(), folder
            )
            kept[recipe.name] = (digest, table, file_name)
        if recipe.name not in kept:
            return recipe
        digest, table, file_name = kept[recipe.name]
        mine = recipe.with_workspace(digest).with_overrides(
            {**recipe.overrides, f"job_tables.{table}.file": file_name}
        )
        try:
            loaders.scenario(mine)
        except ScenarioError as error:
            errors = [p for p in error.problems if p.severity == "error"]
            st.error(
                f"The job table {plain(file_name)} was refused: {len(errors)} problem"
                f"{'s' * (len(errors) != 1)}, as the CLI finds them; the file's own table is used.",
                icon=":material/block:",
            )
            show_problems(error.problems, folder)
            return recipe
        st.success(plain(f"Using your job table {file_name} for {table}."), icon=":material/table:")
        return mine


def _reset_knobs(base_hash: str) -> None:
    """Start the knobs of this scenario again from the file (new widget keys)."""
    resets = state.kept(state.KNOB_RESETS)
    resets[base_hash] = resets.get(base_hash, 0) + 1
    state.kept(state.EDITS).pop(base_hash, None)


def main() -> None:
    st.title("Scenario")
    folder = scenarios_dir()
    catalog = loaders.catalog()
    address.read_once(folder, BUNDLED, UPLOAD)
    recipe = pick_source(folder)
    if recipe is None:
        address.write(None)
        return
    recipe = job_table(recipe.with_variants(pick_variants(recipe, folder)), folder)
    try:
        base_scenario = loaders.scenario(recipe)
    except ScenarioError as error:
        address.write(recipe)
        errors = [p for p in error.problems if p.severity == "error"]
        st.error(
            f"{plain(recipe.label())}: {len(errors)} problem{'s' if len(errors) != 1 else ''} found. "
            "Fix the file to turn the knobs and run it.",
            icon=":material/error:",
        )
        show_grouped(knobs.group_by_section(error.problems), folder)
        return

    base_hash = base_scenario.origin.scenario_hash
    cap = time_limit_cap()
    edits = state.kept(state.EDITS)
    start = (
        edits.get(base_hash)
        or address.knobs_from_address(recipe, base_scenario, cap)
        or knobs.defaults(base_scenario, cap)
    )
    left, right = st.columns([2, 3], gap="large")
    with left:
        st.subheader("Knobs")
        st.caption("They start from the file with its variants; changes become --set overrides.")
        reset = st.container()  # above the knobs, drawn once their values are known
        values, slots = knob_widgets(base_scenario, catalog, start, cap, state.knob_scope(base_hash))
    edits[base_hash] = values
    current = recipe.with_overrides({**recipe.overrides, **knobs.overrides(base_scenario, values, cap)})
    reset.button(
        "Reset the knobs to the file",
        icon=":material/restart_alt:",
        on_click=_reset_knobs,
        args=(base_hash,),
        disabled=current.overrides == recipe.overrides,
    )
    address.write(current)
    try:
        scenario = loaders.scenario(current)
        problems = list(scenario.origin.warnings)
    except ScenarioError as error:
        scenario, problems = None, error.problems
    show_section_problems(slots, knobs.group_by_section(problems), folder)
    state.put(state.RECIPE, current)

    with right:
        if scenario is None:
            st.error(
                "The scenario with these changes has problems (shown under the knobs); "
                "change them back to run it.",
                icon=":material/error:",
            )
            return
        st.subheader(plain(scenario.name or recipe.name))
        if scenario.description:
            st.caption(plain(scenario.description))
        run_panel(current, scenario.origin.scenario_hash, float(scenario.solver.time_limit))
        _summary(current)
        st.fragment(_map)(current)
        _resolved(scenario, current)


def _summary(recipe: Recipe) -> None:
    summary = scenario_views.summary(recipe, loaders.file_stamp(recipe))
    shown = [
        ("Sites", str(summary["sites"])),
        ("Chips", fit_number(summary["chips"])),
        ("Horizon (h)", f"{summary['hours']:g}"),
        ("IT power at load (MW)", fit_number(summary["it_mw_at_load"])),
        ("Power envelopes (MW)", fit_number(summary["power_envelope_mw"])),
    ]
    for start in range(0, len(shown), KPI_COLUMNS):
        cells = st.columns(KPI_COLUMNS)
        for cell, (label, value) in zip(cells, shown[start : start + KPI_COLUMNS], strict=False):
            cell.metric(label, value)


def _map(recipe: Recipe) -> None:
    st.markdown("**Map**")
    left, right = st.columns(2)
    size_by = map_option(left, "Size sites by", SIZE_BY, state.MAP_SIZE)
    colour_by = map_option(right, "Colour links by", LINK_COLOUR_BY, state.MAP_LINKS)
    drawing = scenario_views.scenario_map(recipe, loaders.file_stamp(recipe), size_by, colour_by)
    st.pydeck_chart(drawing.deck, height=HEIGHT)
    st.html(drawing.legend)


def _resolved(scenario, recipe: Recipe) -> None:
    text = scenario_views.scenario_yaml(recipe, loaders.file_stamp(recipe))
    with st.expander("Resolved scenario (YAML) and the equivalent command"):
        st.code(recipe.command(), language="bash")
        st.download_button(
            "Download the resolved scenario (YAML)",
            data=text,
            file_name=f"{scenario.name or 'scenario'}-resolved.yaml",
            mime="application/x-yaml",
            icon=":material/download:",
            on_click="ignore",
        )
        st.code(text, language="yaml")


main()
