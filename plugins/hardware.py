"""Built-in hardware systems, from ``plugins/data/hardware.csv``.

The table holds published figures in the entry's units plus two inputs per
system: ``system_power_kw`` (all-in power of one system at load) and
``chip_tdp_kw`` (the accelerator's own rated power). From them:

* active power per chip = system power / chips per system;
* idle power per chip = ``IDLE_CHIP_FRACTION`` x chip TDP +
  ``IDLE_OVERHEAD_FRACTION`` x (active power - chip TDP), an engineering estimate;
* MTBF per chip, where the table leaves it empty, scales the Llama 3 calibration
  of the H100 by chip power (:func:`mtbf_hours_from_tdp`), an estimate;
* power at training and at serving load per chip, from ``plugins/data/hardware_power.csv``
  (measured where a study measured it, else the measured share of nameplate applied, an
  estimate); a system the table leaves out draws its nameplate at load.

``docs/catalogues.md`` explains each rule and lists every figure with its source.
"""

from __future__ import annotations

from geomodel.catalog.entries import HardwareSystem
from geomodel.hookspecs import hookimpl

from ._tables import Row, entry_fields, figure_sources, read_table

GEOMODEL_PLUGIN_API = "1"

#: An idle accelerator draws about this share of its rated power.
IDLE_CHIP_FRACTION = 0.15
#: Host CPUs, NICs, switches, fans and conversion losses idle at about this share.
IDLE_OVERHEAD_FRACTION = 0.5

#: Per-chip MTBF of the H100, calibrated on the Llama 3 run (16,384 GPUs, 54 days,
#: 419 unexpected interruptions gives 50,677 h; rounded).
MTBF_ANCHOR_HOURS = 50_000.0
MTBF_ANCHOR_TDP_KW = 0.7
#: Share of Llama 3's unexpected interruptions that were GPU-related (faulty GPU,
#: HBM, SRAM, GPU system processor ...); the rest (host, network, software) is
#: taken to be the same per chip on every system.
MTBF_GPU_SHARE = 0.587


def idle_power_kw(active_kw: float, chip_tdp_kw: float) -> float:
    """Idle power per chip: the chip's idle draw plus the idle share of its overhead."""
    overhead_kw = max(active_kw - chip_tdp_kw, 0.0)
    return IDLE_CHIP_FRACTION * chip_tdp_kw + IDLE_OVERHEAD_FRACTION * overhead_kw


def mtbf_hours_from_tdp(chip_tdp_kw: float) -> float:
    """Per-chip MTBF with the GPU-related failure rate scaled by chip power.

    rate = rate_H100 x (GPU_SHARE x TDP / TDP_H100 + (1 - GPU_SHARE)); equals the
    anchor for a 700 W chip.
    """
    relative_rate = MTBF_GPU_SHARE * chip_tdp_kw / MTBF_ANCHOR_TDP_KW + (1 - MTBF_GPU_SHARE)
    return MTBF_ANCHOR_HOURS / relative_rate


def load_power_fields(name: str) -> tuple[dict[str, float], dict[str, str]]:
    """Training and serving power of system ``name`` and their sources, from
    ``hardware_power.csv``; empty when the table has no row for it (nameplate then)."""
    rows = [row for row in read_table("hardware_power") if row["name"] == name]
    values: dict[str, float] = {}
    sources: dict[str, str] = {}
    for row in rows:
        for load in ("training", "serving"):
            field = f"{load}_power_kw_per_chip"
            values[field] = float(row[field])
            sources[field] = f"{row[f'{load}_source']} [{row[f'{load}_source_type']}]"
    return values, sources


def system_from_row(row: Row) -> HardwareSystem:
    """One catalogue entry from one row of the table (and its row of the power table)."""
    fields = HardwareSystem.model_fields
    chips = int(row["chips_per_system"])
    chip_tdp_kw = float(row["chip_tdp_kw"])
    active_kw = float(row["system_power_kw"]) / chips
    sources = figure_sources(row, fields)
    tdp_note = f"chip TDP {chip_tdp_kw:g} kW ({row['chip_tdp_source']})"
    sources["idle_power_kw_per_chip"] = (
        f"rule {IDLE_CHIP_FRACTION:g} x chip TDP + {IDLE_OVERHEAD_FRACTION:g} x "
        f"(active - chip TDP); {tdp_note} [estimate]"
    )
    values = entry_fields(row, fields)
    load_values, load_sources = load_power_fields(row["name"])
    values.update(load_values)
    sources.update(load_sources)
    if not row["mtbf_hours_per_chip"]:
        values["mtbf_hours_per_chip"] = mtbf_hours_from_tdp(chip_tdp_kw)
        sources["mtbf_hours_per_chip"] = (
            f"H100 Llama 3 calibration ({MTBF_ANCHOR_HOURS:g} h) with the GPU-related "
            f"{MTBF_GPU_SHARE:.1%} of failures scaled by chip power; {tdp_note} [estimate]"
        )
    return HardwareSystem(
        **values,
        active_power_kw_per_chip=active_kw,
        idle_power_kw_per_chip=idle_power_kw(active_kw, chip_tdp_kw),
        figure_sources=sources,
    )


@hookimpl
def register_hardware_systems() -> list[HardwareSystem]:
    """The built-in hardware systems (HGX servers, NVL72 racks, CM384, TPU, Gaudi)."""
    return [system_from_row(row) for row in read_table("hardware")]
