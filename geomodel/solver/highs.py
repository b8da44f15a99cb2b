"""Hand a Pyomo model to HiGHS as matrices and read the solution back.

Pyomo's ``LinearStandardFormCompiler`` (mixed form) turns the model into
sparse matrices, which go to highspy's ``passModel`` directly: no file, no
external binary, and much less Python work per constraint than Pyomo's
persistent interfaces (see docs/performance.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import highspy
import numpy as np
import pyomo.environ as pyo
from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

STATUS_WORDS = {
    highspy.HighsModelStatus.kOptimal: "optimal",
    highspy.HighsModelStatus.kInfeasible: "infeasible",
    highspy.HighsModelStatus.kUnboundedOrInfeasible: "infeasible",
    highspy.HighsModelStatus.kUnbounded: "unbounded",
    highspy.HighsModelStatus.kTimeLimit: "time_limit",
    highspy.HighsModelStatus.kIterationLimit: "iteration_limit",
    highspy.HighsModelStatus.kSolutionLimit: "solution_limit",
    highspy.HighsModelStatus.kModelEmpty: "optimal",
    highspy.HighsModelStatus.kInterrupt: "interrupted",
}


#: ``solver.method`` -> the HiGHS options that select it
METHOD_OPTIONS: dict[str, dict[str, str | int]] = {
    "dual_simplex": {"solver": "simplex", "simplex_strategy": 1},
    "primal_simplex": {"solver": "simplex", "simplex_strategy": 4},
    "ipm": {"solver": "ipm"},
    "pdlp": {"solver": "pdlp"},
}
#: ``auto``: LPs with fewer columns than this go to primal simplex, larger ones to
#: interior point (measured on geomodel's own LPs: docs/performance.md)
AUTO_IPM_MIN_COLUMNS = 300_000
#: Longest the search for an irreducible infeasible subset may take, s
IIS_TIME_LIMIT_S = 60.0


@dataclass
class SolverSettings:
    time_limit_s: float = 600.0
    mip_gap: float = 0.01
    threads: int = 1
    method: str = "auto"


@dataclass
class SolveOutcome:
    """What HiGHS said, in words, plus the solution when there is one."""

    status: str
    message: str
    objective: float | None = None
    mip_gap: float | None = None
    has_solution: bool = False
    handover_seconds: float = 0.0
    solve_seconds: float = 0.0
    is_mip: bool = False
    iis_constraints: list[str] = field(default_factory=list)
    highs_version: str = ""
    method: str = ""


@dataclass
class StandardForm:
    """The model as HiGHS sees it, and the way back to Pyomo components."""

    lp: highspy.HighsLp | None  # None once handed to HiGHS
    columns: list
    rows: list
    is_mip: bool


def to_highs_lp(model: pyo.ConcreteModel) -> StandardForm:
    """Compile the model to a ``HighsLp`` (column-wise sparse matrix)."""
    info = LinearStandardFormCompiler().write(model, mixed_form=True)
    columns = info.columns
    n_cols = len(columns)
    lp = highspy.HighsLp()
    lp.num_col_ = n_cols
    lp.num_row_ = len(info.rows)
    cost = info.c.toarray()[0] if info.c.shape[0] else np.zeros(n_cols)
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.offset_ = float(info.c_offset[0]) if len(info.c_offset) else 0.0
    inf = highspy.kHighsInf
    lp.col_lower_ = np.array([-inf if v.lb is None else v.lb for v in columns], dtype=float)
    lp.col_upper_ = np.array([inf if v.ub is None else v.ub for v in columns], dtype=float)
    integer = np.array([v.is_integer() for v in columns], dtype=bool)
    if integer.any():
        lp.integrality_ = [
            highspy.HighsVarType.kInteger if flag else highspy.HighsVarType.kContinuous
            for flag in integer
        ]
    rhs = np.asarray(info.rhs, dtype=float)
    kind = np.array([row.bound_type for row in info.rows], dtype=int)
    lp.row_lower_ = np.where(kind <= 0, rhs, -inf)
    lp.row_upper_ = np.where(kind >= 0, rhs, inf)
    matrix = info.A.tocsc()
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr
    lp.a_matrix_.index_ = matrix.indices
    lp.a_matrix_.value_ = matrix.data
    lp.a_matrix_.num_col_ = n_cols
    lp.a_matrix_.num_row_ = lp.num_row_
    return StandardForm(lp, columns, info.rows, bool(integer.any()))


def chosen_method(method: str, form: StandardForm) -> str:
    """The method ``auto`` stands for on this model; a MIP keeps HiGHS's own choice."""
    if form.is_mip:
        return "branch_and_bound"
    if method != "auto":
        return method
    return "ipm" if len(form.columns) >= AUTO_IPM_MIN_COLUMNS else "primal_simplex"


def solve_model(model: pyo.ConcreteModel, settings: SolverSettings) -> SolveOutcome:
    """Solve with HiGHS and load the solution into the model's variables."""
    started = time.perf_counter()
    form = to_highs_lp(model)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("time_limit", float(settings.time_limit_s))
    highs.setOptionValue("mip_rel_gap", float(settings.mip_gap))
    if settings.threads > 0:
        highs.setOptionValue("threads", int(settings.threads))
    method = chosen_method(settings.method, form)
    for name, value in METHOD_OPTIONS.get(method, {}).items():
        highs.setOptionValue(name, value)
    highs.passModel(form.lp)
    form.lp = None  # HiGHS holds its own copy; free ours before the solve
    handed_over = time.perf_counter()
    highs.run()
    solved = time.perf_counter()
    status = highs.getModelStatus()
    info = highs.getInfo()
    words = STATUS_WORDS.get(status, "error")
    has_solution = info.primal_solution_status == 2  # kSolutionStatusFeasible
    outcome = SolveOutcome(
        status=words,
        message=highs.modelStatusToString(status),
        objective=info.objective_function_value if has_solution else None,
        mip_gap=info.mip_gap if form.is_mip and has_solution else (0.0 if has_solution else None),
        has_solution=has_solution,
        handover_seconds=handed_over - started,
        solve_seconds=solved - handed_over,
        is_mip=form.is_mip,
        highs_version=highspy.Highs().version(),
        method=method,
    )
    if has_solution:
        values = highs.getSolution().col_value
        for var, value in zip(form.columns, values, strict=True):
            var.set_value(value, skip_validation=True)
    elif words == "infeasible":
        outcome.iis_constraints = _iis(highs, form, min(IIS_TIME_LIMIT_S, settings.time_limit_s))
    return outcome


def _iis(highs: highspy.Highs, form: StandardForm, time_limit_s: float) -> list[str]:
    """Names of the constraints in an irreducible infeasible subset, if HiGHS finds one
    within ``time_limit_s`` (on a large model the search can take far longer than the solve)."""
    # the default ("light") strategy only checks bounds; derive the IIS from the LP
    strategy = int(highspy.IisStrategy.kIisStrategyFromLp) | int(
        highspy.IisStrategy.kIisStrategyIrreducible
    )
    try:
        highs.setOptionValue("iis_strategy", strategy)
        highs.setOptionValue("iis_time_limit", float(time_limit_s))
        status, iis = highs.getIis()
    except Exception:  # IIS is best effort; the status is reported regardless
        return []
    if status != highspy.HighsStatus.kOk or not iis.valid_:
        return []
    names = [form.rows[index].constraint.name for index in iis.row_index_]
    return list(dict.fromkeys(names))
