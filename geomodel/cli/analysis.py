"""``geomodel size``, ``reliability`` and ``dci``: the analytic tools of docs/tools.md.

Each command checks its options first (a bad value is a one-line UsageError
naming the option), looks names up in the catalogue, calls the library in
:mod:`geomodel.tools` and prints a table, or JSON with ``--json``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import typer

from geomodel.catalog import Catalog, build_catalog
from geomodel.cli.output import JSON_HELP, console, print_json, print_table
from geomodel.errors import UnknownNameError, UsageError
from geomodel.geo import parse_lat_lon
from geomodel.tools import checks
from geomodel.tools.dci import assess_route
from geomodel.tools.reliability import (
    DEFAULT_CHECKPOINT_MINUTES,
    DEFAULT_RESTART_MINUTES,
    reliability_report,
)
from geomodel.tools.sizing import DEFAULT_PUE, DEFAULT_SITE_MW, compare_systems

Entry = TypeVar("Entry")


def register(app: typer.Typer) -> None:
    """Add the analytic-tool commands to the CLI."""
    app.command("size")(size)
    app.command("reliability")(reliability)
    app.command("dci")(dci)


def lookup(
    find: Callable[[str], Entry], name: str, option: str, known: Sequence[str], kind: str
) -> Entry:
    """A catalogue entry by name; an unknown name is a UsageError on ``option``."""
    try:
        return find(name)
    except UnknownNameError as error:
        message = str(error)
        if not known:
            message += f"; no {kind} is loaded, see `geomodel plugins`"
        elif not error.closest:
            message += f"; known: {', '.join(known)}"
        raise UsageError(option, message) from None


def size(
    chips: int = typer.Option(..., "--chips", help="Chips the cluster needs."),
    systems: list[str] | None = typer.Option(
        None, "--system", help="Hardware system to size (repeat for several; default: all)."
    ),
    pue: float = typer.Option(DEFAULT_PUE, "--pue", help="Power usage effectiveness, >= 1."),
    site_mw: float = typer.Option(
        DEFAULT_SITE_MW, "--site-mw", help="Facility power one site can take, in MW."
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Systems, racks, MW, sites and capex for N chips, per hardware system."""
    checks.positive_int(chips, "--chips")
    checks.at_least(pue, 1.0, "--pue")
    checks.positive(site_mw, "--site-mw")
    catalog = build_catalog()
    chosen = _hardware(catalog, systems)
    rows = compare_systems(chosen, chips, pue=pue, site_mw=site_mw)
    if json_output:
        print_json(
            {"chips": chips, "pue": pue, "site_mw": site_mw, "systems": [r.as_dict() for r in rows]}
        )
        return
    table_rows = [
        {**r.as_dict(), "capex_musd": None if r.capex_usd is None else r.capex_usd / 1e6} for r in rows
    ]
    print_table(
        table_rows,
        {
            "system": "system",
            "chips_per_system": "chips/system",
            "scale_up_domain_chips": "scale-up domain (chips)",
            "systems": "systems",
            "chips_installed": "chips installed",
            "racks": "racks",
            "scale_up_domains": "scale-up domains",
            "bf16_dense_eflops": "BF16 dense (EFLOPS)",
            "it_mw": "IT (MW)",
            "facility_mw": "facility (MW)",
            "bf16_dense_pflops_per_facility_mw": "BF16 PFLOPS/facility MW",
            "sites": f"sites of {site_mw:g} MW",
            "capex_musd": "capex (USD M)",
        },
        title=f"{chips:,} chips in whole systems at load, PUE {pue:g}",
    )
    for row in rows:
        if row.note:
            console().print(f"{row.system}: {row.note}")


def _hardware(catalog: Catalog, names: list[str] | None) -> list:
    known = sorted(catalog.hardware)
    if not names:
        if not known:
            raise UsageError("--system", "no hardware system is loaded, see `geomodel plugins`")
        return list(catalog.hardware.values())
    return [
        lookup(catalog.hardware_system, name, "--system", known, "hardware system") for name in names
    ]


