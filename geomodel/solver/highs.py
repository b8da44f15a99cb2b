"""Hand a Pyomo model to HiGHS as matrices and read the solution back.

Pyomo's ``LinearStandardFormCompiler`` (mixed form) turns the model into
sparse matrices, which go to highspy's ``passModel`` directly: no file, no
external binary, and much less Python work per constraint than Pyomo's
persistent interfaces (see docs/performance.md).
"""

from __future__ import annotations

import threading
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
    "ipm": {"solver": "ipm", "run_crossover": "on"},
    "ipm_no_crossover": {"solver": "ipm", "run_crossover": "off"},
    "pdlp": {"solver": "pdlp"},
}
#: ``auto``: LPs with fewer columns than this go to primal simplex, larger ones to
#: interior point. Measured on geomodel's own LPs (bench/solver_methods.py,
#: docs/performance.md): primal is fastest at 10^4 columns; at 10^5 primal and IPX
#: trade places with the load (11.2 vs 16.2 s, 14.5 vs 7.8 s); at 10^6 primal takes
#: 641 s and IPX 192 s. Dual simplex, HiGHS's own choice, is never the fastest.
#: ``auto`` keeps IPX's crossover to a vertex solution, although it took 47 of IPX's
#: 192 s at 10^6 columns: a vertex is a sparse plan with exact zeros, like the
#: simplex methods give at smaller sizes, and a basis a re-solve can start from
#: (Pareto points); without crossover the plan is an interior point of the optimal
#: face, spreading load thinly over equally cheap options.
AUTO_IPM_MIN_COLUMNS = 100_000
#: HiGHS calls a plan optimal when no reduced cost is below minus this (its dual
#: feasibility tolerance), in the objective's units, kUSD. HiGHS's default, 1e-7 kUSD,
#: made two options 1e-4 USD per chip-hour apart a tie decided by the path the solver
#: took (issue 13's near-tie: 0.03 USD/MWh, 3.2e-5 USD per working chip-hour, solved to
#: the dearer site). At 1e-9 kUSD the resolution is 1e-6 USD per chip-hour, far below a
#: cent. It only changes when HiGHS stops, not its path: bench/tie_resolution.py found
#: the same iterations on every benchmark LP, where handing HiGHS the objective in USD
#: instead (the other fix) took 13 % more interior-point iterations at 10^5 columns.
DUAL_FEASIBILITY_TOLERANCE = 1e-9
#: Longest the search for an irreducible infeasible subset may take, s
IIS_TIME_LIMIT_S = 60.0
#: The search may take this many times the model's own hand-over and solve time ...
IIS_SOLVE_FACTOR = 10.0
#: ... but at least this long, s (HiGHS's presolve often proves infeasibility in ms)
IIS_MIN_S = 2.0


def iis_time_limit(model_seconds: float, time_limit_s: float) -> float:
    """How long to search for an irreducible infeasible subset: ``IIS_SOLVE_FACTOR`` x
    the model's hand-over and solve time, within [``IIS_MIN_S``, ``IIS_TIME_LIMIT_S``]
    and never beyond the scenario's own time limit."""
    bounded = min(max(IIS_MIN_S, IIS_SOLVE_FACTOR * model_seconds), IIS_TIME_LIMIT_S)
    return min(bounded, time_limit_s)


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
    #: how long the search for them took and was allowed, s (NaN: not searched)
    iis_seconds: float = float("nan")
    iis_limit_s: float = float("nan")
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


def chosen_method(method: str, form: StandardForm, relaxation: bool = False) -> str:
    """The method ``auto`` stands for on this model; a MIP keeps HiGHS's own choice (its
    LP relaxation, ``relaxation``, is an LP like any other)."""
    if form.is_mip and not relaxation:
        return "branch_and_bound"
    if method != "auto":
        return method
    return "ipm" if len(form.columns) >= AUTO_IPM_MIN_COLUMNS else "primal_simplex"


#: HiGHS's own defaults of the options ``METHOD_OPTIONS`` sets, restored for branch and bound
BRANCH_AND_BOUND_OPTIONS: dict[str, str | int] = {
    "solver": "choose",
    "simplex_strategy": 1,
    "run_crossover": "on",
}


def solve_model(model: pyo.ConcreteModel, settings: SolverSettings) -> SolveOutcome:
    """Solve with HiGHS and load the solution into the model's variables."""
    return HighsSession(model, settings).run()


#: the thread count HiGHS's process-wide scheduler was started with (None: not yet)
_scheduler_threads: int | None = None
_scheduler_lock = threading.Lock()


def _match_scheduler(threads: int) -> None:
    """HiGHS starts one thread pool per process, at its first run, and a later run that
    asks for another thread count fails ("Not Set"): restart the pool when it differs
    (``threads`` 0 is HiGHS's own choice)."""
    global _scheduler_threads
    wanted = max(int(threads), 0)
    with _scheduler_lock:
        if _scheduler_threads is not None and _scheduler_threads != wanted:
            highspy.Highs.resetGlobalScheduler(True)
        _scheduler_threads = wanted


