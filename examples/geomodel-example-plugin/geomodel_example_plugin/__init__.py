"""geomodel-example-plugin: a third-party geomodel plugin, as a worked example.

It contributes one entry of each catalogue kind:

* ``mi350x_8``: the AMD Instinct MI350X 8-GPU platform, air-cooled (hardware system);
* ``ull_800zr``: ultra-low-loss G.654 fibre lit with OIF 800ZR optics (link technology);
* ``geothermal``: a geothermal plant (power source).

Every entry names its main source; any figure from elsewhere, and every
engineering estimate, is listed in ``figure_sources`` with its tag in brackets.
Nothing is computed at import time: geomodel calls the hooks when it builds
its catalogue.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from geomodel import HardwareSystem, LinkTechnology, Location, PowerSource, hookimpl

#: The major version of geomodel's plugin API this plugin was written for.
GEOMODEL_PLUGIN_API = "1"

SPEED_OF_LIGHT_KM_PER_S = 299_792.458
#: Group index of pure-silica-core G.654 fibre at 1550 nm. Standard G.652 fibre has
#: a germania-doped core with n_g ~1.467-1.468 (4.90 us/km); a pure-silica core with
#: a fluorine-doped cladding sits a little lower, ~1.462-1.463 [estimate].
G654_GROUP_INDEX = 1.4625


@hookimpl
def register_hardware_systems() -> list[HardwareSystem]:
    return [
        HardwareSystem(
            name="mi350x_8",
            vendor="AMD",
            system="Instinct MI350X 8-GPU platform (air-cooled)",
            chip="MI350X (OAM, 1000 W)",
            chips_per_system=8,
            scale_up_domain_chips=8,  # xGMI fully connected mesh of 8 GPUs
            racks_per_system=0.25,
            bf16_dense_pflops_per_chip=2.3,
            fp8_dense_pflops_per_chip=4.6,
            fp4_dense_pflops_per_chip=9.2,
            hbm_gb_per_chip=288,
            hbm_bandwidth_tbyte_s_per_chip=8.0,
            active_power_kw_per_chip=1.75,  # ~14 kW per server / 8 GPUs
            idle_power_kw_per_chip=0.5,
            scale_up_bandwidth_gbyte_s_per_chip=1075,  # 7 links x 153.6 GB/s
            scale_out_bandwidth_gbit_s_per_chip=400,
            mtbf_hours_per_chip=50_000,
            capex_usd_per_system=None,  # not public
            source="AMD Instinct MI350 series launch, June 2025 (The Register 2025-06-12): MI350X "
            "air-cooled at 1000 W, 288 GB HBM3E at 8 TB/s, about 8 % below the MI355X's peaks",
            source_type="press",
            figure_sources={
                "bf16_dense_pflops_per_chip": "MI355X's 2.5 PFLOPS less about 8 % [estimate]",
                "fp8_dense_pflops_per_chip": "twice the BF16 rate, as on MI355X [estimate]",
                "fp4_dense_pflops_per_chip": "twice the FP8 rate, as on MI355X [estimate]",
                "active_power_kw_per_chip": "~14 kW per 8-GPU server (1000 W GPUs plus host, NICs "
                "and fans) divided by 8; the scale-out switch share (2-3 %) lies within the "
                "estimate [estimate]",
                "idle_power_kw_per_chip": "a powered, idle 8-GPU server draws roughly a quarter to "
                "a third of its load power [estimate]",
                "racks_per_system": "8U-class server, about 4 per rack [estimate]",
                "mtbf_hours_per_chip": "no MI350X fleet data published; taken from the H100 figure "
                "derived from Llama 3 405B (419 unexpected interruptions, 16,384 GPUs, 54 days "
                "-> ~51,000 h per GPU) [estimate]",
            },
            notes="Press figures of the launch, not re-verified against AMD's datasheet.",
        )
    ]


@hookimpl
def register_link_technologies() -> list[LinkTechnology]:
    transceiver_w = 27.0  # one 800ZR pluggable, middle of the 24-30 W range
    return [
        LinkTechnology(
            name="ull_800zr",
            fibre_kind="ultra_low_loss_smf",  # G.654 pure-silica-core single-mode fibre
            optics="OIF 800ZR (DP-16QAM, 118.2 GBd, 150 GHz grid)",
            latency_us_per_km=round(1e6 * G654_GROUP_INDEX / SPEED_OF_LIGHT_KM_PER_S, 3),
            capacity_gbit_s_per_fibre_pair=32 * 800,  # 32 x 150 GHz channels in ~4.8 THz C-band
            transceiver_power_w_per_gbit_s=2 * transceiver_w / 800,  # a module at each end
            amplifier_power_w_per_span=150,
            span_km=100,
            reach_km=120,
            route_factor=1.3,
            source="OIF 800ZR Implementation Agreement (Oct 2024): 800G per wavelength over an "
            "80-120 km single amplified span",
            source_type="agency",
            figure_sources={
                "latency_us_per_km": "group index ~1.4625 of pure-silica-core fibre / c; ULL G.654 "
                "fibre is listed at ~4.88-4.90 us/km (Nature Photonics 2025 coverage) [press]",
                "capacity_gbit_s_per_fibre_pair": "C-band DWDM ~4.8 THz, 32 x 800G at 150 GHz "
                "(mapyourtech C+L guide) [press]",
                "transceiver_power_w_per_gbit_s": "800ZR module ~24-30 W, 27 W at each end [estimate]",
                "amplifier_power_w_per_span": "in-line EDFA share per fibre pair, as for standard "
                "fibre [estimate]",
                "span_km": "the ~80 km span of G.652 fibre at ~0.2 dB/km stretched by the lower "
                "loss of ULL fibre, ~0.15 dB/km: the same span loss over ~107 km [estimate]",
                "reach_km": "the top of 800ZR's 80-120 km, which the lower loss makes "
                "reachable [estimate]",
                "route_factor": "median conduit stretch 1.3, Bozkurt et al., arXiv 1811.10737 [paper]",
            },
            notes="Ultra-low-loss fibre changes reach and span length more than latency: it is "
            "only ~0.4 % faster than standard G.652 fibre.",
        )
    ]


class GeothermalSource(PowerSource):
    """A geothermal plant: firm output, so the profile is flat at the annual means.

    A plugin whose source varies over the day or the year (run-of-river hydro, a
    wind farm with measured data) computes that shape here instead.
    """

    def hourly_profile(self, location: Location, time_index: pd.DatetimeIndex) -> pd.DataFrame:
        hours = len(time_index)
        return pd.DataFrame(
            {
                "capacity_factor": np.full(hours, self.capacity_factor),
                "price_usd_per_mwh": np.full(hours, self.price_usd_per_mwh),
                "carbon_kg_per_mwh": np.full(hours, self.carbon_kg_per_mwh),
            },
            index=time_index,
        )


@hookimpl
def register_power_sources() -> list[PowerSource]:
    return [
        GeothermalSource(
            name="geothermal",
            kind="geothermal",
            carbon_kg_per_mwh=38,  # gCO2e/kWh, lifecycle median
            carbon_basis="lifecycle",
            price_usd_per_mwh=70,
            price_basis="levelised cost of energy of new plants",
            capacity_factor=0.8,
            source="IPCC AR5 WGIII Annex III (Schlomer et al. 2014), Table A.III.2: "
            "lifecycle median 38 gCO2e/kWh",
            source_type="agency",
            figure_sources={
                "price_usd_per_mwh": "levelised cost of new geothermal plants, roughly "
                "60-80 USD/MWh [estimate]",
                "capacity_factor": "flash and binary plants run as baseload at 70-90 % [estimate]",
            },
        )
    ]