def reliability(
    system: str = typer.Option(..., "--system", help="Hardware system of the job."),
    chips: int = typer.Option(..., "--chips", help="Chips the job runs on."),
    checkpoint_minutes: float = typer.Option(
        DEFAULT_CHECKPOINT_MINUTES, "--checkpoint-minutes", help="Time to write a checkpoint, min."
    ),
    restart_minutes: float = typer.Option(
        DEFAULT_RESTART_MINUTES, "--restart-minutes", help="Time to restart after a failure, min."
    ),
    mtbf_hours: float | None = typer.Option(
        None,
        "--mtbf-hours",
        help="MTBF per chip, h, replacing the catalogue's (docs/tools.md gives the published range).",
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Cluster MTBF, Young/Daly checkpoint interval and the goodput factor of a job."""
    checks.positive_int(chips, "--chips")
    if mtbf_hours is not None:
        checks.positive(mtbf_hours, "--mtbf-hours")
    checks.non_negative(checkpoint_minutes, "--checkpoint-minutes")
    checks.non_negative(restart_minutes, "--restart-minutes")
    catalog = build_catalog()
    entry = lookup(
        catalog.hardware_system, system, "--system", sorted(catalog.hardware), "hardware system"
    )
    report = reliability_report(entry, chips, checkpoint_minutes, restart_minutes, mtbf_hours)
    if json_output:
        print_json(report.as_dict())
        return
    quantities = [
        ("system", report.system),
        ("chips", report.chips),
        ("MTBF per chip (h)", report.mtbf_hours_per_chip),
        ("cluster MTBF (h)", report.cluster_mtbf_hours),
        ("expected interruptions per day", report.interruptions_per_day),
        ("checkpoint write C (min)", report.checkpoint_minutes),
        ("restart R (min)", report.restart_minutes),
        ("Young interval sqrt(2CM) (min)", report.young_interval_minutes),
        ("Daly interval, used (min)", report.daly_interval_minutes),
        ("expected time lost (%)", 100.0 * report.waste_fraction),
        ("goodput factor g", report.goodput),
    ]
    print_table(
        [{"quantity": q, "value": v} for q, v in quantities],
        {"quantity": "quantity", "value": "value"},
        title=f"Reliability of a {report.chips:,}-chip job on {report.system}",
    )
    if report.reason:
        console().print(f"goodput is 0: {report.reason}")


def dci(
    from_text: str = typer.Option(..., "--from", help="One end, LAT,LON in degrees."),
    to_text: str = typer.Option(..., "--to", help="Other end, LAT,LON in degrees."),
    technologies: list[str] | None = typer.Option(
        None, "--technology", help="Link technology (repeat for several; default: all)."
    ),
    route_factor: float | None = typer.Option(
        None, "--route-factor", help="Route km / great-circle km (default: each technology's own)."
    ),
    budget_ms: float | None = typer.Option(
        None, "--budget-ms", help="Round-trip budget: show the farthest separation that fits."
    ),
    json_output: bool = typer.Option(False, "--json", help=JSON_HELP),
) -> None:
    """Distance, latency, reach and optical power of a DCI route per link technology."""
    a = parse_lat_lon(from_text, "--from")
    b = parse_lat_lon(to_text, "--to")
    if route_factor is not None:
        checks.at_least(route_factor, 1.0, "--route-factor")
    if budget_ms is not None:
        checks.positive(budget_ms, "--budget-ms")
    catalog = build_catalog()
    known = sorted(catalog.links)
    if technologies:
        chosen = [
            lookup(catalog.link_technology, n, "--technology", known, "link technology")
            for n in technologies
        ]
    elif known:
        chosen = list(catalog.links.values())
    else:
        raise UsageError("--technology", "no link technology is loaded, see `geomodel plugins`")
    report = assess_route(a, b, chosen, route_factor=route_factor, budget_ms=budget_ms)
    if json_output:
        print_json(report.as_dict())
        return
    print_table(
        [
            {
                "from": f"{a.lat:g},{a.lon:g}",
                "to": f"{b.lat:g},{b.lon:g}",
                "geodesic_km": report.geodesic_km,
                "internet": report.internet_round_trip_ms,
                "internet_high": report.internet_round_trip_ms_high,
            }
        ],
        {
            "from": "from (lat,lon)",
            "to": "to (lat,lon)",
            "geodesic_km": "great circle (km)",
            "internet": "public internet RTT, good path (ms)",
            "internet_high": "indirect path (ms)",
        },
        title="Route",
    )
    columns = {
        "technology": "technology",
        "route_factor": "route factor",
        "route_km": "route (km)",
        "one_way_ms": "one way (ms)",
        "round_trip_ms": "round trip (ms)",
        "reach_km": "reach (km)",
        "within_reach": "within reach",
        "regenerators": "regen sites",
        "amplifier_sites": "amplifier sites",
        "power_kw_per_fibre_pair": "lit pair (kW)",
        "power_w_per_gbit_s": "W per Gb/s",
    }
    if budget_ms is not None:
        columns["max_separation_km"] = f"max great circle for {budget_ms:g} ms RTT (km)"
    print_table([t.as_dict() for t in report.technologies], columns, title="Link technologies")
