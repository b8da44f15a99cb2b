"""The pathway view (geomodel/ui/components/pathway_view.py): the timeline chart stacks
each period's capex by asset and marks when it was decided, and the view draws the
timeline, the periods and a map of the chosen period from a saved pathway (AppTest).
The pathway is test_pathway_optima.py's lead-time case: 0.93 MW of facility power
decided in 2026 for 2030."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "model"))

from test_pathway_optima import H100, pathway_scenario, tokens_per_s_per_system

from geomodel.pathway import solve_pathway
from geomodel.ui.components.pathway_view import timeline_chart


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("pathway_view")
    periods = {
        "years": [2026, 2028, 2030],
        "lead_times": {"facility": "4 years"},
        "demand_growth": {"chat": [0, 0, 1]},
    }
    build = {"power_envelope": {"max": "10 MW", "capex": "1000 USD/MW", "fixed_om": "0 USD/MW/year"}}
    kwargs = dict(
        build=build, periods=periods, rate=0.05, penalty=1e4, systems={H100: 100}, envelope_mw=0.5
    )
    demand = 100 * tokens_per_s_per_system(pathway_scenario(folder, demand_tokens_s=1, **kwargs), H100)
    result = solve_pathway(pathway_scenario(folder, demand_tokens_s=demand, **kwargs))
    return result.to_netcdf(folder / "pathway.nc")


def test_the_chart_puts_the_facility_in_2030_decided_in_2026(saved):
    from geomodel.results.result import open_result

    figure = timeline_chart(open_result(saved).dataset)
    (bar,) = figure.data
    assert list(bar.x) == ["2030"] or list(bar.x) == [2030]
    assert bar.name.startswith("facility power") and "2026" in bar.name
    assert float(bar.y[0]) == pytest.approx(float(open_result(saved).dataset["build_capex_usd"].sum()))


def test_the_view_shows_the_timeline_periods_and_a_period_map(saved):
    def page(path: str) -> None:
        from geomodel.results.result import open_result
        from geomodel.ui.components.pathway_view import show_pathway

        show_pathway(open_result(path).dataset, path)

    app = AppTest.from_function(page, args=(str(saved),), default_timeout=60).run()
    assert not app.exception, app.exception
    assert len(app.dataframe) == 2  # the timeline and the periods
    assert app.select_slider[0].value == 2026
    app.select_slider[0].set_value(2030).run()
    assert not app.exception, app.exception
