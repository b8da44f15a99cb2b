"""Typed catalogue entries: hardware systems, link technologies and power sources.

Plugins return these objects. Every numeric field carries its unit in its name,
every entry carries the source of its figures, and construction validates types
and physical ranges the same way user data is validated, so a plugin cannot
hand the model a negative power or a latency of light faster than in vacuum.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Annotated, Any, ClassVar, Literal

import numpy as np
import pandas as pd
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    ValidationError,
    model_validator,
)

from geomodel.geo import Location

EntryName = Annotated[
    str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_.-]*$", min_length=1, max_length=64)
]
SourceType = Literal["vendor", "paper", "agency", "press", "estimate"]
#: Number formats a chip's peak is given in (INT8 in peta-operations per second).
Precision = Literal["fp4", "fp8", "bf16", "int8"]
PRECISIONS: tuple[str, ...] = ("fp4", "fp8", "bf16", "int8")

#: Columns of the frame a power source's profile returns, with units.
PROFILE_COLUMNS: dict[str, str] = {
    "capacity_factor": "1",
    "price_usd_per_mwh": "USD/MWh",
    "carbon_kg_per_mwh": "kgCO2e/MWh",
}

#: Carbon bases a scenario may count emissions in (docs/catalogues.md, "Carbon basis").
CARBON_BASES = ("lifecycle", "direct")

#: Optional profile columns: carbon in each basis, for sources that know both hour by hour
#: (measured grid series); ``carbon_kg_per_mwh`` stays the series in ``carbon_basis``.
CARBON_BASIS_COLUMNS: dict[str, str] = {
    f"carbon_{basis}_kg_per_mwh": "kgCO2e/MWh" for basis in CARBON_BASES
}


#: True while geomodel calls a catalogue hook (see :func:`collecting_invalid_entries`)
_COLLECTING = ContextVar("geomodel_collecting_invalid_entries", default=False)


@contextmanager
def collecting_invalid_entries() -> Iterator[None]:
    """While a catalogue hook runs, an entry whose constructor finds a bad value is
    built unvalidated instead of raising, so the hook's other entries survive and the
    catalogue, re-validating every entry, reports the bad one by its name."""
    token = _COLLECTING.set(True)
    try:
        yield
    finally:
        _COLLECTING.reset(token)


class CatalogEntry(BaseModel):
    """Fields every catalogue entry has: a unique name and where its figures come from."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", arbitrary_types_allowed=True, allow_inf_nan=False
    )

    #: the constructor's arguments when they failed validation while collecting
    _invalid_input: dict[str, Any] | None = PrivateAttr(default=None)

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError:
            if not _COLLECTING.get():
                raise
            # keep the given values unvalidated: the catalogue re-validates every
            # entry from its arguments and reports this one with its name and field
            unchecked = type(self).model_construct(**data)
            for attribute in ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__"):
                object.__setattr__(self, attribute, getattr(unchecked, attribute))
            object.__setattr__(self, "__pydantic_private__", {"_invalid_input": dict(data)})

    def given_fields(self) -> dict[str, Any]:
        """The fields to validate this entry from: its constructor's arguments when
        those failed (:func:`collecting_invalid_entries`), else its field values."""
        invalid = self._invalid_input
        return dict(invalid) if invalid is not None else dict(self)

    name: EntryName = Field(description="unique catalogue name, lower case")
    source: str = Field(min_length=1, description="where the figures come from")
    source_type: SourceType = Field(description="kind of the main source")
    figure_sources: dict[str, str] = Field(
        default_factory=dict,
        description="field name -> 'source [type]' for figures that differ from the main source",
    )
    notes: str = ""

    @model_validator(mode="after")
    def _figure_sources_name_fields(self) -> CatalogEntry:
        unknown = set(self.figure_sources) - set(type(self).model_fields)
        if unknown:
            raise ValueError(f"figure_sources names unknown fields: {sorted(unknown)}")
        return self


