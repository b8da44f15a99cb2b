"""What every constraint group shares: model units, the integer choices, fast linear expressions.

Units inside the model keep coefficients within roughly 1e-3..1e6: chips,
MW and MWh, EFLOP, million tokens per second (Mtoken/s), tCO2e and thousand
USD (kUSD).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pyomo.core.expr.numeric_expr import LinearExpression, MonomialTermExpression

#: PFLOPS sustained for one hour, in EFLOP (3600 s x 1e15 FLOP / 1e18).
EFLOP_PER_PFLOPS_HOUR = 3.6
#: Seconds per hour, to turn Mtoken/s over an hour into Mtoken.
SECONDS_PER_HOUR = 3600.0
TOKENS_PER_MTOKEN = 1e6
USD_PER_KUSD = 1000.0
KG_PER_TONNE = 1000.0


@dataclass(frozen=True)
class IntegerChoices:
    """Which integer options of the model (docs/model.md) are used."""

    systems_on_off: bool = False
    dp_replicas: bool = False
    site_participation: bool = False
    whole_systems: bool = False
    site_opening: bool = False
    whole_fibre_pairs: bool = False

    @property
    def any(self) -> bool:
        return any(getattr(self, name) for name in self.__dataclass_fields__)


def linear(coefs: Iterable[float], variables: Iterable, constant: float = 0.0) -> LinearExpression:
    """A linear expression built directly (much faster than summing terms); a term with
    coefficient 1 is the variable itself, without a product object."""
    args: list = [constant] if constant else []
    args.extend(
        var if coef == 1.0 else MonomialTermExpression((coef, var))
        for coef, var in zip(coefs, variables, strict=True)
    )
    return LinearExpression(args)
