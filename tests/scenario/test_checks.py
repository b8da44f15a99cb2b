"""Checks against the catalogue: names, links, TP x EP fit, SLA reachability, capacity."""

from __future__ import annotations

import pytest
from pyproj import Geod

from .conftest import BASE, errors, line_of, load, only_error, write

#: Propagation in standard single-mode fibre (group index 1.4677 / c), the figure
#: the built-in smf_400zr carries. The default latency model is the one fitted to
#: measured round trips (docs/fidelity.md): route factor 1.535 + (2.748 - 1.535) x
#: 1000 km / (d + 1000 km) and 2.36 ms of overhead.
SMF_US_PER_KM = 4.90
FACTOR_NEAR, FACTOR_FAR, HALF_KM = 2.748, 1.535, 1000.0
OVERHEAD_MS = 2.36


def round_trip_ms(lat_a, lon_a, lat_b, lon_b) -> float:
    """Independent derivation: WGS84 geodesic d (pyproj) x the fitted route factor at d x
    4.90 us/km x 2 + overhead. Paris-Amsterdam, 430 km: factor 1.535 + 1.213 x 1000 / 1430
    = 2.383, 2.36 + 2 x 430 x 2.383 x 4.90 / 1000 = 12.4 ms."""
    _, _, metres = Geod(ellps="WGS84").inv(lon_a, lat_a, lon_b, lat_b)
    km = metres / 1000.0
    factor = FACTOR_FAR + (FACTOR_NEAR - FACTOR_FAR) * HALF_KM / (km + HALF_KM)
    return km * factor * SMF_US_PER_KM * 2 / 1000.0 + OVERHEAD_MS


def test_the_built_in_fibre_is_the_one_derived_here(catalog):
    assert catalog.links["smf_400zr"].latency_us_per_km == pytest.approx(SMF_US_PER_KM)


@pytest.mark.parametrize(
    ("old", "new", "path", "expected"),
    [
        (
            "{hgx_h100_8: 100}",
            "{hgx_h100: 100}",
            "sites.fra.systems.hgx_h100",
            "unknown hardware system 'hgx_h100'; did you mean hgx_h100_8",
        ),
        (
            "grid: grid_de",
            "grid: grid_dee",
            "sites.fra.grid",
            "unknown grid power source 'grid_dee'; did you mean grid_de",
        ),
        (
            "    jurisdiction: EU\n",
            "    jurisdiction: EU\n    power_sources: {solar: {capacity: 5 MW}}\n",
            "sites.fra.power_sources.solar",
            "unknown power source 'solar'; did you mean solar_pv",
        ),
        (
            "name: tiny",
            "name: tiny\nlinks: {mesh: {technology: hcf_800}}",
            "links.mesh.technology",
            "unknown link technology 'hcf_800'; did you mean hcf_800zr",
        ),
        (
            "name: tiny",
            "name: tiny\nlatency: {technology: smf400zr}",
            "latency.technology",
            "unknown link technology 'smf400zr'; did you mean smf_400zr",
        ),
        (
            "sla: 30 ms",
            "sla: 30 ms\n    systems: [gb200nvl72]",
            "inference.chat.systems[0]",
            "unknown hardware system 'gb200nvl72'; did you mean gb200_nvl72",
        ),
        (
            "chat: 1e6 token/s",
            "caht: 1e6 token/s",
            "regions.paris.demand.caht",
            "unknown inference service 'caht'; did you mean chat",
        ),
    ],
)
def test_unknown_catalogue_names_suggest_the_closest(tmp_path, catalog, old, new, path, expected):
    text = BASE.replace(old, new, 1)
    found = errors(tmp_path, text, catalog)
    (problem,) = [p for p in found if p.path == path]
    assert expected in problem.message, str(problem)
    last = new.splitlines()[-1].strip()
    assert problem.position.line == line_of(text, last)


