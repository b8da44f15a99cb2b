"""The minimal valid scenario: one site, one firm source, one training job, four hours.

It needs three built-in plugins: ``hardware`` (the ``hgx_h100_8`` system),
``dci`` (the default latency technology) and ``firm`` (the ``nuclear`` source,
here with an explicit price and carbon). Solved, the job runs on about half the
site's chips; nothing binds but the work itself, so an extension's constraint is
what a test sees change.
"""

from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

#: Built-in plugins the minimal scenario needs in its catalogue.
MINIMAL_PLUGINS = ("hardware", "dci", "firm")
#: The minimal scenario's only site; extension settings in tests refer to it.
MINIMAL_SITE = "site_a"
#: Its start: 1 January 2025, 00:00 UTC.
MINIMAL_START = "2025-01-01T00:00:00+00:00"


def minimal_scenario(
    *, hours: int = 4, extensions: dict[str, Any] | None = None, **sections: Any
) -> dict[str, Any]:
    """The minimal scenario as plain data in the scenario file format.

    ``extensions`` becomes the ``extensions`` section (settings by plugin name);
    any other keyword replaces that top-level section (``sites=...``,
    ``objective=...``). The result is a fresh dict a test may change further.

    The site ``site_a`` (40 N, 100 W) holds 16 HGX H100 servers (128 chips) and a
    1 MW firm ``nuclear`` contract at 60 USD/MWh and 12 kgCO2e/MWh, inside a 1 MW
    envelope. The job ``job`` asks 350 EFLOP: 128 chips x 0.989 PFLOPS x 0.4 MFU
    deliver 182 EFLOP an hour, so four hours are about half used.
    """
    data: dict[str, Any] = {
        "name": "minimal",
        "description": "geomodel.testing minimal scenario",
        "time": {"start": MINIMAL_START, "hours": hours, "resolution": "1 h"},
        "sites": {
            MINIMAL_SITE: {
                "lat": 40.0,
                "lon": -100.0,
                "power_envelope": "1 MW",
                "pue": 1.2,
                "systems": {"hgx_h100_8": 16},
                "power_sources": {
                    "nuclear": {"capacity": "1 MW", "price": "60 USD/MWh", "carbon": "12 kgCO2/MWh"}
                },
            }
        },
        "training": {
            "job": {
                "compute": "350 EFLOP",
                "gradient_size": "10 GB",
                "sync_interval": "10 s",
                "tp": 8,
                "mfu": 0.4,
            }
        },
        "objective": {"carbon_price": 0, "latency_weight": 0, "unserved_penalty": 1000},
        "solver": {"threads": 1, "time_limit": "60 s"},
    }
    if extensions:
        data["extensions"] = copy.deepcopy(extensions)
    data.update(copy.deepcopy(sections))
    return data


def load_minimal_scenario(
    catalog: Any = None, data: dict[str, Any] | None = None, folder: str | Path | None = None
) -> Any:
    """Validate ``data`` (default: :func:`minimal_scenario`) against ``catalog``.

    Returns a :class:`geomodel.Scenario`; raises :class:`geomodel.ScenarioError`
    with every problem. ``folder`` is where CSV files named in ``data`` are found.
    The catalogue defaults to one built from the plugins in :data:`MINIMAL_PLUGINS`.
    """
    from ruamel.yaml import YAML

    from geomodel.catalog import build_catalog
    from geomodel.scenario import load_scenario_text
    from geomodel.testing.hosts import plugin_host

    if catalog is None:
        catalog = build_catalog(plugin_host(*MINIMAL_PLUGINS))
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    text = io.StringIO()
    yaml.dump(data if data is not None else minimal_scenario(), text)
    return load_scenario_text(
        text.getvalue(), folder or Path.cwd(), label="minimal scenario", catalog=catalog
    )
