"""Shadow prices: what one more MW of a site's power envelope is worth to the plan.

The envelope rows (docs/model.md (4): facility power <= installed (+ built) envelope,
one per site and step) and, in a plan where the grid connection follows the envelope,
the rows that hold grid import within it (P2), all have the installed envelope on their
right-hand side. One more MW there moves the objective by the sum of those rows' duals
(HiGHS: the objective's change per unit of a row's bound; <= 0 for a binding upper
bound of a minimisation), so the envelope's worth is minus that sum, in USD per MW over
the horizon (the objective is kUSD over the horizon). An LP's duals come with its
solution; a MIP has none, so they are read from the LP with every integer decision fixed
at its value (:meth:`~geomodel.solver.highs.HighsSession.fixed_integer_duals`): the worth
of a marginal MW with the plan's whole decisions held. A sum of duals is the derivative
for small changes; one more MW can cross a corner where it changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from geomodel.inputs.dataset import variable

USD_PER_KUSD = 1000.0
#: how the duals were found, for the result's attributes
BASIS = {False: "LP duals", True: "duals of the LP with the integer decisions fixed"}


def add_shadow_prices(results: xr.Dataset, model: Any, session: Any) -> None:
    """``envelope_shadow_price_usd_per_mw`` (site) and its per-step parts
    (``envelope_dual_usd_per_mw``, site x time) into ``results``; nothing without duals."""
    session.fixed_integer_duals()
    duals = session.duals_of(model.envelope)
    if not duals:
        return
    inputs: xr.Dataset = model.inputs
    n_sites, n_time = inputs.sizes["site"], inputs.sizes["time"]
    per_step = np.zeros((n_sites, n_time))
    for (s, t), dual in duals.items():
        per_step[s, t] -= dual
    follows = getattr(model, "grid_follows_envelope", None)
    if follows is not None:
        for (s, t), dual in session.duals_of(follows).items():
            per_step[s, t] -= dual
    per_step *= USD_PER_KUSD
    results["envelope_dual_usd_per_mw"] = variable(
        ("site", "time"),
        per_step,
        "USD/MW",
        "what one more MW of the site's envelope is worth in the step: minus the duals of its "
        "envelope rows (and grid-follows-envelope rows), the horizon's cost",
    )
    results["envelope_shadow_price_usd_per_mw"] = variable(
        "site",
        per_step.sum(axis=1),
        "USD/MW",
        "what one more MW of the site's installed power envelope is worth over the horizon "
        "(minus the sum of its envelope rows' duals)",
    )
    results.attrs["shadow_price_basis"] = BASIS[bool(session.form.is_mip)]