def test_a_grid_used_as_a_generator_is_not_found_among_generators(tmp_path, catalog):
    text = BASE.replace(
        "    jurisdiction: EU\n",
        "    jurisdiction: EU\n    power_sources: {grid_de: {capacity: 5}}\n",
        1,
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.message == "'grid_de' is a grid region, not a generator: give it as 'grid: grid_de'"


def test_a_generator_given_as_the_grid_says_it_is_a_generator(tmp_path, catalog):
    """Issue 13, item 15: before, 'unknown grid power source' with no word of why."""
    text = BASE.replace("grid: grid_de", "grid: solar_pv", 1)
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.fra.grid"
    assert problem.message == (
        "'solar_pv' is a generator (kind solar), not a grid region: list it under power_sources "
        "with its capacity (solar_pv: {capacity: ...}); grid takes a grid region"
    )


def test_true_is_not_a_number_of_systems(tmp_path, catalog):
    """Issue 13, item 14: pydantic reads true as 1; a count must be a number."""
    text = BASE.replace("{gb200_nvl72: 4}", "{gb200_nvl72: true}")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "sites.ams.systems.gb200_nvl72"
    assert problem.message == "expected a whole number, not true"
    assert problem.position.line == line_of(text, "gb200_nvl72: true")


def test_a_link_naming_an_unknown_site_lists_the_known_sites(tmp_path, catalog):
    text = BASE + "links:\n  routes:\n    - sites: [fra, paris]\n      technology: smf_800zr\n"
    problem = only_error(tmp_path, text, catalog)
    assert str(problem) == (
        f"{tmp_path / 'scenario.yaml'}:{line_of(text, 'sites: [fra, paris]')}: "
        "links.routes[0].sites[1]: unknown site 'paris'; known sites: fra, ams"
    )


def test_a_repeated_route_is_refused(tmp_path, catalog):
    text = BASE + (
        "links:\n  routes:\n    - {sites: [fra, ams], technology: smf_800zr}\n"
        "    - {sites: [ams, fra], technology: hcf_800zr}\n"
    )
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "links.routes[1]"
    assert "repeats routes[0]" in problem.message


def test_a_job_naming_an_unknown_site_or_zone(tmp_path, catalog):
    text = BASE.replace("    tp: 8", "    tp: 8\n    sites: [fra, lux]\n    jurisdictions: [US]")
    found = errors(tmp_path, text, catalog)
    assert [p.path for p in found] == [  # in line order
        "training.pretrain",
        "training.pretrain.sites[1]",
        "training.pretrain.jurisdictions[0]",
    ]
    assert "no site is allowed for this job" in found[0].message
    assert "unknown site 'lux'; known sites: fra, ams" in found[1].message
    assert "no site is in jurisdiction 'US'; site jurisdictions: EU" in found[2].message


def test_a_tp_x_ep_group_fitting_no_scale_up_domain_at_an_allowed_site(tmp_path, catalog):
    # fra has HGX H100 servers (8 chips per NVLink domain); ams has GB200 NVL72 (72).
    text = BASE.replace("    tp: 8", "    tp: 8\n    ep: 2\n    sites: [fra]")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "training.pretrain.tp"
    assert problem.position.line == line_of(text, "tp: 8")
    assert problem.message == (
        "the TP x EP group of 8 x 2 = 16 chips fits the scale-up domain of no system at the "
        "allowed sites (largest: hgx_h100_8 with 8 chips)"
    )


def test_a_tp_x_ep_group_fits_when_some_allowed_site_has_a_large_domain(tmp_path, catalog):
    text = BASE.replace("    tp: 8", "    tp: 8\n    ep: 9")  # 72 chips: one NVL72 at ams
    load(tmp_path, text, catalog)
    too_big = BASE.replace("    tp: 8", "    tp: 8\n    ep: 10")
    problem = only_error(tmp_path, too_big, catalog)
    assert "(largest: gb200_nvl72 with 72 chips)" in problem.message


def test_max_chips_below_one_replica(tmp_path, catalog):
    text = BASE.replace("    tp: 8", "    tp: 8\n    pp: 4\n    max_chips: 16")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "training.pretrain.max_chips"
    assert "below one replica of TP x EP x PP = 32 chips" in problem.message


def test_a_window_outside_the_horizon(tmp_path, catalog):
    window = "    window: {start: 2025-02-01T00:00:00Z}"
    problem = only_error(tmp_path, BASE.replace("    tp: 8", "    tp: 8\n" + window), catalog)
    assert problem.path == "training.pretrain.window"
    assert "does not overlap the horizon" in problem.message


def test_an_sla_no_site_meets_names_the_nearest_site_and_its_latency(tmp_path, catalog):
    text = BASE.replace("sla: 30 ms", "sla: 5 ms")
    problem = only_error(tmp_path, text, catalog)
    paris = (48.86, 2.35)
    to_fra = round_trip_ms(*paris, 50.11, 8.68)
    to_ams = round_trip_ms(*paris, 52.37, 4.90)
    assert 5 < to_ams < to_fra < 30  # Amsterdam (430 km) is nearer Paris than Frankfurt (479 km)
    assert to_ams == pytest.approx(12.4, abs=0.05)  # the docstring's hand computation
    assert problem.path == "regions.paris.demand.chat"
    assert problem.position.line == line_of(text, "chat: 1e6 token/s")
    assert problem.message == (
        "no site meets the 5 ms SLA of 'chat' from region 'paris'; nearest is 'ams' at "
        f"{to_ams:.1f} ms round trip"
    )


def test_the_sla_check_only_counts_sites_with_systems_the_service_may_use(tmp_path, catalog):
    text = BASE.replace("sla: 30 ms", "sla: 5 ms\n    systems: [hgx_h100_8]")  # only at fra
    problem = only_error(tmp_path, text, catalog)
    to_fra = round_trip_ms(48.86, 2.35, 50.11, 8.68)
    assert f"nearest is 'fra' at {to_fra:.1f} ms round trip" in problem.message


def test_a_service_no_site_can_run_is_reported_once(tmp_path, catalog):
    text = BASE.replace("sla: 30 ms", "sla: 30 ms\n    systems: [cloudmatrix_384]")
    text = text.replace(
        "      chat: 1e6 token/s",
        "      chat: 1e6 token/s\n  rome:\n    lat: 41.9\n    lon: 12.5\n    demand: {chat: 1}",
    )
    found = errors(tmp_path, text, catalog)
    assert [(p.path, p.message) for p in found] == [
        ("inference.chat", "no site has a system this service may run on")
    ]


def test_a_job_and_a_service_may_not_share_a_name(tmp_path, catalog):
    text = BASE.replace("  pretrain:", "  chat:")
    problem = only_error(tmp_path, text, catalog)
    assert problem.path == "inference.chat"
    assert "'chat' names both a training job and an inference service" in problem.message


def test_a_site_without_power_is_refused(tmp_path, catalog):
    problem = only_error(tmp_path, BASE.replace("    grid: grid_de\n", "", 1), catalog)
    assert problem.path == "sites.fra"
    assert "has no power" in problem.message


def test_a_service_nobody_asks_for_is_a_warning(tmp_path, catalog):
    text = BASE + "  idle:\n    active_params: 1e9\n    efficiency: 0.3\n    sla: 50 ms\n"
    scenario = load(tmp_path, text, catalog)
    (warning,) = scenario.origin.warnings
    assert warning.severity == "warning"
    assert warning.path == "inference.idle"
    assert "no region has demand" in warning.message


def serving_capacity_pflops(catalog) -> float:
    """FP8 peak of every usable chip in the base scenario."""
    h100 = catalog.hardware["hgx_h100_8"]
    gb200 = catalog.hardware["gb200_nvl72"]
    # 0.80: the default utilisation (sites.<site>.utilisation)
    fra = 100 * h100.chips_per_system * 0.80 * h100.fp8_dense_pflops_per_chip
    ams = 4 * gb200.chips_per_system * 0.80 * gb200.fp8_dense_pflops_per_chip
    return fra + ams


def test_demand_above_capacity_is_a_warning_with_the_first_hours(tmp_path, catalog):
    # Each token of an 8e9-active-parameter model takes 2 x 8e9 FLOP at 30 % of peak.
    capacity = serving_capacity_pflops(catalog)
    per_token_pflop = 2 * 8e9 / 1e15 / 0.3
    fits = capacity / per_token_pflop  # tokens/s the chips can serve
    values = [0.5 * fits] * 24
    values[5], values[6], values[20] = 1.5 * fits, 1.2 * fits, 1.1 * fits
    times = [f"2025-01-01T{h:02d}:00:00+00:00" for h in range(24)]
    write(
        tmp_path, "d.csv", "time,v\n" + "".join(f"{t},{v}\n" for t, v in zip(times, values, strict=True))
    )
    text = BASE.replace("chat: 1e6 token/s", "chat: {csv: d.csv, column: v}")
    scenario = load(tmp_path, text, catalog)
    (warning,) = scenario.origin.warnings
    assert warning.severity == "warning"
    assert warning.path == "regions"
    assert warning.message == (
        "inference demand needs up to 150% of the chips that can serve it (all sites, at each "
        "service's rate per chip); short in 3 hours, first 2025-01-01T05:00:00+00:00, "
        "2025-01-01T06:00:00+00:00, 2025-01-01T20:00:00+00:00"
    )


def test_demand_within_capacity_gives_no_warning(tmp_path, catalog):
    scenario = load(tmp_path, BASE, catalog)
    assert scenario.origin.warnings == []
