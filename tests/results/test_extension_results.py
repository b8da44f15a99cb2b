"""Extension outputs in the results (issue 24, item 7): each checked, a bad one left out
with a warning naming the plugin, KPIs stored with their units."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from geomodel import hookimpl
from geomodel.extensions import ExtensionKpi, ExtensionVariable
from geomodel.results.extension_results import add_extension_results, extension_kpi_specs
from geomodel.testing import plugin_host


def results() -> xr.Dataset:
    return xr.Dataset(
        {"it_power_mw": (("site", "time"), np.ones((2, 3)), {"units": "MW"})},
        coords={"site": ["a", "b"], "time": [0, 1, 2]},
    )


class Returns:
    def __init__(self, *outputs):
        self.outputs = list(outputs)

    @hookimpl
    def extension_results(self, model, inputs, results):
        return self.outputs


class Raises:
    @hookimpl
    def extension_results(self):
        raise ZeroDivisionError("no water")


def added(*plugins) -> tuple[xr.Dataset, dict, list[str]]:
    host = plugin_host(*plugins)
    dataset = results()
    kpis, warnings = add_extension_results(None, xr.Dataset(), dataset, host)
    return dataset, kpis, warnings


def test_valid_outputs_join_the_results_with_units_and_the_kpis_are_kept():
    water = ExtensionVariable("acme_water_m3", ("site",), [1.5, 2.0], "m3", "water per site")
    total = ExtensionKpi("acme_total_water_m3", 3.5, "m3", "water drawn")
    dataset, kpis, warnings = added(("acme", Returns(water, total)))
    assert warnings == []
    assert dataset["acme_water_m3"].attrs == {"units": "m3", "description": "water per site"}
    assert dataset["acme_water_m3"].values.tolist() == [1.5, 2.0]
    assert kpis == {"acme_total_water_m3": 3.5}
    assert extension_kpi_specs(dataset) == {
        "acme_total_water_m3": {
            "value": 3.5,
            "units": "m3",
            "description": "water drawn",
            "plugin": "acme",
        }
    }


@pytest.mark.parametrize(
    ("output", "said"),
    [
        (ExtensionKpi("water_m3", 1.0, "m3", "x"), "must be named with the plugin's prefix 'acme_'"),
        (ExtensionKpi("acme_w", float("nan"), "m3", "x"), "KPI 'acme_w' = nan is not a finite number"),
        (ExtensionKpi("acme_w", 1.0, "", "x"), "output 'acme_w' needs its units (text)"),
        (ExtensionVariable("acme_v", ("site",), [1.0, 2.0, 3.0], "m3", "x"), "has shape (3,)"),
        (ExtensionVariable("acme_v", ("region",), [1.0], "m3", "x"), "dimensions ['region']"),
        ({"name": "acme_v"}, "returned a dict; return ExtensionVariable and ExtensionKpi"),
    ],
)
def test_an_output_that_breaks_a_rule_is_left_out_with_a_warning_naming_the_plugin(output, said):
    good = ExtensionKpi("acme_ok", 1.0, "1", "fine")
    dataset, kpis, (warning,) = added(("acme", Returns(output, good)))
    assert warning.startswith("warning: plugin 'acme' (distribution local) extension_results: ")
    assert said in warning and warning.endswith("left out of the results")
    assert kpis == {"acme_ok": 1.0} and "acme_v" not in dataset


def test_a_raising_hook_is_a_warning_naming_the_plugin_and_the_others_still_count():
    kpi = ExtensionKpi("other_kpi", 2.0, "1", "fine")
    _, kpis, (warning,) = added(("acme", Raises()), ("other", Returns(kpi)))
    assert "plugin 'acme' (distribution local) extension_results: ZeroDivisionError" in warning
    assert "its outputs are missing from the results" in warning
    assert kpis == {"other_kpi": 2.0}


def test_a_core_name_cannot_be_taken():
    clash = ExtensionVariable("it_power_mw", ("site",), [1.0, 1.0], "MW", "x")
    _, _, (warning,) = added(("it", Returns(clash)))
    assert "output 'it_power_mw' is already a results name" in warning
