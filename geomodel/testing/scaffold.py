"""Write a ready plugin package (``geomodel new-plugin``) from the templates in
``geomodel/templates/plugin``.

A plugin called ``acme-water`` becomes the folder ``geomodel-acme-water`` holding
the distribution ``geomodel-acme-water``, the import package
``geomodel_acme_water`` and the entry point (plugin name) ``acme_water``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from geomodel.errors import UsageError

KINDS = ("hardware", "link", "power", "weather", "cost", "model")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")
#: Import names that would clash with common packages or with geomodel itself.
RESERVED = {"plugins", "data", "tests", "test", "geomodel", "builtins"}

_KIND_TEXT: dict[str, dict[str, str]] = {
    "hardware": {
        "what": "contributes a hardware system (Google TPU v7 Ironwood, as an example)",
        "contributes": "hardware system `tpu_v7_cube`",
        "usage": "Then `geomodel size --system tpu_v7_cube --chips 100000` sizes a cluster of it, and "
        "a scenario's `sites.<site>.systems` may name it.",
        "figures": "Chip figures from Google's Ironwood announcements (Cloud Next 2025, Hot Chips "
        "2025); BF16 rate, power per chip, rack share, scale-out bandwidth and MTBF are estimates.",
        "kind_checks": "",
    },
    "link": {
        "what": "contributes a data-centre interconnect technology (standard fibre with 800G ZR+ "
        "optics, as an example)",
        "contributes": "link technology `smf_800zr_plus`",
        "usage": "Then `geomodel dci --from 50.1,8.7 --to 52.5,13.4 --technology smf_800zr_plus` "
        "gives latency and power between two places, and a scenario's `links` may name it.",
        "figures": "Latency from the group index of G.652 fibre; capacity from C-band DWDM channel "
        "plans; module power, amplifier power and reach are estimates.",
        "kind_checks": "",
    },
    "power": {
        "what": "contributes a power source with an hourly profile (run-of-river hydro, as an example)",
        "contributes": "power source `run_of_river_hydro`",
        "usage": "Then a scenario's `sites.<site>.power_sources` may name `run_of_river_hydro` with a "
        "capacity.",
        "figures": "Lifecycle carbon from IPCC AR5 (hydropower median, 24 gCO2e/kWh); price from "
        "IRENA's 2023 cost report; capacity factor and seasonal swing are estimates.",
        "kind_checks": "; the profile hourly, on the requested timezone-aware index, without gaps, "
        "in range, with the entry's means",
    },
    "weather": {
        "what": "contributes a weather point (a typical year at Quincy, Washington, as an example)",
        "contributes": "weather point `quincy_typical_year`",
        "usage": "Then a site within 100 km of Quincy takes its weather for a weather-driven PUE "
        "(`pue: {model: weather}`) or weather-driven solar and wind.",
        "figures": "Annual figures recalled from NOAA's 1991-2020 climate normals for Ephrata, WA; "
        "the seasonal and daily swings are estimates.",
        "kind_checks": "; the weather hourly, on the requested timezone-aware index, without gaps, "
        "within the bounds of weather on Earth, in percent and m/s",
    },
    "cost": {
        "what": "contributes build costs for planning mode (onshore wind in Germany, as an example)",
        "contributes": "build cost `de_wind_onshore`",
        "usage": "Then a scenario's build option names it: `wind_onshore: {max: 200 MW, cost: "
        "de_wind_onshore}` under `sites.<site>.build.power_sources`.",
        "figures": "Capex and fixed O&M in the middle of the ranges of Fraunhofer ISE's 2024 LCOE "
        "study, converted at 1.08 USD/EUR; estimates, recalled and not re-checked.",
        "kind_checks": "; the cost's unit able to price what it applies to, and its capex plausible "
        "for its unit",
    },
    "model": {
        "what": "adds a water-use limit per site to geomodel's optimisation model",
        "contributes": "model extension (hooks `extension_settings`, `extend_model` and "
        "`extension_results`)",
        "usage": "Then a scenario turns it on:\n\n```yaml\nextensions:\n  {{plugin}}:\n"
        "    wue: 1.8 L/kWh\n    sites:\n      abilene: {limit: 2000 m^3/day}\n```\n\n"
        "`geomodel run` and `geomodel report` then show the water drawn per site and the value "
        "of a m3 more (the limit's shadow price).",
        "figures": "The default WUE, 1.8 L/kWh, is the industry average often quoted from LBNL's "
        "2016 US data-centre energy report; it is an estimate. Give your sites' own figures.",
        "kind_checks": "; the settings checked, and the minimal scenario built and solved with the "
        "water limit on (`GEOMODEL_EXAMPLE_SETTINGS` are the settings the checks use), and "
        "left unchanged without them",
    },
}


@dataclass(frozen=True)
class PluginNames:
    """The names one plugin goes by."""

    plugin: str  #: entry-point name, scenario ``extensions`` key, model component prefix
    distribution: str  #: pip name
    package: str  #: import name

    @classmethod
    def from_name(cls, name: str) -> PluginNames:
        raw = name.strip().lower()
        raw = re.sub(r"^geomodel[-_]", "", raw)
        if not NAME_PATTERN.match(raw):
            raise UsageError(
                "NAME",
                f"{name!r} is not a plugin name: use lower-case letters and digits, words joined "
                "by '-' or '_', starting with a letter (e.g. acme-water)",
            )
        plugin = raw.replace("-", "_")
        if plugin in RESERVED:
            raise UsageError(
                "NAME", f"{name!r} is too generic; choose a specific name such as acme-{raw}"
            )
        return cls(plugin, f"geomodel-{raw.replace('_', '-')}", f"geomodel_{plugin}")


def template_root():
    return files("geomodel").joinpath("templates", "plugin")


def write_plugin_package(
    name: str, kind: str = "hardware", output: str | Path = ".", *, taken: set[str] = frozenset()
) -> Path:
    """Write the package folder for plugin ``name`` of ``kind`` under ``output``; return it.

    ``taken`` holds plugin names already installed (a new plugin must not reuse one).
    """
    if kind not in KINDS:
        raise UsageError("--kind", f"unknown kind {kind!r}; choose one of {', '.join(KINDS)}")
    names = PluginNames.from_name(name)
    if names.plugin in taken:
        raise UsageError(
            "NAME", f"a plugin named {names.plugin!r} is already installed; choose another name"
        )
    folder = Path(output) / names.distribution
    if folder.exists() and any(folder.iterdir()):
        raise UsageError("--output", f"{folder} already exists and is not empty")
    tokens = _tokens(names, kind)
    root = template_root()
    files_to_write = {
        "pyproject.toml": root.joinpath("pyproject.toml.tmpl").read_text(encoding="utf-8"),
        "README.md": root.joinpath("README.md.tmpl").read_text(encoding="utf-8"),
        ".gitignore": root.joinpath("gitignore.tmpl").read_text(encoding="utf-8"),
        f"{names.package}/__init__.py": root.joinpath("kinds", f"{kind}.py.tmpl").read_text(
            encoding="utf-8"
        ),
        f"tests/test_{names.plugin}.py": root.joinpath("tests", "header.py.tmpl").read_text(
            encoding="utf-8"
        )
        + root.joinpath("tests", f"{kind}.py.tmpl").read_text(encoding="utf-8"),
    }
    for relative, text in files_to_write.items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_fill(text, tokens), encoding="utf-8")
    return folder


def _tokens(names: PluginNames, kind: str) -> dict[str, str]:
    from geomodel import __version__

    release = re.match(r"\d+\.\d+", __version__)
    tokens = {
        "plugin": names.plugin,
        "distribution": names.distribution,
        "package": names.package,
        "kind": kind,
        "geomodel_version": release.group(0) if release else "0",
    }
    text = {key: _fill(value, tokens) for key, value in _KIND_TEXT[kind].items()}
    description = f"geomodel plugin that {text['what']}."
    return {**tokens, **text, "description": description.replace('"', "'")}


def _fill(text: str, tokens: dict[str, str]) -> str:
    return re.sub(r"\{\{(\w+)\}\}", lambda m: tokens[m.group(1)], text)