class HardwareSystem(CatalogEntry):
    """The unit you buy and power: an 8-GPU server, an NVL72 rack, a CloudMatrix 384."""

    vendor: str
    system: str = Field(description="display name")
    chip: str
    chips_per_system: int = Field(gt=0)
    scale_up_domain_chips: int = Field(gt=0, description="chips on one high-bandwidth bus")
    racks_per_system: float = Field(gt=0, le=1000)
    bf16_dense_pflops_per_chip: float = Field(gt=0, le=100)
    fp8_dense_pflops_per_chip: float | None = Field(default=None, gt=0, le=200)
    fp4_dense_pflops_per_chip: float | None = Field(
        default=None, gt=0, le=400, description="dense FP4 peak; none: the chip has no FP4"
    )
    int8_dense_pops_per_chip: float | None = Field(
        default=None, gt=0, le=400, description="dense INT8 peak, peta-operations per second"
    )
    hbm_gb_per_chip: float = Field(gt=0, le=10_000)
    hbm_bandwidth_tbyte_s_per_chip: float | None = Field(
        default=None,
        gt=0,
        le=100,
        description="HBM bandwidth per chip, TB/s; needed by the serving and training models",
    )
    active_power_kw_per_chip: float = Field(
        ge=0.05, le=5, description="at load, incl. the chip's share of host, switch and fans"
    )
    idle_power_kw_per_chip: float = Field(ge=0, le=5, description="powered but idle, same scope")
    training_power_kw_per_chip: float | None = Field(
        default=None,
        ge=0,
        le=5,
        description="typical draw while training, same scope; None: the nameplate "
        "active_power_kw_per_chip (what a plugin that measured nothing keeps)",
    )
    serving_power_kw_per_chip: float | None = Field(
        default=None,
        ge=0,
        le=5,
        description="typical draw while serving inference, same scope; None: the nameplate",
    )
    scale_up_bandwidth_gbyte_s_per_chip: float = Field(gt=0, description="bidirectional")
    scale_out_bandwidth_gbit_s_per_chip: float = Field(gt=0)
    mtbf_hours_per_chip: float = Field(gt=0, description="mean time between job-interrupting faults")
    capex_usd_per_system: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _powers_in_order(self) -> HardwareSystem:
        if self.idle_power_kw_per_chip > self.active_power_kw_per_chip:
            raise ValueError(
                f"idle_power_kw_per_chip {self.idle_power_kw_per_chip} exceeds "
                f"active_power_kw_per_chip {self.active_power_kw_per_chip}"
            )
        for name in ("training_power_kw_per_chip", "serving_power_kw_per_chip"):
            load = getattr(self, name)
            if (
                load is not None
                and not self.idle_power_kw_per_chip <= load <= self.active_power_kw_per_chip
            ):
                raise ValueError(
                    f"{name} {load} is outside idle_power_kw_per_chip {self.idle_power_kw_per_chip} "
                    f"to active_power_kw_per_chip {self.active_power_kw_per_chip} (nameplate)"
                )
        return self

    @property
    def training_kw_per_chip(self) -> float:
        """Power of a training chip: the measured figure, or the nameplate when none is given."""
        load = self.training_power_kw_per_chip
        return self.active_power_kw_per_chip if load is None else load

    @property
    def serving_kw_per_chip(self) -> float:
        """Power of a serving chip: the measured figure, or the nameplate when none is given."""
        load = self.serving_power_kw_per_chip
        return self.active_power_kw_per_chip if load is None else load

    @property
    def power_kw_per_system(self) -> float:
        """All-in power of one system at load."""
        return self.active_power_kw_per_chip * self.chips_per_system

    @property
    def bf16_dense_pflops_per_system(self) -> float:
        return self.bf16_dense_pflops_per_chip * self.chips_per_system

    def dense_pflops_per_chip(self, precision: Precision) -> float:
        """Dense peak per chip at a precision (peta-operations for INT8).

        Chips without FP8 run FP8 work at the BF16 rate, as their software does; FP4 and
        INT8 have no such fallback: asking them of a chip without them is an error
        (:meth:`supports`).
        """
        if precision == "fp8":
            return self.fp8_dense_pflops_per_chip or self.bf16_dense_pflops_per_chip
        if precision == "bf16":
            return self.bf16_dense_pflops_per_chip
        peak = self.fp4_dense_pflops_per_chip if precision == "fp4" else self.int8_dense_pops_per_chip
        if peak is None:
            raise ValueError(f"{self.name} ({self.chip}) has no {precision.upper()} peak")
        return peak

    def supports(self, precision: Precision) -> bool:
        """Whether the chip can run work in ``precision`` (BF16 and FP8 always can)."""
        if precision == "fp4":
            return self.fp4_dense_pflops_per_chip is not None
        if precision == "int8":
            return self.int8_dense_pops_per_chip is not None
        return True


