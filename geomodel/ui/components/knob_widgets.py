"""The knob widgets, one bordered box per scenario section, each with its problems under it."""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from geomodel.catalog import Catalog
from geomodel.scenario import Problem, Scenario
from geomodel.ui import state
from geomodel.ui.components.problems import show_problems
from geomodel.ui.knobs import OTHER, PLANNING, SECTIONS, KnobValues

HOURS_MAX = 8784  # a leap year


Key = Callable[[str], str]


def knob_widgets(
    scenario: Scenario,
    catalog: Catalog,
    start: KnobValues,
    time_limit_cap: float,
    scope: str,
) -> tuple[KnobValues, dict[str, DeltaGenerator]]:
    """Draw every knob, starting from ``start`` (the file's values or the edits kept for
    this scenario), keyed by ``scope`` (:func:`state.knob_scope`).

    Returns what the knobs now say and, per section, the slot under its widgets
    where :func:`show_section_problems` puts that section's problems.
    """
    values = deepcopy(start)

    def key(path: str) -> str:
        return state.knob_key(scope, path)

    editors: dict[str, Callable[[], None]] = {
        "time": lambda: _time(scenario, values, key),
        "sites": lambda: _sites(scenario, values, key),
        "regions": lambda: _demand(scenario, values, key),
        "links": lambda: _links(catalog, values, key),
        "objective": lambda: _objective(values, key),
        PLANNING: lambda: _planning(scenario, values, key),
        "solver": lambda: _solver(values, time_limit_cap, key),
    }
    slots = {}
    for section, title in SECTIONS.items():
        if section == PLANNING and values.discount_rate is None:
            continue  # the scenario builds nothing: no planning knobs
        with st.container(border=True):
            st.markdown(f"**{title}**")
            editors[section]()
            slots[section] = st.container()
    slots[OTHER] = st.container()
    return values, slots


def show_section_problems(
    slots: dict[str, DeltaGenerator],
    problems: dict[str, list[Problem]],
    folder: Path,
) -> None:
    """Each section's problems under its widgets; the rest in a box of their own."""
    hidden = [p for section, found in problems.items() if section not in slots for p in found]
    if hidden:  # problems of a section whose knobs are not drawn go with the others
        others = [*problems.get(OTHER, []), *hidden]
        problems = {s: f for s, f in problems.items() if s in slots and s != OTHER}
        problems[OTHER] = others
    for section, found in problems.items():
        if section == OTHER:
            with slots[OTHER].container(border=True):
                st.markdown("**Other sections**")
                show_problems(found, folder)
        else:
            with slots[section]:
                show_problems(found, folder)


def _time(scenario: Scenario, values: KnobValues, key: Key) -> None:
    step = max(1, int(scenario.time.resolution))
    values.hours = int(
        st.number_input(
            "Horizon (h)",
            min_value=step,
            max_value=HOURS_MAX,
            value=values.hours,
            step=step,
            key=key("time.hours"),
            help=f"time.hours; starts {scenario.time.start:%Y-%m-%d %H:%M %z}, steps of {step} h",
        )
    )


def _sites(scenario: Scenario, values: KnobValues, key: Key) -> None:
    for name, site in scenario.sites.items():
        systems = list(site.systems)
        cells = st.columns(1 + max(1, len(systems)))
        values.envelopes[name] = cells[0].number_input(
            f"{name}: power envelope (MW)",
            min_value=0.0,
            value=float(values.envelopes[name]),
            step=10.0,
            key=key(f"sites.{name}.power_envelope"),
            help=f"sites.{name}.power_envelope",
        )
        for cell, system in zip(cells[1:], systems, strict=False):
            values.systems[name][system] = int(
                cell.number_input(
                    f"{name}: {system} (systems)",
                    min_value=0,
                    value=int(values.systems[name][system]),
                    step=10,
                    key=key(f"sites.{name}.systems.{system}"),
                    help=f"sites.{name}.systems.{system}: installed systems",
                )
            )


def _demand(scenario: Scenario, values: KnobValues, key: Key) -> None:
    count = sum(len(region.demand) for region in scenario.regions.values())
    values.demand_scale = st.slider(
        "Demand scale (x every region's demand)",
        min_value=0.0,
        max_value=5.0,
        value=float(values.demand_scale),
        step=0.05,
        key=key("regions.demand.scale"),
        help=f"multiplies regions.*.demand.*.scale ({count} demand series)",
    )


