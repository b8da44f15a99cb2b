"""Data centres: location, power, cooling and installed hardware."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from geomodel.scenario.schema.fields import Count, Fraction, Located, Name, Section
from geomodel.scenario.schema.planning import SiteBuild
from geomodel.scenario.schema.pue import (
    COOLING_PUE,
    DEFAULT_COOLING,
    ConstantPue,
    CoolingKind,
    PueCurve,
    WeatherPue,
    parse_pue,
)
from geomodel.scenario.schema.signals import PriceTerms
from geomodel.scenario.schema.weather import WeatherChoice
from geomodel.scenario.units import Quantity

#: Share of installed chips work can use (``sites.<site>.utilisation``): Meta's two research
#: clusters ran at 80 % and more over 11 months (Kokolis et al., HPCA 2025); a dedicated
#: training fleet may reach 0.85-0.90 (docs/scenarios.md, "Utilisation").
DEFAULT_UTILISATION = 0.80


class PowerSupply(Section):
    """A generator on site or a contracted source, by catalogue name."""

    capacity: Quantity("MW", ge=0) = Field(
        description="installed or contracted capacity", examples=["150 MW"]
    )
    price: Quantity("USD/MWh", ge=-500) | None = Field(
        default=None, description="overrides the catalogue price", examples=["35 USD/MWh"]
    )
    carbon: Quantity("kgCO2/MWh", ge=0) | None = Field(
        default=None,
        description="overrides the catalogue carbon intensity (kgCO2e/MWh = gCO2e/kWh)",
        examples=["12 kgCO2/MWh"],
    )
    profile_csv: str | None = Field(
        default=None,
        description="CSV of hourly capacity factors (0..1) replacing the catalogue profile",
        examples=["profiles/abilene.csv"],
    )
    profile_column: str | None = Field(
        default=None, description="column of profile_csv", examples=["solar_pv"]
    )
    weather: WeatherChoice = Field(
        default=None,
        description="`true` or settings: hourly output from the measured weather at the site "
        "(solar: cloud cover; wind: 10 m wind speed and a turbine's power curve) instead of "
        "the catalogue profile",
        examples=[True],
    )

    @model_validator(mode="after")
    def _csv_with_column(self) -> PowerSupply:
        if (self.profile_csv is None) != (self.profile_column is None):
            raise ValueError("'profile_csv' and 'profile_column' go together")
        return self


class OwnSeries(Section):
    """A site's own hourly series in place of the grid region's: a constant or a CSV column."""

    constant: float | None = Field(default=None, description="a flat value", examples=[1.0])
    csv: str | None = Field(
        default=None,
        description="CSV with a 'time' column and hourly values covering the horizon",
        examples=["data/ashburn-grid.csv"],
    )
    column: str | None = Field(default=None, description="column of csv", examples=["value"])

    @model_validator(mode="after")
    def _csv_with_column(self) -> OwnSeries:
        if (self.csv is None) != (self.column is None):
            raise ValueError("'csv' and 'column' go together")
        if self.csv is not None and self.constant is not None:
            raise ValueError("give 'constant' or 'csv', not both")
        return self

    @property
    def given(self) -> bool:
        """True when the site brings its own series (constant or CSV)."""
        return self.csv is not None or self.constant is not None


class SiteGridPrice(OwnSeries, PriceTerms):
    """What this site pays for grid power: its own adder and multiplier, or its own series."""

    constant: Quantity("USD/MWh", ge=-1000, le=5000) | None = Field(
        default=None, description="a flat price replacing the region's series", examples=["80 USD/MWh"]
    )


class SiteGridCarbon(OwnSeries):
    """This site's own grid carbon intensity (in the scenario's carbon basis)."""

    constant: Quantity("kgCO2/MWh", ge=0, le=2000) | None = Field(
        default=None,
        description="a flat carbon intensity replacing the region's series (kgCO2e/MWh = gCO2e/kWh)",
        examples=["120 kgCO2/MWh"],
    )

    @model_validator(mode="after")
    def _something_given(self) -> SiteGridCarbon:
        if not self.given:
            raise ValueError("give 'constant' or 'csv' with 'column'")
        return self


class Site(Located):
    """A data centre: location, power, cooling and installed hardware."""

    grid: Name | None = Field(
        default=None,
        description="grid power source (kind grid) by catalogue name; none = off-grid",
        examples=["grid_us_tx_ercot"],
    )
    grid_price: SiteGridPrice | None = Field(
        default=None,
        description=(
            "this site's price terms (adder, multiplier; over the scenario's for its region) "
            "or its own price series (constant or csv)"
        ),
        examples=[{"adder": "30 USD/MWh"}, {"csv": "data/ashburn-grid.csv", "column": "usd_mwh"}],
    )
    grid_carbon: SiteGridCarbon | None = Field(
        default=None,
        description="this site's own grid carbon series (constant or csv), in the scenario's basis",
        examples=[{"constant": "120 kgCO2/MWh"}],
    )
    grid_import_limit: Quantity("MW", ge=0) | None = Field(
        default=None,
        description="most the grid connection delivers (default: the power envelope)",
        examples=["150 MW"],
    )
    power_envelope: Quantity("MW", ge=0) = Field(
        description="facility power limit (IT x PUE + DCI); 0 only with build.power_envelope",
        examples=["200 MW"],
    )
    envelope_basis: Literal["nameplate", "at_load"] = Field(
        default="nameplate",
        description="what a working chip counts for in the power envelope: `nameplate`, its "
        "system's rated power, as electrical designs and grid contracts are sized (default); "
        "`at_load`, its typical training or serving draw, for a site that oversubscribes",
        examples=["at_load"],
    )
    cooling: CoolingKind = Field(
        default=DEFAULT_COOLING,
        description="how the plant rejects heat: `evaporative` (cooling towers, default), `air` "
        "(dry coolers, air-cooled chillers) or `liquid` (direct-to-chip on dry coolers); sets "
        "the PUE when 'pue' is not given, the weather curve of `pue: {model: weather}` and the "
        "water use",
        examples=["liquid"],
    )
    pue: WeatherPue | ConstantPue | None = Field(
        default=None,
        description="power usage effectiveness, constant, or `{model: weather}` for hourly "
        "PUE on the cooling kind's curve at the measured weather (default: the cooling kind's "
        "constant)",
        examples=[1.2],
        json_schema_extra={"unit": "1"},
    )
    wue: Quantity("L/kWh", ge=0, le=20) | None = Field(
        default=None,
        description="water used per kWh of IT energy, replacing the cooling kind's (evaporative "
        "follows the weather where the PUE does)",
        examples=["0.3 L/kWh"],
    )
    water_cap: Quantity("m3/year", ge=0) | None = Field(
        default=None,
        description="most water the site may use, a year (scaled to the horizon); none = no cap",
        examples=["500000 m3/year"],
    )
    water_price: Quantity("USD/m3", ge=0) | None = Field(
        default=None,
        description="what a m3 of water costs, in the objective (default 0)",
        examples=["2 USD/m3"],
    )
    systems: dict[Name, Annotated[Count, Field(ge=0)]] = Field(
        description="installed hardware: catalogue system name -> number of systems",
        examples=[{"gb200_nvl72": 600}],
        json_schema_extra={"unit": "systems"},
    )
    utilisation: Fraction = Field(
        default=DEFAULT_UTILISATION,
        description="achievable utilisation: share of installed chips work can use at any hour "
        "(maintenance, repairs, spares, scheduling fragmentation; docs/scenarios.md)",
        examples=[0.85],
    )
    availability: Fraction | None = Field(
        default=None,
        description="former name of 'utilisation', with the same meaning (give one of the two)",
        examples=[0.95],
    )
    power_sources: dict[Name, PowerSupply] = Field(
        default_factory=dict,
        description="on-site or contracted sources by catalogue name",
        examples=[{"solar_pv": {"capacity": "150 MW"}}],
    )
    jurisdiction: str = Field(
        default="",
        max_length=32,
        description="country or data-residency zone, matched by training jobs' 'jurisdictions'",
        examples=["US"],
    )
    build: SiteBuild | None = Field(
        default=None,
        description="what may be built here, at what cost (planning mode, docs/planning.md)",
        examples=[{"systems": {"gb200_nvl72": {"max": 1000}}, "power_envelope": {"max": "300 MW"}}],
    )

    @field_validator("pue", mode="wrap")
    @classmethod
    def _pue_constant_or_weather(
        cls, value: object, _handler: object, info: ValidationInfo
    ) -> float | WeatherPue | None:
        return parse_pue(value, info.data.get("cooling", DEFAULT_COOLING))

    @model_validator(mode="after")
    def _import_limit_needs_a_grid(self) -> Site:
        if self.grid is None and self.grid_import_limit is not None:
            raise ValueError("'grid_import_limit' needs a 'grid' to import from")
        return self

    @model_validator(mode="after")
    def _utilisation_once(self) -> Site:
        if self.availability is not None:
            if "utilisation" in self.model_fields_set:
                raise ValueError("give 'utilisation' or its former name 'availability', not both")
            self.utilisation, self.availability = self.availability, None
        return self

    @model_validator(mode="after")
    def _grid_series_need_a_grid(self) -> Site:
        for name in ("grid_price", "grid_carbon"):
            if self.grid is None and getattr(self, name) is not None:
                raise ValueError(f"'{name}' needs a 'grid' to import from")
        return self

    @property
    def most_systems(self) -> dict[str, int]:
        """Systems the site may hold: installed, or the build maximum where some may be added."""
        added = self.build.systems if self.build is not None else {}
        return {**self.systems, **{name: option.max for name, option in added.items()}}

    @property
    def effective_pue(self) -> float | None:
        """The constant PUE (given, or the cooling kind's); None when it follows the weather."""
        if isinstance(self.pue, WeatherPue):
            return None
        return self.pue if self.pue is not None else COOLING_PUE[self.cooling]

    @property
    def pue_curve(self) -> PueCurve | None:
        """The weather curve the PUE follows (the kind's, with the site's own parameters)."""
        return self.pue.curve(self.cooling) if isinstance(self.pue, WeatherPue) else None