class HighsSession:
    """A model handed to HiGHS once, to be solved again after small changes.

    Each :meth:`run` after a change of a row bound or coefficient starts from the
    last basis (Pareto points: 1.6-5.1x faster than rebuilding, bench/resolve.py).
    """

    def __init__(self, model: pyo.ConcreteModel, settings: SolverSettings) -> None:
        started = time.perf_counter()
        self.form = to_highs_lp(model)
        self.settings = settings
        self.highs = highspy.Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.setOptionValue("mip_rel_gap", float(settings.mip_gap))
        self.highs.setOptionValue("dual_feasibility_tolerance", DUAL_FEASIBILITY_TOLERANCE)
        if settings.threads > 0:
            self.highs.setOptionValue("threads", int(settings.threads))
        self.method = chosen_method(settings.method, self.form)
        self._use(self.method)
        self.highs.passModel(self.form.lp)
        self.form.lp = None  # HiGHS holds its own copy; free ours before the solve
        self._pending_seconds = time.perf_counter() - started
        self._row_of: dict[int, int] = {}
        self._column_of: dict[int, int] = {}
        self._relaxed = False  # a MIP's relaxation has been solved: its basis is there
        #: import Suffixes named ``dual`` or ``<prefix>_dual`` (a model extension's, for the
        #: shadow prices of its constraints) get every constraint's dual after a solve
        self.duals = [
            suffix
            for suffix in model.component_objects(pyo.Suffix, descend_into=False)
            if suffix.import_enabled()
            and (suffix.local_name == "dual" or suffix.local_name.endswith("_dual"))
        ]
        #: the row duals of the last solve (objective units per row unit), None without
        #: them: a MIP has none until :meth:`fixed_integer_duals`
        self.row_duals: np.ndarray | None = None

    def _use(self, method: str) -> None:
        for name, value in METHOD_OPTIONS.get(method, {}).items():
            self.highs.setOptionValue(name, value)

    def run(self, relaxation: bool = False, time_limit_s: float | None = None) -> SolveOutcome:
        """Solve (warm after the first run) and load the solution into the model.

        ``relaxation``: solve a MIP's LP relaxation, every integer column continuous
        (HiGHS's ``solve_relaxation``); the next run without it is the MIP again.
        ``time_limit_s``: this run's limit (default: the settings').
        """
        highs, form = self.highs, self.form
        if form.is_mip:
            highs.setOptionValue("solve_relaxation", relaxation)
            self.method = chosen_method(self.settings.method, form, relaxation)
            if relaxation and self._relaxed and self.settings.method == "auto":
                # a relaxation again after bounds changed: dual simplex from the last basis
                self.method = "dual_simplex"
            self._relaxed = self._relaxed or relaxation
            for name, value in BRANCH_AND_BOUND_OPTIONS.items():
                highs.setOptionValue(name, value)
            self._use(self.method)
        is_mip = form.is_mip and not relaxation
        # HiGHS counts time_limit from the object's first run (ERGO-Code/HiGHS#1477)
        limit_s = self.settings.time_limit_s if time_limit_s is None else time_limit_s
        highs.setOptionValue("time_limit", highs.getRunTime() + float(max(limit_s, 0.0)))
        _match_scheduler(self.settings.threads)
        began = time.perf_counter()
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
            mip_gap=info.mip_gap if is_mip and has_solution else (0.0 if has_solution else None),
            has_solution=has_solution,
            handover_seconds=self._pending_seconds,
            solve_seconds=solved - began,
            is_mip=is_mip,
            highs_version=highs.version(),
            method=self.method,
        )
        self._pending_seconds = 0.0
        self.row_duals = None
        if has_solution:
            solution = highs.getSolution()
            for var, value in zip(form.columns, solution.col_value, strict=True):
                var.set_value(value, skip_validation=True)
            if not form.is_mip and info.dual_solution_status == 2:  # kSolutionStatusFeasible
                self.row_duals = np.asarray(solution.row_dual, dtype=float)
            if self.duals and not form.is_mip:
                self._load_duals(solution.row_dual)
        if self.method.startswith("ipm"):  # an interior point cannot start warm; simplex can
            self.method = "primal_simplex"
            self._use(self.method)
        return outcome

    def _load_duals(self, row_duals) -> None:
        """Each constraint's dual (d objective / d right-hand side, objective units per
        constraint unit) into the dual Suffixes; a ranged constraint's two rows add up, as
        only the binding one is non-zero."""
        duals: dict = {}
        for row, value in zip(self.form.rows, row_duals, strict=True):
            duals[row.constraint] = duals.get(row.constraint, 0.0) + float(value)
        for suffix in self.duals:
            suffix.clear()
            suffix.update(duals)

    def fixed_integer_duals(self) -> None:
        """After a MIP with a solution: the row duals of the LP with every integer column
        fixed at its value (what a marginal MW is worth with the MIP's whole decisions held),
        into :attr:`row_duals` and the dual Suffixes; HiGHS is left with the MIP as it was."""
        if not self.form.is_mip or self.row_duals is not None:
            return
        highs = self.highs
        columns = self.form.columns
        integer = np.array([i for i, v in enumerate(columns) if v.is_integer()], dtype=np.int32)
        values = np.round(np.asarray(highs.getSolution().col_value, dtype=float)[integer])
        lp = highs.getLp()
        lower, upper = np.asarray(lp.col_lower_)[integer], np.asarray(lp.col_upper_)[integer]
        count = len(integer)
        continuous = [highspy.HighsVarType.kContinuous] * count
        highs.changeColsIntegrality(count, integer, np.array(continuous))
        highs.changeColsBounds(count, integer, values, values)
        highs.run()
        if highs.getInfo().dual_solution_status == 2:
            self.row_duals = np.asarray(highs.getSolution().row_dual, dtype=float)
            if self.duals:
                self._load_duals(self.row_duals)
        highs.changeColsBounds(count, integer, lower, upper)
        integral = [highspy.HighsVarType.kInteger] * count
        highs.changeColsIntegrality(count, integer, np.array(integral))

    def duals_of(self, constraint) -> dict:
        """Index -> row dual of each row of an indexed Pyomo constraint (empty without duals)."""
        if self.row_duals is None:
            return {}
        if not self._row_of:
            self._row_of = {id(entry.constraint): i for i, entry in enumerate(self.form.rows)}
        found = {}
        for index, data in constraint.items():
            row = self._row_of.get(id(data))
            if row is not None:  # a row the compiler dropped (no variables) has no dual
                found[index] = float(self.row_duals[row])
        return found

    def find_iis(self, outcome: SolveOutcome) -> None:
        """After an infeasible :meth:`run`: the constraints of an irreducible infeasible
        subset, searched for at most :func:`iis_time_limit` of the model's own time."""
        limit_s = iis_time_limit(
            outcome.handover_seconds + outcome.solve_seconds, self.settings.time_limit_s
        )
        started = time.perf_counter()
        outcome.iis_constraints = _iis(self.highs, self.form, limit_s)
        outcome.iis_seconds = time.perf_counter() - started
        outcome.iis_limit_s = limit_s

    def set_column_bounds(self, variables: list, lower, upper) -> None:
        """Bound ``variables`` to [lower, upper] (numbers, or one per variable) for the
        next runs."""
        if not variables:
            return
        started = time.perf_counter()
        columns = np.array([self._column(var) for var in variables], dtype=np.int32)
        n = len(columns)
        low = np.broadcast_to(np.asarray(lower, dtype=float), n).copy()
        high = np.broadcast_to(np.asarray(upper, dtype=float), n).copy()
        self.highs.changeColsBounds(n, columns, low, high)
        self._pending_seconds += time.perf_counter() - started

    def restore_column_bounds(self, variables: list) -> None:
        """Give ``variables`` back the bounds the model states."""
        inf = highspy.kHighsInf
        lower = [-inf if var.lb is None else var.lb for var in variables]
        upper = [inf if var.ub is None else var.ub for var in variables]
        self.set_column_bounds(variables, lower, upper)

    def integer_variables(self) -> list:
        """The model's integer (and binary) variables, in column order."""
        return [var for var in self.form.columns if var.is_integer()]

    def start_from(self, values: np.ndarray) -> None:
        """Give branch and bound a feasible solution (column values) to start from."""
        solution = highspy.HighsSolution()
        solution.col_value = list(map(float, values))
        solution.value_valid = True
        self.highs.setSolution(solution)

    def column_values(self) -> np.ndarray:
        """Column values of the last run's solution."""
        return np.asarray(self.highs.getSolution().col_value, dtype=float)

    def set_row_upper(self, constraint, upper: float) -> None:
        """Change the upper bound of a one-row ``<=`` constraint."""
        started = time.perf_counter()
        self.highs.changeRowBounds(self._row(constraint), -highspy.kHighsInf, float(upper))
        self._pending_seconds += time.perf_counter() - started

    def set_coefficient(self, constraint, var, value: float) -> None:
        """Change the coefficient of ``var`` in a one-row constraint."""
        started = time.perf_counter()
        self.highs.changeCoeff(self._row(constraint), self._column(var), float(value))
        self._pending_seconds += time.perf_counter() - started

    def _row(self, constraint) -> int:
        if not self._row_of:
            self._row_of = {id(entry.constraint): i for i, entry in enumerate(self.form.rows)}
        row = self._row_of[id(constraint)]
        if self.form.rows[row].bound_type != 1:
            raise ValueError(f"{constraint.name} is not a single <= row")
        return row

    def _column(self, var) -> int:
        if not self._column_of:
            self._column_of = {id(v): i for i, v in enumerate(self.form.columns)}
        return self._column_of[id(var)]


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