class LinkTechnology(CatalogEntry):
    """How a data-centre interconnect route is built: fibre kind plus coherent optics."""

    fibre_kind: str = Field(
        pattern=r"^[a-z][a-z0-9_]*$",
        description="standard_smf, hollow_core, or another kind a plugin names (ultra_low_loss_smf)",
    )
    optics: str
    latency_us_per_km: float = Field(ge=3.0, le=6.0, description="one-way propagation")
    capacity_gbit_s_per_fibre_pair: float = Field(gt=0, le=1_000_000)
    transceiver_power_w_per_gbit_s: float = Field(
        ge=0, le=10, description="both ends of the link, per Gb/s of lit capacity"
    )
    amplifier_power_w_per_span: float = Field(ge=0, le=100_000, description="per fibre pair")
    span_km: float = Field(gt=0, le=1000, description="distance between in-line amplifiers")
    reach_km: float = Field(gt=0, le=20_000, description="unregenerated reach")
    route_factor: float = Field(ge=1.0, le=3.0, description="fibre route km / great-circle km")
    capex_usd_per_km: float | None = Field(default=None, gt=0)

    def one_way_latency_ms(self, route_km: float) -> float:
        return route_km * self.latency_us_per_km / 1000.0

    def amplifier_spans(self, route_km: float) -> int:
        """In-line amplifier sites on a route (none on a single span)."""
        return max(0, math.ceil(route_km / self.span_km) - 1)

    def power_w(self, route_km: float, capacity_gbit_s: float, fibre_pairs: int = 1) -> float:
        """Electrical power of a route lit at ``capacity_gbit_s``: optics plus amplifiers."""
        optics_w = capacity_gbit_s * self.transceiver_power_w_per_gbit_s
        amplifiers_w = self.amplifier_spans(route_km) * self.amplifier_power_w_per_span
        return optics_w + amplifiers_w * fibre_pairs


