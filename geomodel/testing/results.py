"""Structured results of the conformance checks, shared by pytest and the CLI."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from geomodel.catalog.registry import SINGULAR


def singular(kind: str) -> str:
    """'link technology' for 'link technologies'; other kinds as they are."""
    return SINGULAR.get(kind, kind)


#: Every check's name and what it verifies (docs/plugins.md lists them all).
CHECKS: dict[str, str] = {
    "loads": "the plugin imports and registers: right plugin API major, only known hooks, a free name",
    "plugin-api": "the module declares GEOMODEL_PLUGIN_API",
    "hooks": "the plugin implements at least one hook",
    "hook-runs": "each catalogue hook runs without raising",
    "hook-returns-list": "each catalogue hook returns a list",
    "entry-type": "each item is an entry of the hook's kind (or a dict of its fields)",
    "fields": "the entry validates: every required field present, in range, of the right type",
    "required-field": "a required field is present (the message gives its unit)",
    "unknown-field": "no field the entry class lacks (often a field named with another unit)",
    "field-range": "a value lies in its physical range; the message says which unit it looks like",
    "field-type": "a value has the field's type and format",
    "cross-field": "rules between fields hold (idle power at most active power, ...)",
    "sources": "the main source is named and every figure source ends with its [tag]",
    "unique-name": "a name is used once by the plugin and by no other plugin",
    "no-shadowing": "a name is not a built-in's unless declared in GEOMODEL_OVERRIDES",
    "overrides": "GEOMODEL_OVERRIDES is a list of names the plugin really overrides",
    "profile-runs": "hourly_profile runs and returns a DataFrame",
    "profile-columns": "the profile has capacity_factor, price_usd_per_mwh and carbon_kg_per_mwh",
    "profile-index": "the profile is on exactly the requested hourly, timezone-aware index: no gap",
    "profile-gaps": "no empty or infinite value in any hour",
    "profile-range": "every hour within the hourly bounds of its column",
    "profile-mean": "over a year (or the covered hours) the means equal the entry's figures",
    "profile-timezone": "the same instants asked in another time zone give the same values",
    "cost-applies-to": "a build cost prices loaded entries (or generic assets) its unit can price",
    "cost-applies-once": "no other build cost prices the same asset in the same unit",
    "cost-magnitude": "a build cost's capex is plausible for its unit, else the unit it looks like",
    "buildable": (
        "each hardware system, generator and link technology has a build cost that applies to it, "
        "so planning can build it (a warning: operational use needs none)"
    ),
    "weather-runs": "hourly_weather runs and returns a DataFrame",
    "weather-columns": (
        "the weather has temperature_c, relative_humidity_pct, cloud_cover_pct and wind_speed_10m_m_s"
    ),
    "weather-index": "the weather is on exactly the requested hourly, timezone-aware index: no gap",
    "weather-gaps": "no empty or infinite weather value in any hour",
    "weather-range": "every hour within the bounds of weather on Earth; a kelvin slip is named",
    "weather-units": "percent columns are not fractions and the wind speed is not in km/h",
    "weather-timezone": "the same instants asked in another time zone give the same weather",
    "minimal-scenario": "the built-ins the minimal scenario needs are loaded",
    "extension-settings": "extension_settings returns a pydantic model the example settings pass",
    "validate-scenario": "validate_scenario returns a list of strings, empty when all is well",
    "model-extension": "extend_model runs on the minimal scenario",
    "extension-names": "components the extension adds start with the plugin's name",
    "unused-untouched": "extend_model leaves a scenario that does not use the extension unchanged",
    "example-settings": "the checks had settings to exercise the extension with",
    "extension-results": "what extension_results returns joins the results and the KPIs",
    "model-solves": (
        "the minimal scenario builds and solves to optimality with the extension on, "
        "which adds constraint rows or variables to it"
    ),
}


@dataclass(frozen=True)
class CheckResult:
    """One check of one plugin, entry or field, passed or failed.

    ``entry`` is empty when the check is about the plugin as a whole, ``field``
    when it is about a whole entry; ``kind`` is a catalogue kind such as
    ``"hardware systems"``, or ``"model extension"`` / ``"scenario checks"``.
    """

    check: str
    plugin: str
    entry: str
    field: str
    passed: bool
    message: str
    kind: str = ""
    #: passed, but with something the author should know (printed as WARN)
    warning: bool = False

    @property
    def verdict(self) -> str:
        """PASS, WARN or FAIL."""
        return "FAIL" if not self.passed else ("WARN" if self.warning else "PASS")

    @property
    def where(self) -> str:
        """'plugin 'x', power source 'y', field z' as far as known."""
        parts = [f"plugin {self.plugin!r}"]
        if self.entry:
            noun = singular(self.kind) if self.kind else "entry"
            parts.append(f"{noun} {self.entry!r}")
        if self.field:
            parts.append(f"field {self.field}")
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.verdict} [{self.check}] {self.where}: {self.message}"

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise ValueError(f"unknown check {self.check!r}; add it to CHECKS with what it verifies")

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class ConformanceReport:
    """Every result of checking one plugin."""

    plugin: str
    distribution: str = "local"
    results: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(result.passed for result in self.results)

    @property
    def failures(self) -> list[CheckResult]:
        return [result for result in self.results if not result.passed]

    @property
    def warnings(self) -> list[CheckResult]:
        return [result for result in self.results if result.passed and result.warning]

    def extend(self, results: list[CheckResult]) -> None:
        self.results.extend(results)

    def summary(self) -> str:
        """One line of counts, then one line per failure."""
        failed, warned = self.failures, self.warnings
        head = (
            f"plugin {self.plugin!r} (distribution {self.distribution}): "
            f"{len(self.results) - len(failed)} checks passed, {len(failed)} failed"
            + (f", {len(warned)} with a warning" if warned else "")
        )
        return "\n".join([head, *(f"  {result}" for result in [*failed, *warned])])

    def assert_ok(self) -> ConformanceReport:
        """Raise AssertionError listing every failure; return the report when all passed."""
        if not self.passed:
            raise AssertionError(self.summary())
        return self

    def to_dict(self) -> dict[str, object]:
        return {
            "plugin": self.plugin,
            "distribution": self.distribution,
            "passed": self.passed,
            "counts": {
                "passed": len(self.results) - len(self.failures),
                "failed": len(self.failures),
                "warnings": len(self.warnings),
            },
            "results": [result.to_dict() for result in self.results],
        }