def _links(catalog: Catalog, values: KnobValues, key: Key) -> None:
    if values.technology is None:
        st.caption("This scenario lists its DCI routes one by one (no links.mesh); edit them in YAML.")
        return
    names = sorted(catalog.links)
    values.technology = st.selectbox(
        "DCI technology of the mesh",
        names,
        index=names.index(values.technology) if values.technology in names else 0,
        key=key("links.mesh.technology"),
        format_func=lambda n: (
            f"{n}: {catalog.links[n].fibre_kind}, {catalog.links[n].latency_us_per_km:g} us/km"
        ),
        help="links.mesh.technology",
    )


def _objective(values: KnobValues, key: Key) -> None:
    values.carbon_price = st.number_input(
        "Carbon price (USD/tCO2)",
        min_value=0.0,
        value=float(values.carbon_price),
        step=10.0,
        key=key("objective.carbon_price"),
        help="objective.carbon_price",
    )
    values.latency_weight = st.number_input(
        "Latency weight (USD/ms/Mtoken)",
        min_value=0.0,
        value=float(values.latency_weight),
        step=0.0001,
        format="%.5f",
        key=key("objective.latency_weight"),
        help="objective.latency_weight: cost of each ms of round trip per million served tokens",
    )


def _planning(scenario: Scenario, values: KnobValues, key: Key) -> None:
    """Discount rate, and per site the most facility power and systems after building."""
    values.discount_rate = st.number_input(
        "Discount rate (1/year, real)",
        min_value=0.0,
        value=float(values.discount_rate or 0.0),
        step=0.01,
        format="%.3f",
        key=key("finance.discount_rate"),
        help="finance.discount_rate: turns each asset's capex into a yearly annuity "
        "(docs/planning.md); 0.05 is a utility's cost of capital, an operator's is often higher",
    )
    for name in scenario.sites:
        systems = list(values.system_caps.get(name, {}))
        has_envelope = name in values.envelope_caps
        if not systems and not has_envelope:
            continue
        cells = iter(st.columns(max(2, int(has_envelope) + len(systems))))
        if has_envelope:
            values.envelope_caps[name] = next(cells).number_input(
                f"{name}: most facility MW",
                min_value=0.0,
                value=float(values.envelope_caps[name]),
                step=10.0,
                key=key(f"sites.{name}.build.power_envelope.max"),
                help=f"sites.{name}.build.power_envelope.max: facility power after building, "
                "installed plus built",
            )
        for system in systems:
            values.system_caps[name][system] = int(
                next(cells).number_input(
                    f"{name}: most {system}",
                    min_value=0,
                    value=int(values.system_caps[name][system]),
                    step=10,
                    key=key(f"sites.{name}.build.systems.{system}.max"),
                    help=f"sites.{name}.build.systems.{system}.max: systems after building, "
                    "installed plus built",
                )
            )


def _solver(values: KnobValues, cap: float, key: Key) -> None:
    values.time_limit = st.number_input(
        "Time limit (s)",
        min_value=1.0,
        max_value=float(cap),
        value=float(min(values.time_limit, cap)),
        step=10.0,
        key=key("solver.time_limit"),
        help=f"solver.time_limit; the app bounds every run by {cap:g} s",
    )
    for option, on in values.whole_units.items():
        label, meaning = WHOLE_UNIT_KNOBS[option]
        values.whole_units[option] = st.toggle(
            label,
            value=bool(on),
            key=key(f"solver.integer.{option}"),
            help=f"solver.integer.{option}: {meaning}. Off, the plan is a linear relaxation, "
            "which may build a fraction of one; on, a MIP (slower), stopped within solver.mip_gap.",
        )


#: a plan's whole-unit toggles: solver.integer option -> (label, what it makes whole)
WHOLE_UNIT_KNOBS = {
    "whole_systems": ("Whole racks (systems)", "systems, racks of a rack-scale system, built whole"),
    "site_opening": ("Whole sites", "a new site opened or not, its opening cost paid whole"),
    "whole_fibre_pairs": ("Whole fibre pairs", "fibre pairs lit whole"),
}


def show_grouped(problems: dict[str, list[Problem]], folder: Path) -> None:
    """Problems of a file whose knobs cannot be drawn, in one box per section."""
    for section, title in {**SECTIONS, OTHER: "Other sections"}.items():
        if problems.get(section):
            with st.container(border=True):
                st.markdown(f"**{title}**")
                show_problems(problems[section], folder)