class PowerSource(CatalogEntry):
    """A grid region or a generator: mean price and carbon plus an hourly profile.

    Subclasses override :meth:`hourly_profile`; the base profile is flat at the
    catalogue means, which is right for firm sources (nuclear, gas, reservoir hydro).
    """

    kind: str = Field(pattern=r"^[a-z][a-z_]*$", description="grid, solar, wind, hydro, ...")
    price_usd_per_mwh: float = Field(ge=-500, le=5000, description="annual mean")
    carbon_kg_per_mwh: float = Field(ge=0, le=2000, description="annual mean, = gCO2e/kWh")
    carbon_basis: Literal["lifecycle", "direct"] = Field(
        default="lifecycle",
        description="lifecycle CO2e (IPCC, Ember) or direct combustion CO2 (eGRID, MEE); "
        "a scenario should not mix them",
    )
    price_basis: str = Field(
        default="", max_length=200, description="what the price is, e.g. industrial retail 2023"
    )
    capacity_factor: float = Field(
        gt=0,
        le=1,
        description="nominal annual mean of the profile; sources whose resource depends on "
        "the site (solar, wind) scale their profile to the site and document how",
    )
    location: Location | None = Field(
        default=None, description="where a grid region is (for grid sources)"
    )
    country: str | None = None
    price_adder_usd_per_mwh: float = Field(
        default=0.0,
        ge=-1000,
        le=5000,
        description="added to the profile's price for what a large consumer pays (network "
        "charges, levies) unless the scenario sets its own adder; 0 where the price is the bill",
    )
    carbon_other_basis_kg_per_mwh: float | None = Field(
        default=None,
        ge=0,
        le=2000,
        description="annual mean carbon in the basis carbon_basis is not (direct if it is "
        "lifecycle and the reverse); None when unknown",
    )

    def series_basis(self) -> dict[str, str]:
        """What each series of the profile rests on, one line per profile column
        (``measured 2023, zone X, N hours filled`` or ``shaped from annual mean ...``);
        the base profile is flat at the catalogue means."""
        return {
            "price_usd_per_mwh": f"flat at the annual mean {self.price_usd_per_mwh:g} USD/MWh",
            "carbon_kg_per_mwh": (
                f"flat at the annual mean {self.carbon_kg_per_mwh:g} kgCO2e/MWh ({self.carbon_basis})"
            ),
        }

    def shaped(self) -> PowerSource:
        """The same source on shaped profiles only (no measured series); itself by default."""
        return self

    def carbon_in(self, basis: str) -> float | None:
        """Annual mean carbon in ``basis`` (``lifecycle`` or ``direct``), None when unknown."""
        if basis == self.carbon_basis:
            return self.carbon_kg_per_mwh
        return self.carbon_other_basis_kg_per_mwh

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        """Capacity factor (0..1), price (USD/MWh) and carbon (kgCO2e/MWh) per hour.

        ``time_index`` is hourly and timezone-aware; the result has exactly that
        index and the columns of :data:`PROFILE_COLUMNS`.
        """
        n = len(time_index)
        return pd.DataFrame(
            {
                "capacity_factor": np.full(n, self.capacity_factor),
                "price_usd_per_mwh": np.full(n, self.price_usd_per_mwh),
                "carbon_kg_per_mwh": np.full(n, self.carbon_kg_per_mwh),
            },
            index=time_index,
        )

    #: Settings a site may give a weather-driven profile (``weather:`` of a site's
    #: source); None when the source has no weather-driven profile.
    weather_options: ClassVar[frozenset[str] | None] = None

    def weather_capacity_factor(
        self, location: Location, weather: pd.DataFrame, options: Mapping[str, Any]
    ) -> np.ndarray:
        """Hourly capacity factor (0..1) from the measured weather at the site.

        ``weather`` is indexed by the hours asked for, with ``temperature_c``,
        ``relative_humidity_pct``, ``cloud_cover_pct`` and ``wind_speed_10m_m_s``;
        ``options`` holds the site's settings among :attr:`weather_options`.
        Sources with ``weather_options`` set override this.
        """
        raise NotImplementedError(f"power source {self.name!r} has no weather-driven profile")

    def profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        """The hourly profile, checked: right index, columns, bounds and no gaps."""
        check_time_index(time_index)
        frame = self.hourly_profile(location, time_index)
        check_profile(frame, time_index, self.name)
        return frame


def check_time_index(time_index: pd.DatetimeIndex) -> None:
    """Profiles are asked for on an hourly, timezone-aware, increasing index."""
    if not isinstance(time_index, pd.DatetimeIndex):
        raise TypeError(f"time_index must be a pandas DatetimeIndex, got {type(time_index)}")
    if time_index.tz is None:
        raise ValueError("time_index must be timezone-aware")
    if len(time_index) > 1:
        steps = time_index[1:] - time_index[:-1]
        if not (steps == pd.Timedelta(hours=1)).all():
            raise ValueError("time_index must be hourly and increasing")


def check_profile(frame: pd.DataFrame, time_index: pd.DatetimeIndex, name: str) -> None:
    """Raise ValueError naming the source when a profile breaks the contract."""
    missing = set(PROFILE_COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"power source {name!r}: profile lacks columns {sorted(missing)}")
    if not frame.index.equals(time_index):
        raise ValueError(f"power source {name!r}: profile index differs from the requested one")
    values = frame[list(PROFILE_COLUMNS)]
    if values.isna().any().any():
        first = values[values.isna().any(axis=1)].index[0]
        raise ValueError(f"power source {name!r}: profile has gaps, first at {first}")
    infinite = np.isinf(values.to_numpy(dtype=float)).any(axis=1)
    if infinite.any():
        first = values.index[infinite][0]
        raise ValueError(f"power source {name!r}: profile has infinite values, first at {first}")
    cf = values["capacity_factor"]
    if (cf < 0).any() or (cf > 1).any():
        raise ValueError(f"power source {name!r}: capacity factor outside [0, 1]")
    if (values["carbon_kg_per_mwh"] < 0).any():
        raise ValueError(f"power source {name!r}: negative carbon intensity")
    for column in CARBON_BASIS_COLUMNS:
        if column in frame.columns:
            extra = frame[column].to_numpy(dtype=float)
            if not np.isfinite(extra).all() or (extra < 0).any():
                raise ValueError(f"power source {name!r}: {column} has gaps or negative values")
